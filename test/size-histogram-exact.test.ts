/**
 * A size recorder keeps every message, exactly: what a process reports for a size
 * histogram is, byte for byte, the HdrHistogram a histogram fed each size encodes,
 * labelled in bytes (not sampled, not rounded beyond the histogram's 3 digits).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsRegistry, summarizeSizeHistograms } from '../src/shared/measure/metrics.js';
import { histogramOf } from './fixtures/synthetic-results.js';

test('every size recorded is in the encoded histogram, in bytes, as hdr-histogram-js encodes it', () => {
  const metrics = new MetricsRegistry();
  const sizes = metrics.sizeHistogram('messageBytes');
  // A firehose-like spread: small updates, fragmented snapshots, one huge message, a zero-byte one.
  const recorded = [
    0,
    1,
    97,
    220,
    221,
    2047,
    2048,
    8192,
    80_000,
    64 * 1024 * 1024,
    ...Array.from({ length: 10_000 }, (_, i) => 150 + (i % 173)),
  ];
  for (const bytes of recorded) sizes.recordBytes(bytes);
  // The same recorder asked for again is the same histogram.
  metrics.sizeHistogram('messageBytes').recordBytes(220);
  const expected = [...recorded.map((b) => Math.max(b, 1)), 220];
  const encoded = metrics.encodeAll().messageBytes!;
  assert.equal(encoded.unit, 'bytes');
  assert.equal(encoded.hdrBase64, histogramOf(expected).hdrBase64);
  const summary = summarizeSizeHistograms(metrics.encodeAll()).messageBytes!;
  assert.equal(summary.count, expected.length);
  assert.equal(summary.minBytes, 1);
});

test('a size histogram with no message encodes as an empty histogram and summarises as no samples', () => {
  const metrics = new MetricsRegistry();
  metrics.sizeHistogram('messageBytes');
  const encoded = metrics.encodeAll().messageBytes!;
  assert.equal(encoded.unit, 'bytes');
  assert.equal(encoded.hdrBase64, histogramOf([]).hdrBase64);
  assert.equal(summarizeSizeHistograms(metrics.encodeAll()).messageBytes, undefined);
});

test('sizes stay out of the latency intervals taken for progress ticks', () => {
  const metrics = new MetricsRegistry();
  metrics.sizeHistogram('messageBytes').recordBytes(100);
  assert.deepEqual(metrics.takeIntervals(), {});
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MetricsRegistry,
  decodeHistogram,
  mergeEncoded,
  mergeHistogramSets,
  summarizeEncoded,
  summarizeLatencies,
  sumCounterSets,
} from '../src/shared/measure/metrics.js';
import { shareOf } from '../src/shared/share.js';

/** Two "processes" record 1..1000 µs and 1001..2000 µs; below 2048 µs the histogram is exact. */
function twoProcesses() {
  const a = new MetricsRegistry();
  const b = new MetricsRegistry();
  for (let v = 1; v <= 1000; v++) a.histogram('rtt').recordUs(v);
  for (let v = 1001; v <= 2000; v++) b.histogram('rtt').recordUs(v);
  return { a: a.encodeAll(), b: b.encodeAll() };
}

test('merging encoded histograms from two processes gives the exact percentiles of all samples', () => {
  const { a, b } = twoProcesses();
  const summary = summarizeEncoded(mergeEncoded([a.rtt!, b.rtt!]));
  assert.deepEqual(summary, {
    count: 2000,
    minMs: 0.001,
    meanMs: 1.001, // 1000.5 µs, rounded to the µs
    stdevMs: 0.577, // sqrt((2000^2 - 1) / 12) µs
    p50Ms: 1,
    p90Ms: 1.8,
    p99Ms: 1.98,
    p999Ms: 1.998,
    maxMs: 2,
  });
});

test('merge is order-independent and equals recording everything in one histogram', () => {
  const { a, b } = twoProcesses();
  const single = new MetricsRegistry();
  for (let v = 1; v <= 2000; v++) single.histogram('rtt').recordUs(v);
  const forward = summarizeEncoded(mergeEncoded([a.rtt!, b.rtt!]));
  const backward = summarizeEncoded(mergeEncoded([b.rtt!, a.rtt!]));
  assert.deepEqual(forward, backward);
  assert.deepEqual(forward, summarizeEncoded(single.encodeAll().rtt!));
});

test('a histogram encoded by HdrHistogram (V2 compressed base64) decodes to its known contents', () => {
  // Values 1, 2, 3, 100, 1000 and 12345 µs; 12345 reads back as the top of its bucket, 12351.
  const fixture = 'HISTFAAAAC94nJNpmSzMwMDAy8DAwMjAwMDMAAEgNsO1yUsY4HwmJqb9jEytfEy7LZgAg3YFuQ==';
  const histogram = decodeHistogram({ unit: 'us', hdrBase64: fixture });
  assert.equal(histogram.totalCount, 6);
  assert.equal(histogram.minNonZeroValue, 1);
  assert.equal(histogram.getValueAtPercentile(50), 3);
  assert.equal(histogram.maxValue, 12351);
});

test('sub-microsecond samples count in the 1 µs bucket instead of vanishing', () => {
  const registry = new MetricsRegistry();
  registry.histogram('x').recordUs(0.2);
  assert.equal(summarizeEncoded(registry.encodeAll().x!)?.count, 1);
});

test('coordinated-omission correction backfills the samples a stall hid', () => {
  const registry = new MetricsRegistry();
  // One send every 1000 µs; one reply took 10 000 µs, so 9 sends queued behind it.
  registry.histogram('x').recordUsWithInterval(10_000, 1000);
  assert.equal(summarizeEncoded(registry.encodeAll().x!)?.count, 10);
});

test('histogram and counter sets merge by name across processes', () => {
  const { a, b } = twoProcesses();
  const merged = mergeHistogramSets([a, b, {}]);
  assert.deepEqual(Object.keys(merged), ['rtt']);
  assert.deepEqual(sumCounterSets([{ sent: 2, errors: 1 }, { sent: 3 }]), { sent: 5, errors: 1 });
});

test('shares spread a total over processes without losing any', () => {
  assert.deepEqual(
    [0, 1, 2].map((i) => shareOf(10, i, 3)),
    [4, 3, 3],
  );
  assert.deepEqual(
    [0, 1].map((i) => shareOf(1, i, 2)),
    [1, 0],
  );
});

test('size histograms travel with unit bytes and summarise in bytes, apart from latencies', async () => {
  const { summarizeSizes } = await import('../src/shared/measure/metrics.js');
  const registry = new MetricsRegistry();
  for (const bytes of [0, 100, 200, 300, 78_000]) registry.sizeHistogram('messageBytes').recordBytes(bytes);
  registry.histogram('rtt').recordUs(5);
  const encoded = registry.encodeAll();
  assert.equal(encoded.messageBytes!.unit, 'bytes');
  assert.equal(encoded.rtt!.unit, 'us');
  const sizes = summarizeSizes(mergeEncoded([encoded.messageBytes!, encoded.messageBytes!]));
  assert.ok(sizes);
  assert.equal(sizes.count, 10);
  assert.equal(sizes.minBytes, 1);
  assert.equal(sizes.p50Bytes, 200);
  assert.ok(Math.abs(sizes.maxBytes - 78_000) <= 78, 'max within 0.1%');
  assert.deepEqual(Object.keys(registry.takeIntervals()), ['rtt'], 'sizes have no latency-over-time interval');
});

test('an empty histogram has no summary: no samples is never 0 ms', () => {
  const registry = new MetricsRegistry();
  registry.histogram('rtt');
  registry.sizeHistogram('messageBytes');
  const encoded = registry.encodeAll();
  assert.equal(summarizeEncoded(encoded.rtt!), null);
  assert.deepEqual(summarizeLatencies(encoded), {});
});

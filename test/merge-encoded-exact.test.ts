/** Merging encoded histograms on their counts gives the bytes a merge of decoded histograms gives, and stays exact where 32-bit counts wrapped. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import hdr from 'hdr-histogram-js';
import { decodeHistogram, HISTOGRAM_OPTIONS, newHistogram } from '../src/shared/measure/histogram-codec.js';
import { encodeHistogram, mergeEncoded, summarizeEncoded, summarizeHistogram } from '../src/shared/measure/metrics.js';

/** Deterministic values over every octave up to `octaves`, so that a failure repeats. */
function spread(count: number, octaves: number, seed: number): number[] {
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => 1 + Math.floor(2 ** (random() * octaves)));
}

function filled(values: number[]): ReturnType<typeof newHistogram> {
  const histogram = newHistogram();
  for (const value of values) histogram.recordValue(value);
  return histogram;
}

test('a merge is byte for byte the encoding of one histogram fed every part', () => {
  const parts = [spread(3000, 21, 1), [], spread(500, 31.5, 2), [1, 2047, 2048, 3_599_999_999], spread(2000, 12, 3)];
  const whole = filled(parts.flat());
  assert.equal(
    mergeEncoded(parts.map((values) => encodeHistogram(filled(values)))).hdrBase64,
    encodeHistogram(whole).hdrBase64,
  );
  assert.equal(mergeEncoded([]).hdrBase64, encodeHistogram(newHistogram()).hdrBase64);
  // One reused array behind every merge: the next merge starts from zero.
  assert.equal(mergeEncoded([encodeHistogram(filled([5]))]).hdrBase64, encodeHistogram(filled([5])).hdrBase64);
});

test('a histogram resized past the range (over an hour in µs) still merges exactly', () => {
  const large = filled([7, 5_000_000_000]);
  const merged = mergeEncoded([encodeHistogram(large), encodeHistogram(filled([7, 70_000]))]);
  assert.deepEqual(summarizeEncoded(merged), summarizeEncoded(encodeHistogram(filled([7, 7, 70_000, 5_000_000_000]))));
  assert.equal(summarizeEncoded(merged)?.count, 4);
});

test('a bucket holding more than 2^32 samples keeps its count', () => {
  // A whole window of hours at a high rate puts billions of samples in one bucket.
  const packed = (): ReturnType<typeof hdr.build> => hdr.build({ ...HISTOGRAM_OPTIONS, bitBucketSize: 'packed' });
  const part = packed();
  part.recordValueWithCount(250, 3_000_000_000);
  part.recordValueWithCount(900, 5);
  const encoded = encodeHistogram(part);
  const merged = hdr.decodeFromCompressedBase64(mergeEncoded([encoded, encoded]).hdrBase64, 'packed', false);
  assert.equal(merged.totalCount, 6_000_000_010);
  assert.equal(merged.getValueAtPercentile(100), 900);
});

test('a summary of an encoded histogram is that of the histogram decoded, call after call', () => {
  for (const [seed, octaves] of [
    [4, 20],
    [5, 31],
    [6, 11],
  ] as const) {
    const encoded = encodeHistogram(filled(spread(1500, octaves, seed)));
    assert.deepEqual(summarizeEncoded(encoded), summarizeHistogram(decodeHistogram(encoded)));
  }
  assert.equal(summarizeEncoded(encodeHistogram(newHistogram())), null);
});

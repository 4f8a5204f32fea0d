/** The tally behind a latency recorder encodes exactly what a histogram fed each value would. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import hdr from 'hdr-histogram-js';
import { BucketTally, lowestValueOf } from '../src/core/bucket-tally.js';
import { decodeHistogram, newHistogram } from '../src/core/histogram-codec.js';

/** A fixed pseudo-random spread over every octave up to `octaves` (deterministic, so a failure repeats). */
function spread(count: number, octaves: number): number[] {
  let seed = 7;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => 1 + Math.floor(2 ** (random() * octaves)));
}

function fed(values: number[]): string {
  const histogram = newHistogram();
  for (const value of values) histogram.recordValue(value);
  return hdr.encodeIntoCompressedBase64(histogram);
}

test('intervals and the whole window encode byte for byte like histograms fed each value', () => {
  const tally = new BucketTally();
  // Edges of the exact range and of powers of two, and the tally's own top bucket, then a spread below 2^31.
  const first = [1, 2, 2047, 2048, 2049, 3071, 3072, 4095, 4096, 2 ** 31 - 1, ...spread(20_000, 30.99)];
  const second = spread(5_000, 14);
  for (const value of first) tally.record(value);
  assert.equal(tally.takeInterval()?.hdrBase64, fed(first));
  for (const value of second) tally.record(value);
  // The whole window while an interval is open, then that interval alone.
  assert.equal(tally.encodeAll().hdrBase64, fed([...first, ...second]));
  assert.equal(tally.takeInterval()?.hdrBase64, fed(second));
  assert.equal(tally.encodeAll().hdrBase64, fed([...first, ...second]));
});

test('values past the tally range (2^31 µs and more) are kept exactly too', () => {
  const tally = new BucketTally();
  const values = [5, 70_000, 2 ** 31, 3_500_000_000, 5_000_000_000];
  for (const value of values.slice(0, 3)) tally.record(value);
  assert.equal(tally.takeInterval()?.hdrBase64, fed(values.slice(0, 3)));
  for (const value of values.slice(3)) tally.record(value);
  assert.equal(tally.encodeAll().hdrBase64, fed(values));
});

test('an interval with no sample is null, and an empty tally encodes as an empty histogram', () => {
  const tally = new BucketTally();
  assert.equal(tally.takeInterval(), null);
  assert.equal(tally.encodeAll().hdrBase64, fed([]));
  tally.record(10);
  assert.ok(tally.takeInterval());
  assert.equal(tally.takeInterval(), null);
  assert.equal(decodeHistogram(tally.encodeAll()).totalCount, 1);
});

/** Methods the JavaScript histogram has that the package's types leave out. */
type Inspectable = { lowestEquivalentValue(value: number): number; getCountAtValue(value: number): number };

test('each tally bucket starts where the histogram puts its lowest value', () => {
  const histogram = newHistogram() as unknown as Inspectable;
  for (const index of [0, 1, 2047, 2048, 3071, 3072, 22_527]) {
    const low = lowestValueOf(index);
    assert.equal(histogram.lowestEquivalentValue(low), low, `bucket ${index} starts at ${low}`);
  }
});

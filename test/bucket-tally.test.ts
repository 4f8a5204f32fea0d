/** The tally behind a latency recorder encodes exactly what a histogram fed each value would. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BucketTally, lowestValueOf } from '../src/shared/measure/bucket-tally.js';
import { decodeHistogram, newHistogram } from '../src/shared/measure/histogram-codec.js';
import { histogramOf } from './fixtures/synthetic-results.js';

/** A fixed pseudo-random spread over every octave up to `octaves` (deterministic, so a failure repeats). */
function spread(count: number, octaves: number): number[] {
  let seed = 7;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => 1 + Math.floor(2 ** (random() * octaves)));
}

test('intervals and the whole window encode byte for byte like histograms fed each value', () => {
  const tally = new BucketTally();
  // Edges of the exact range and of powers of two, and the tally's own top bucket, then a spread below 2^31.
  const first = [1, 2, 2047, 2048, 2049, 3071, 3072, 4095, 4096, 2 ** 31 - 1, ...spread(20_000, 30.99)];
  const second = spread(5_000, 14);
  for (const value of first) tally.record(value);
  assert.equal(tally.takeInterval()?.hdrBase64, histogramOf(first).hdrBase64);
  for (const value of second) tally.record(value);
  // The whole window while an interval is open, then that interval alone.
  assert.equal(tally.encodeAll().hdrBase64, histogramOf([...first, ...second]).hdrBase64);
  assert.equal(tally.takeInterval()?.hdrBase64, histogramOf(second).hdrBase64);
  assert.equal(tally.encodeAll().hdrBase64, histogramOf([...first, ...second]).hdrBase64);
});

test('values past the tally range (2^31 µs and more) are kept exactly too', () => {
  const tally = new BucketTally();
  const values = [5, 70_000, 2 ** 31, 3_500_000_000, 5_000_000_000];
  for (const value of values.slice(0, 3)) tally.record(value);
  assert.equal(tally.takeInterval()?.hdrBase64, histogramOf(values.slice(0, 3)).hdrBase64);
  for (const value of values.slice(3)) tally.record(value);
  assert.equal(tally.encodeAll().hdrBase64, histogramOf(values).hdrBase64);
});

test('an interval with no sample is null, and an empty tally encodes as an empty histogram', () => {
  const tally = new BucketTally();
  assert.equal(tally.takeInterval(), null);
  assert.equal(tally.encodeAll().hdrBase64, histogramOf([]).hdrBase64);
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

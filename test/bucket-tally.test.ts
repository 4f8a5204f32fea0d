/** The tally in front of a latency histogram leaves it exactly as recording each value would. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import hdr from 'hdr-histogram-js';
import { BucketTally, lowestValueOf } from '../src/core/bucket-tally.js';
import { newHistogram } from '../src/core/metrics.js';

test('a tallied histogram encodes byte for byte like one fed each value', () => {
  const direct = newHistogram();
  const tallied = newHistogram();
  const tally = new BucketTally(tallied);
  // Every octave from 1 µs to past the tally's 2^31 limit, edges of each power of two included.
  const values: number[] = [1, 2047, 2048, 2049, 4095, 4096, 2 ** 31 - 1, 2 ** 31, 3_500_000_000];
  let seed = 7;
  const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 20_000; i++) values.push(1 + Math.floor(2 ** (random() * 31.7)));
  for (const value of values) {
    direct.recordValue(value);
    tally.record(value);
  }
  tally.flush();
  assert.equal(tallied.totalCount, values.length);
  assert.equal(hdr.encodeIntoCompressedBase64(tallied), hdr.encodeIntoCompressedBase64(direct));
  for (const q of [0, 1, 50, 90, 99, 99.9, 100]) assert.equal(tallied.getValueAtPercentile(q), direct.getValueAtPercentile(q), `p${q}`);
  assert.equal(tallied.maxValue > 0 && tallied.mean, direct.mean);
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

test('a flush empties the tally: the next one adds only what came after', () => {
  const histogram = newHistogram();
  const tally = new BucketTally(histogram);
  tally.record(10);
  tally.flush();
  tally.flush();
  tally.record(10);
  tally.record(5000);
  tally.flush();
  assert.equal(histogram.totalCount, 3);
  assert.equal((histogram as unknown as Inspectable).getCountAtValue(10), 2);
});

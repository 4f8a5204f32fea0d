/**
 * A latency HDR histogram (values in µs) as Prometheus histograms, both kinds
 * from one bucketing: the buckets of a native histogram of schema 3 (bounds at
 * powers of 2^(1/8), a factor of 1.0905 apart), and classic buckets with those
 * same bounds from 2^-20 s (0.95 µs) to 2^6 s (64 s), then +Inf.
 *
 * Why this precision: `histogram_quantile` finds the bucket that holds the
 * quantile's rank and interpolates linearly inside it. The result's HDR
 * percentile lies in that same bucket (a sample counts at or below a bound only
 * when its whole HDR bucket does, and both rank the same way), so the two differ
 * by at most the bucket's width: 9.05 % of its lower bound, plus the HDR's own
 * 0.1 %. QUANTILE_PRECISION states it as 10 %, from 1 µs to 60 s.
 *
 * Counts are exact; the sum is the HDR mean times the count, within the HDR's
 * precision. Sub-microsecond samples are recorded as 1 µs by the engine; a
 * zero-valued one would count in the native zero bucket.
 */
import hdr from 'hdr-histogram-js';
import type { newHistogram } from '../../shared/measure/metrics.js';

type Histogram = ReturnType<typeof newHistogram>;

/** The native histogram schema: bucket i holds (2^((i-1)/8), 2^(i/8)] seconds. */
export const NATIVE_SCHEMA = 3;
const PER_OCTAVE = 2 ** NATIVE_SCHEMA;
/** The classic buckets' lowest and highest bound, as native bucket indexes: 2^-20 s and 2^6 s. */
const FIRST_INDEX = -20 * PER_OCTAVE;
const LAST_INDEX = 6 * PER_OCTAVE;
/** Native buckets at or below this many seconds are the zero bucket (Prometheus' own client uses the same). */
export const NATIVE_ZERO_THRESHOLD_SECONDS = 2 ** -128;

/** How far `histogram_quantile` of either kind may read from the result's HDR percentile, relative, from 1 µs to 60 s. */
export const QUANTILE_PRECISION = 0.1;

/** Classic bucket upper bounds in seconds, ascending: 2^(k/8) for k from -160 to 48 (209 bounds). */
export const LATENCY_BUCKET_BOUNDS_SECONDS: readonly number[] = Array.from(
  { length: LAST_INDEX - FIRST_INDEX + 1 },
  (_, i) => upperBound(FIRST_INDEX + i),
);

export interface LatencyBuckets {
  /** Samples at or below each bound of LATENCY_BUCKET_BOUNDS_SECONDS, in order. */
  cumulativeCounts: number[];
  count: number;
  sumSeconds: number;
  /** Samples in the native zero bucket (at or below NATIVE_ZERO_THRESHOLD_SECONDS). */
  zeroCount: number;
  /** Native buckets with samples, by ascending index: [index, count]. */
  native: Array<[number, number]>;
}

/** The native bucket index of a value in seconds (> 0): the i with 2^((i-1)/8) < value <= 2^(i/8). */
export function nativeIndex(valueSeconds: number): number {
  let index = Math.ceil(Math.log2(valueSeconds) * PER_OCTAVE);
  // Math.log2 may land a hair off at a bound: settle on the exact side.
  if (upperBound(index) < valueSeconds) index += 1;
  else if (upperBound(index - 1) >= valueSeconds) index -= 1;
  // Math.ceil of a value just below 0 is -0: no label or encoding should see it.
  return index + 0;
}

function upperBound(index: number): number {
  return 2 ** (index / PER_OCTAVE);
}

export function latencyBuckets(histogram: Histogram): LatencyBuckets {
  // wsbench builds and decodes its histograms in JavaScript (HISTOGRAM_OPTIONS): they have the iterator.
  if (!(histogram instanceof hdr.JsHistogram)) throw new Error('latencyBuckets: not a JavaScript HDR histogram');
  const native: Array<[number, number]> = [];
  let zeroCount = 0;
  const iterator = histogram.recordedValuesIterator;
  iterator.reset();
  while (iterator.hasNext()) {
    const step = iterator.next();
    // The highest value the sample's HDR bucket holds, as the HDR's own percentiles report it.
    const valueSeconds = step.valueIteratedTo / 1e6;
    if (valueSeconds <= NATIVE_ZERO_THRESHOLD_SECONDS) {
      zeroCount += step.countAtValueIteratedTo;
      continue;
    }
    const index = nativeIndex(valueSeconds);
    const last = native.at(-1);
    if (last && last[0] === index) last[1] += step.countAtValueIteratedTo;
    else native.push([index, step.countAtValueIteratedTo]);
  }
  const cumulativeCounts = new Array<number>(LATENCY_BUCKET_BOUNDS_SECONDS.length);
  let running = zeroCount;
  let next = 0;
  for (let i = 0; i < cumulativeCounts.length; i++) {
    const index = FIRST_INDEX + i;
    while (next < native.length && native[next]![0] <= index) running += native[next++]![1];
    cumulativeCounts[i] = running;
  }
  const count = histogram.totalCount;
  return { cumulativeCounts, count, sumSeconds: count === 0 ? 0 : (histogram.mean * count) / 1e6, zeroCount, native };
}

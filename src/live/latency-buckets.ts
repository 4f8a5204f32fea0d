/**
 * A latency HDR histogram (values in µs) as a Prometheus histogram: cumulative
 * counts at fixed bounds in seconds, the sample count, and the sum. Counts are
 * exact to the HDR's resolution (3 significant digits: a sample within 0.1 % of
 * a bound may fall on either side of it); the sum is the HDR mean times the
 * count, within the same precision.
 */
import hdr from 'hdr-histogram-js';
import type { newHistogram } from '../measure/metrics.js';

type Histogram = ReturnType<typeof newHistogram>;

/** Bucket upper bounds in seconds: 100 µs to a minute, about three a decade. */
export const LATENCY_BUCKET_BOUNDS_SECONDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;

export interface LatencyBuckets {
  /** Samples at or below each bound of LATENCY_BUCKET_BOUNDS_SECONDS, in order. */
  cumulativeCounts: number[];
  count: number;
  sumSeconds: number;
}

export function latencyBuckets(histogram: Histogram): LatencyBuckets {
  const bounds = LATENCY_BUCKET_BOUNDS_SECONDS;
  // Samples per bucket, the last slot for those above every bound (+Inf only).
  const perBucket = new Array<number>(bounds.length + 1).fill(0);
  // wsbench builds and decodes its histograms in JavaScript (HISTOGRAM_OPTIONS): they have the iterator.
  if (!(histogram instanceof hdr.JsHistogram)) throw new Error('latencyBuckets: not a JavaScript HDR histogram');
  const iterator = histogram.recordedValuesIterator;
  iterator.reset();
  let bucket = 0;
  while (iterator.hasNext()) {
    const step = iterator.next();
    const valueSeconds = step.valueIteratedTo / 1e6;
    while (bucket < bounds.length && valueSeconds > bounds[bucket]!) bucket++;
    perBucket[bucket]! += step.countAtValueIteratedTo;
  }
  let running = 0;
  const cumulativeCounts = bounds.map((_, i) => (running += perBucket[i]!));
  const count = histogram.totalCount;
  return { cumulativeCounts, count, sumSeconds: count === 0 ? 0 : (histogram.mean * count) / 1e6 };
}

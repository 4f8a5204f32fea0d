/**
 * A key number interval by interval, read off a cell's time series: the
 * percentile (or mean) of each interval's own latency histogram, weighted by
 * its samples, or a client counter's rate over each interval, weighted by the
 * interval's length. What the metric's declared source says, nothing guessed
 * from its name; a source the time series does not carry gives null.
 */
import type { HistogramStat, MetricInfo } from '../../shared/types/declaration-types.js';
import type { IntervalLatency, TimeSeries } from '../../shared/types/result-types.js';
import type { Weighted } from './batch-means.js';

/** Which field of an interval's latency holds each statistic (min, stdev and count are not kept per interval). */
const INTERVAL_FIELD: Partial<Record<HistogramStat, keyof IntervalLatency>> = {
  p50: 'p50Ms',
  p90: 'p90Ms',
  p99: 'p99Ms',
  p999: 'p999Ms',
  mean: 'meanMs',
  max: 'maxMs',
};

/**
 * Samples a batch needs beyond (or, for the mean, around) the statistic before its value
 * says anything: a batch's p99 needs 10 / 0.01 = 1,000 samples.
 */
const TAIL_SAMPLES = 10;
const TAIL_SHARE: Partial<Record<HistogramStat, number>> = { p50: 0.5, p90: 0.1, p99: 0.01, p999: 0.001, mean: 0.5 };

interface WindowSeries {
  points: Weighted[];
  /** The least weight a batch needs (see batchMeansSpread). */
  minWeight: number;
}

/** The metric's per-interval values, or why it has none. */
export function windowSeries(info: MetricInfo, series: TimeSeries | undefined): WindowSeries | string {
  if (!series || series.points.length === 0) return 'the cell has no time series (no client reported an interval)';
  const source = info.source;
  if ('histogram' in source) {
    if ((source.side ?? 'client') === 'server') return 'the time series holds client histograms only';
    const field = INTERVAL_FIELD[source.stat];
    const share = TAIL_SHARE[source.stat];
    // The maximum of a window is one sample: its batches say nothing about it.
    if (!field || share === undefined) return `the ${source.stat} of an interval does not estimate the window's`;
    const points = series.points.flatMap((p): Weighted[] => {
      const latency = p.latency[source.histogram];
      const value = latency?.[field];
      return latency && typeof value === 'number' ? [{ value, weight: latency.count }] : [];
    });
    if (points.length === 0) {
      const old = series.points.some((p) => p.latency[source.histogram]);
      return old
        ? `the time series does not keep the ${source.stat} of each interval (a file older than that)`
        : `no interval of the time series holds a sample of ${source.histogram}`;
    }
    return { points, minWeight: TAIL_SAMPLES / share };
  }
  if ('counter' in source && source.as === 'rate') {
    if ((source.side ?? 'client') === 'server') return 'the time series holds client counters only';
    const points: Weighted[] = [];
    let before = { tMs: 0, value: 0 };
    for (const point of series.points) {
      const value = point.counters[source.counter];
      if (value === undefined) return `the time series does not count ${source.counter}`;
      const spanMs = point.tMs - before.tMs;
      if (spanMs > 0)
        points.push({ value: ((value - before.value) * (source.scale ?? 1) * 1000) / spanMs, weight: spanMs });
      before = { tMs: point.tMs, value };
    }
    return { points, minWeight: 0 };
  }
  return 'its source (a total, a resource or a custom computation) is not recorded interval by interval';
}

/**
 * The confidence interval of each key number of a cell: every primary-latency
 * and primary-rate metric that has a better direction. From the spread of the
 * cell's rounds when it has MIN_ROUNDS or more (method `rounds`), else from
 * batch means over its window's own intervals (method `window`). Either way the
 * interval is centred on the number the table shows (the pooled value) and is
 * never narrower than what the number's resolution allows (a latency is
 * recorded to 1 µs and 3 significant digits). A pure function of what the
 * result file holds: the engine writes it, and older files get it when read.
 */
import type { MetricInfo } from '../declaration-types.js';
import type { TimeSeries, ValueInterval } from '../result-types.js';
import { CONFIDENCE_LEVEL, tCritical, type Spread } from './confidence.js';
import { roundSpread } from './round-spread.js';
import { batchMeansSpread } from './batch-means.js';
import { windowSeries } from './window-series.js';

/** What a cell's intervals are read from: its values, its rounds' values and its time series. */
export interface IntervalInputs {
  metrics: Readonly<Record<string, number | null>>;
  rounds?: ReadonlyArray<{ metrics?: Readonly<Record<string, number | null>> }>;
  timeSeries?: TimeSeries;
}

export interface CellIntervals {
  intervals: Record<string, ValueInterval>;
  /** Why a key number with a value has no interval. */
  noInterval: Record<string, string>;
}

/** Latencies are kept to 0.001 ms (result rounding) ... */
const LATENCY_STEP_MS = 0.001;
/** ... and to 3 significant digits (HdrHistogram's precision: a bucket is at most 1/1024 of its value wide). */
const LATENCY_RELATIVE_STEP = 1 / 1024;

/** True for the metrics that get an interval: those a ranking, a gate or an SLO judges. */
export function isKeyMetric(info: MetricInfo | undefined): info is MetricInfo {
  return info !== undefined && (info.role === 'primary-latency' || info.role === 'primary-rate') && info.better !== 'none';
}

/** Intervals of the cell's key numbers: from its rounds when it has enough, else from its window. */
export function cellIntervals(metrics: Readonly<Record<string, MetricInfo>>, cell: IntervalInputs): CellIntervals {
  const out: CellIntervals = { intervals: {}, noInterval: {} };
  for (const [key, info] of Object.entries(metrics)) {
    const value = cell.metrics[key];
    if (!isKeyMetric(info) || typeof value !== 'number' || !Number.isFinite(value)) continue;
    const rounds = roundSpread((cell.rounds ?? []).map((r) => r.metrics?.[key]));
    const spread = rounds ? { ...rounds, method: 'rounds' as const } : windowSpread(info, cell.timeSeries);
    if (typeof spread === 'string') out.noInterval[key] = spread;
    else out.intervals[key] = intervalAround(value, spread, spread.method, resolutionOf(info, value));
  }
  return out;
}

/** Intervals from the window alone (what one round of a repeated cell says about itself). */
export function windowIntervals(metrics: Readonly<Record<string, MetricInfo>>, values: Readonly<Record<string, number | null>>, timeSeries: TimeSeries | undefined): Record<string, ValueInterval> {
  return cellIntervals(metrics, { metrics: values, ...(timeSeries ? { timeSeries } : {}) }).intervals;
}

function windowSpread(info: MetricInfo, timeSeries: TimeSeries | undefined): (Spread & { samples: number; method: 'window' }) | string {
  const series = windowSeries(info, timeSeries);
  if (typeof series === 'string') return series;
  const spread = batchMeansSpread(series.points, series.minWeight);
  return typeof spread === 'string' ? spread : { ...spread, method: 'window' };
}

/**
 * value +- t x standard error, the error raised to the rounding noise of the value's resolution
 * (a uniform error one step wide has a standard deviation of step / sqrt(12)), never below 0.
 */
export function intervalAround(value: number, spread: Spread & { samples: number }, method: ValueInterval['method'], resolution = 0): ValueInterval {
  const standardError = Math.max(spread.standardError, resolution / Math.sqrt(12));
  const half = tCritical(spread.degreesOfFreedom) * standardError;
  return {
    low: Math.max(0, value - half),
    high: value + half,
    level: CONFIDENCE_LEVEL,
    method,
    standardError,
    degreesOfFreedom: spread.degreesOfFreedom,
    samples: spread.samples,
  };
}

/** The step a value is recorded in: for a latency its histogram's and the result's rounding; 0 for other numbers. */
function resolutionOf(info: MetricInfo, value: number): number {
  if (!('histogram' in info.source)) return 0;
  const step = info.unit === 'us' ? LATENCY_STEP_MS * 1000 : info.unit === 'ms' ? LATENCY_STEP_MS : 0;
  return Math.max(step, Math.abs(value) * LATENCY_RELATIVE_STEP);
}

/**
 * The confidence interval of each key number of a cell: every primary-latency,
 * primary-rate and cost metric that has a better direction. From the spread of the
 * cell's rounds when it has MIN_ROUNDS or more (method `rounds`), else from
 * batch means over its window's own intervals (method `window`). Either way the
 * interval is centred on the number the table shows (the pooled value) and is
 * never narrower than what the number's resolution allows (a latency is
 * recorded to 1 µs and 3 significant digits). A pure function of what the
 * result file holds: the engine writes it, and older files get it when read.
 */
import type { MetricInfo } from '../../shared/types/declaration-types.js';
import type { TimeSeries, ValueInterval } from '../../shared/types/result-types.js';
import { CONFIDENCE_LEVEL, tCritical, type ScaledSpread } from './confidence.js';
import { roundSpread } from './round-spread.js';
import { batchMeansSpread } from './batch-means.js';
import { windowSeries } from './window-series.js';

/** What a cell's intervals are read from: its values, its rounds' values and its time series. */
interface IntervalInputs {
  metrics: Readonly<Record<string, number | null>>;
  rounds?: ReadonlyArray<{ metrics?: Readonly<Record<string, number | null>> }>;
  timeSeries?: TimeSeries;
  /** The load changed through the window by design (stages): its intervals are no samples of one quantity. */
  staged?: boolean;
}

/** Why a staged cell measured once has no interval. */
const STAGED_NO_INTERVAL =
  'the load changes through the window (stages), so its intervals are not samples of one number: --repeat 3 or more gives an interval from the rounds';

interface CellIntervals {
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
  return (
    info !== undefined &&
    (info.role === 'primary-latency' || info.role === 'primary-rate' || info.role === 'cost') &&
    info.better !== 'none'
  );
}

/** Why a cost measured once has no interval. */
export const COST_NO_INTERVAL =
  'a cost is read once per window (one CPU time, or one memory reading, over one count), so one window gives no spread: --repeat 3 or more gives it an interval from the rounds';

/**
 * Intervals of the cell's key numbers: from its rounds when it has enough, else from its window; at `level`
 * (CONFIDENCE_LEVEL unless a run --until-decided states them at its last look's share).
 */
export function cellIntervals(
  metrics: Readonly<Record<string, MetricInfo>>,
  cell: IntervalInputs,
  level = CONFIDENCE_LEVEL,
): CellIntervals {
  const out: CellIntervals = { intervals: {}, noInterval: {} };
  for (const [key, info] of Object.entries(metrics)) {
    const value = cell.metrics[key];
    if (!isKeyMetric(info) || typeof value !== 'number' || !Number.isFinite(value)) continue;
    const rounds = roundSpread(
      (cell.rounds ?? []).map((r) => r.metrics?.[key]),
      true,
    );
    const spread = rounds
      ? { ...rounds, method: 'rounds' as const }
      : cell.staged
        ? STAGED_NO_INTERVAL
        : info.role === 'cost'
          ? COST_NO_INTERVAL
          : windowSpread(info, cell.timeSeries);
    if (typeof spread === 'string') out.noInterval[key] = spread;
    else out.intervals[key] = intervalAround(value, spread, spread.method, resolutionOf(info, value), level);
  }
  return out;
}

/** Intervals from the window alone (what one round of a repeated cell says about itself). */
export function windowIntervals(
  metrics: Readonly<Record<string, MetricInfo>>,
  values: Readonly<Record<string, number | null>>,
  timeSeries: TimeSeries | undefined,
): Record<string, ValueInterval> {
  return cellIntervals(metrics, { metrics: values, ...(timeSeries ? { timeSeries } : {}) }).intervals;
}

function windowSpread(
  info: MetricInfo,
  timeSeries: TimeSeries | undefined,
): (ScaledSpread & { method: 'window' }) | string {
  const series = windowSeries(info, timeSeries);
  if (typeof series === 'string') return series;
  const spread = batchMeansSpread(series.points, series.minWeight, true);
  return typeof spread === 'string' ? spread : { ...spread, method: 'window' };
}

/**
 * The interval at CONFIDENCE_LEVEL. A spread of logarithms (a relative error e) gives the value
 * times / divided by exp(t x e): latencies and rates are positive and their noise multiplicative (a
 * stall multiplies a p99), so the interval never reaches below 0, and ratios of two cells (also
 * worked on logs) agree with it; `standardError` then holds value x e, the error the delta method
 * gives the value itself. A spread of the values gives value +- t x se, cut at 0. Either is first
 * raised to the rounding noise of the value's resolution (a uniform error one step wide has a
 * standard deviation of step / sqrt(12)).
 */
export function intervalAround(
  value: number,
  spread: ScaledSpread,
  method: ValueInterval['method'],
  resolution = 0,
  level = CONFIDENCE_LEVEL,
): ValueInterval {
  const onLogs = spread.scale === 'log' && value > 0;
  const standardError = Math.max(
    onLogs ? spread.standardError * value : spread.standardError,
    resolution / Math.sqrt(12),
  );
  const t = tCritical(spread.degreesOfFreedom, level);
  const [low, high] = onLogs
    ? [value * Math.exp((-t * standardError) / value), value * Math.exp((t * standardError) / value)]
    : [Math.max(0, value - t * standardError), value + t * standardError];
  return {
    low,
    high,
    level,
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

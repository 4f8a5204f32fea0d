/**
 * The spread of a number measured once, read off the window's own intervals by
 * the method of batch means (the classic one for a simulation's or a
 * benchmark's autocorrelated output; Law, "Simulation Modeling and Analysis",
 * ch. 9): the window's intervals are cut into about ten consecutive batches, each
 * batch's value is the weighted mean of its intervals' values, and the
 * standard error of the window's value is the standard deviation of the batch
 * values over sqrt(batches), with batches - 1 degrees of freedom.
 *
 * Why batches and not the intervals themselves: neighbouring intervals are
 * correlated (a GC pause, a busy neighbour on the machine or the JIT's warm-up
 * lasts longer than 100 ms), so treating 20 intervals of 100 ms as 20
 * independent samples would make the interval about twice too narrow. Longer
 * batches correlate less; what correlation is left between neighbouring
 * batches (their lag-1 autocorrelation r, when positive) widens the standard
 * error by sqrt((1 + r) / (1 - r)), the variance of the mean of an AR(1)
 * series. This still cannot see what changes more slowly than the window
 * (a machine that switches speed every few seconds): only rounds (--repeat)
 * can, and the docs say so.
 *
 * A window's first batches are often a warm-up (the JIT compiling both sides'
 * paths: the first 300 ms of an echo cell run 3x slower), a trend that comes
 * back alike in every run and so is no noise: the spread is read after the
 * warm-up that White's MSER rule finds (the truncation, up to half the
 * batches, that minimises the remaining batches' variance over their count
 * squared; White, "An effective truncation heuristic for bias reduction in
 * simulation output", 1997), applied to the intervals before they are
 * batched. The value itself still covers the whole window.
 *
 * A percentile's batch value is the mean of its intervals' percentiles: to first
 * order (Bahadur's representation of a sample quantile) the percentile of a
 * union of samples is the mean of the parts' percentiles, so the batch means
 * estimate the spread of the window's own percentile.
 */
import { sampleCorrelation, sampleStandardDeviation, sampleVariance } from 'simple-statistics';
import type { ScaledSpread } from './confidence.js';

/** One interval of the window: its value, and its weight (samples for a latency, milliseconds for a rate). */
export interface Weighted {
  value: number;
  weight: number;
}

/** About this many batches: Schmeiser (1982) finds 10 to 30 a good trade between bias and variance. */
const TARGET_BATCHES = 10;
/** Fewer batches than this give no interval (the t quantile at 3 degrees of freedom is 3.18). */
const MIN_BATCHES = 4;
/** Correlation between batches is capped here before it widens the error (at most sqrt(9) = 3 times). */
const MAX_CORRELATION = 0.8;

type BatchSpread = ScaledSpread;

/**
 * The batch-means spread of `series` (in window order). `minWeight`: the least
 * weight a batch needs to say anything (e.g. 10 samples beyond a percentile),
 * so batches grow until each has it. `logScale`: read the spread of the batch
 * values' logarithms (when all are above 0), a relative error: a p99 batch
 * that hit a stall reads 20x the others, and a spread of logs neither lets that
 * one batch swamp the rest nor reaches below 0. A string says why there is none.
 */
export function batchMeansSpread(
  series: ReadonlyArray<Weighted>,
  minWeight = 0,
  logScale = false,
): BatchSpread | string {
  const usable = series.filter((p) => Number.isFinite(p.value) && p.weight > 0);
  if (usable.length < MIN_BATCHES)
    return `the window has ${usable.length} interval${usable.length === 1 ? '' : 's'} with samples; an interval needs ${MIN_BATCHES}`;
  const onLogs = logScale && usable.every((p) => p.value > 0);
  const scale = (value: number): number => (onLogs ? Math.log(value) : value);
  // The warm-up is cut interval by interval, before batching: what is left still makes about ten batches.
  const points = usable.slice(warmUpBatches(usable.map((p) => scale(p.value))));
  let size = Math.max(1, Math.round(points.length / TARGET_BATCHES));
  let batches = batchesOf(points, size);
  while (batches.some((b) => b.weight < minWeight) && batches.length > MIN_BATCHES) batches = batchesOf(points, ++size);
  if (batches.length < MIN_BATCHES || batches.some((b) => b.weight < minWeight)) {
    return `the window holds too few samples for ${MIN_BATCHES} batches of at least ${Math.ceil(minWeight)} each after its warm-up`;
  }
  const values = batches.map((b) => scale(b.value));
  const deviation = sampleStandardDeviation(values);
  const correlation = deviation > 0 && values.length >= 3 ? lagOneCorrelation(values) : 0;
  const widen =
    correlation > 0
      ? Math.sqrt((1 + Math.min(correlation, MAX_CORRELATION)) / (1 - Math.min(correlation, MAX_CORRELATION)))
      : 1;
  return {
    standardError: (deviation / Math.sqrt(values.length)) * widen,
    degreesOfFreedom: values.length - 1,
    samples: values.length,
    scale: onLogs ? 'log' : 'linear',
  };
}

/** MSER: how many leading values to leave out (at most half, leaving MIN_BATCHES); applied to the window's intervals before they are batched. */
export function warmUpBatches(values: number[]): number {
  let best = { cut: 0, score: Number.POSITIVE_INFINITY };
  for (let cut = 0; cut <= Math.floor(values.length / 2) && values.length - cut >= MIN_BATCHES; cut++) {
    const rest = values.slice(cut);
    const score = (sampleVariance(rest) * (rest.length - 1)) / rest.length ** 2;
    // Ties keep the smaller cut: nothing is left out that does not have to be.
    if (score < best.score - 1e-15) best = { cut, score };
  }
  return best.cut;
}

/** Consecutive batches of `size` points; the points left over join the last batch. */
function batchesOf(points: ReadonlyArray<Weighted>, size: number): Weighted[] {
  const count = Math.floor(points.length / size);
  const batches: Weighted[] = [];
  for (let b = 0; b < count; b++) {
    const members = points.slice(b * size, b === count - 1 ? points.length : (b + 1) * size);
    const weight = members.reduce((sum, p) => sum + p.weight, 0);
    batches.push({ value: members.reduce((sum, p) => sum + p.value * p.weight, 0) / weight, weight });
  }
  return batches;
}

/** Correlation of each batch value with the next; 0 when either run of values is constant. */
function lagOneCorrelation(values: number[]): number {
  const before = values.slice(0, -1);
  const after = values.slice(1);
  if (sampleStandardDeviation(before) === 0 || sampleStandardDeviation(after) === 0) return 0;
  return sampleCorrelation(before, after);
}

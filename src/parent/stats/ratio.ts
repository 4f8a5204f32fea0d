/**
 * How two cells' values of one key number compare: their ratio with its
 * confidence interval, worked on the log scale (a ratio's interval is
 * symmetric there, and ratios of ratios average as logs). Every interval is
 * centred on the ratio of the pooled values, the numbers the table shows, so a
 * stated difference always points the way its two columns do; what differs
 * between the tests is the spread around it.
 *
 * - Paired (two cells of one run, both measured in the same rounds): the spread
 *   of the per-round log ratios, s / sqrt(rounds), rounds - 1 degrees of
 *   freedom. Round r of every cell ran in the same pass over the matrix, so
 *   drift that hits both cells of a round cancels out. To first order (the
 *   delta method) the pooled log ratio is a weighted mean of the rounds' log
 *   ratios, so their spread is its spread, as each cell's own interval takes
 *   the spread of its rounds around its pooled value.
 * - Unpaired (Welch): the two values' relative standard errors combined, with
 *   the Welch-Satterthwaite degrees of freedom: exactly what the two cells'
 *   intervals in the table say, so two table intervals that do not overlap
 *   always give an unpaired ratio whose interval excludes 1. From the cells'
 *   intervals, or from their rounds' logs where a side has rounds but no interval.
 *
 * The paired estimate (the geometric mean of the rounds' ratios, each round
 * weighing the same) is kept beside the pooled one: on a machine that switches
 * speed between rounds the two can point different ways, and two-cells.ts says so.
 */
import { mean, sampleStandardDeviation } from 'simple-statistics';
import type { RatioInterval, ValueInterval } from '../../shared/types/result-types.js';
import { combineIndependent, CONFIDENCE_LEVEL, tCritical, type Spread } from './confidence.js';
import { MIN_ROUNDS } from './round-spread.js';

/** One side of a comparison: its value, its interval, and its rounds' values when it was repeated. */
export interface Side {
  value: number;
  interval?: ValueInterval;
  rounds?: ReadonlyArray<number | null | undefined>;
}

/** A log ratio with the spread of its estimate. */
export interface LogRatio extends Spread {
  log: number;
  method: RatioInterval['method'];
  /** What the spread was read from: the rounds' own values, or the two values' intervals (of a window when measured once). */
  basis: 'rounds' | 'intervals';
}

/**
 * ln(a / b) with its spread by the design's test: paired by round when `paired` and both sides have
 * MIN_ROUNDS rounds measured in the same rounds, else unpaired; null when a side has no usable value or spread.
 */
export function logRatio(a: Side, b: Side, paired: boolean): LogRatio | null {
  return (paired ? pairedLogRatio(a, b) : null) ?? unpairedLogRatio(a, b);
}

/** The paired test: the spread of the rounds' log ratios around the pooled log ratio; null when the rounds do not pair. */
export function pairedLogRatio(a: Side, b: Side): LogRatio | null {
  if (!(a.value > 0) || !(b.value > 0)) return null;
  const logs = roundLogRatios(a.rounds, b.rounds);
  if (!logs) return null;
  return { log: Math.log(a.value / b.value), ...logSpread(logs), method: 'paired rounds', basis: 'rounds' };
}

/** The unpaired test (Welch), around the pooled log ratio; null when a side has neither an interval nor rounds. */
export function unpairedLogRatio(a: Side, b: Side): LogRatio | null {
  if (!(a.value > 0) || !(b.value > 0)) return null;
  const sa = relativeSpread(a);
  const sb = relativeSpread(b);
  if (!sa || !sb) return null;
  const spread = combineIndependent([sa.spread, sb.spread]);
  const basis = sa.fromRounds && sb.fromRounds ? 'rounds' : 'intervals';
  return { log: Math.log(a.value / b.value), ...spread, method: 'independent', basis };
}

/** The paired estimate: ln of the geometric mean of the rounds' ratios a / b; null when the rounds do not pair. */
export function pairedEstimateLog(a: Side, b: Side): number | null {
  const logs = roundLogRatios(a.rounds, b.rounds);
  return logs ? mean(logs) : null;
}

/** The ratio and its interval at `level` (default CONFIDENCE_LEVEL). */
export function ratioInterval(ratio: LogRatio, level = CONFIDENCE_LEVEL): RatioInterval {
  const half = ratio.standardError > 0 ? tCritical(ratio.degreesOfFreedom, level) * ratio.standardError : 0;
  return {
    ratio: Math.exp(ratio.log),
    low: Math.exp(ratio.log - half),
    high: Math.exp(ratio.log + half),
    level,
    method: ratio.method,
    degreesOfFreedom: ratio.degreesOfFreedom,
  };
}

/**
 * The mean of several log ratios (one per client a server was measured with, say), its error
 * from theirs: the average over exactly these pairs, each known to its own error (a fixed-effect
 * mean), not a guess at pairs that were not measured.
 */
export function meanLogRatio(parts: LogRatio[]): LogRatio | null {
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0]!;
  const spread = combineIndependent(
    parts.map((p) => ({ standardError: p.standardError / parts.length, degreesOfFreedom: p.degreesOfFreedom })),
  );
  const method = parts.every((p) => p.method === 'paired rounds') ? 'paired rounds' : 'independent';
  const basis = parts.every((p) => p.basis === 'rounds') ? 'rounds' : 'intervals';
  return { log: mean(parts.map((p) => p.log)), ...spread, method, basis };
}

/** True when the interval holds 1: no difference shown at its level. */
export function isTie(ratio: RatioInterval): boolean {
  return ratio.low <= 1 && ratio.high >= 1;
}

/** ln(a_r / b_r) of each round both sides measured; null unless both have the same rounds and MIN_ROUNDS pair up. */
function roundLogRatios(a: Side['rounds'], b: Side['rounds']): number[] | null {
  if (!a || !b || a.length !== b.length) return null;
  const logs = a.flatMap((x, i) => {
    const y = b[i];
    return typeof x === 'number' && typeof y === 'number' && x > 0 && y > 0 ? [Math.log(x / y)] : [];
  });
  return logs.length >= MIN_ROUNDS ? logs : null;
}

function positiveLogs(rounds: Side['rounds']): number[] | null {
  const logs = (rounds ?? []).flatMap((v) => (typeof v === 'number' && v > 0 ? [Math.log(v)] : []));
  return logs.length >= MIN_ROUNDS ? logs : null;
}

function logSpread(logs: number[]): Spread {
  return { standardError: sampleStandardDeviation(logs) / Math.sqrt(logs.length), degreesOfFreedom: logs.length - 1 };
}

/**
 * A value's standard error on the log scale: its interval's (the delta method: d ln x = dx / x),
 * the one the table shows, or else the spread of its rounds' logs.
 */
function relativeSpread(side: Side): { spread: Spread; fromRounds: boolean } | null {
  if (side.interval) {
    return {
      spread: {
        standardError: side.interval.standardError / side.value,
        degreesOfFreedom: side.interval.degreesOfFreedom,
      },
      fromRounds: side.interval.method === 'rounds',
    };
  }
  const logs = positiveLogs(side.rounds);
  return logs ? { spread: logSpread(logs), fromRounds: true } : null;
}

/**
 * How two cells' values of one key number compare: their ratio with its
 * confidence interval, worked on the log scale (a ratio's interval is
 * symmetric there, and ratios of ratios average as logs).
 *
 * - Paired rounds: two cells of one run, both measured in the same rounds
 *   (rounds are interleaved, so round r of each ran minutes apart at most). The
 *   log ratio of each round pair, its mean and its standard error over the
 *   pairs: drift of the machine that hits both cells of a round cancels out.
 *   The estimate is the geometric mean of the rounds' ratios, each round
 *   weighing the same (the pooled values weigh each sample the same, which a
 *   machine switching speeds between rounds tips one way or the other).
 * - Independent rounds (two files, each measured in rounds): Welch's t on the
 *   rounds' log values.
 * - Otherwise the values' own intervals (their standard errors, on the log
 *   scale by the delta method: se / value), combined by Welch-Satterthwaite.
 */
import { mean, sampleStandardDeviation } from 'simple-statistics';
import type { RatioInterval, ValueInterval } from '../result-types.js';
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
  /** What the spread was read from: the rounds' own values, or the two values' intervals. */
  basis: 'rounds' | 'intervals';
}

/** ln(a / b) with its spread; null when a side has no usable value or spread. */
export function logRatio(a: Side, b: Side, paired: boolean): LogRatio | null {
  if (!(a.value > 0) || !(b.value > 0)) return null;
  if (paired) {
    const pairs = pairedLogs(a.rounds, b.rounds);
    if (pairs) return pairs;
  }
  const aLogs = positiveLogs(a.rounds);
  const bLogs = positiveLogs(b.rounds);
  if (aLogs && bLogs) {
    const spread = combineIndependent([logSpread(aLogs), logSpread(bLogs)]);
    return { log: mean(aLogs) - mean(bLogs), ...spread, method: 'independent', basis: 'rounds' };
  }
  if (!a.interval || !b.interval) return null;
  const spread = combineIndependent([relativeSpread(a.value, a.interval), relativeSpread(b.value, b.interval)]);
  const basis = a.interval.method === 'rounds' && b.interval.method === 'rounds' ? 'rounds' : 'intervals';
  return { log: Math.log(a.value / b.value), ...spread, method: 'independent', basis };
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

/** True when the interval holds 1: no difference shown at CONFIDENCE_LEVEL. */
export function isTie(ratio: RatioInterval): boolean {
  return ratio.low <= 1 && ratio.high >= 1;
}

function pairedLogs(a: Side['rounds'], b: Side['rounds']): LogRatio | null {
  if (!a || !b || a.length !== b.length) return null;
  const logs = a.flatMap((x, i) => {
    const y = b[i];
    return typeof x === 'number' && typeof y === 'number' && x > 0 && y > 0 ? [Math.log(x / y)] : [];
  });
  if (logs.length < MIN_ROUNDS) return null;
  return { log: mean(logs), ...logSpread(logs), method: 'paired rounds', basis: 'rounds' };
}

function positiveLogs(rounds: Side['rounds']): number[] | null {
  const logs = (rounds ?? []).flatMap((v) => (typeof v === 'number' && v > 0 ? [Math.log(v)] : []));
  return logs.length >= MIN_ROUNDS ? logs : null;
}

function logSpread(logs: number[]): Spread {
  return { standardError: sampleStandardDeviation(logs) / Math.sqrt(logs.length), degreesOfFreedom: logs.length - 1 };
}

/** A value's standard error on the log scale (delta method: d ln x = dx / x). */
function relativeSpread(value: number, interval: ValueInterval): Spread {
  return { standardError: interval.standardError / value, degreesOfFreedom: interval.degreesOfFreedom };
}

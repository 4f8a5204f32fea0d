/**
 * The confidence level every interval of wsbench is stated at, and the t
 * quantile behind it. Intervals here come from few samples (3 to 10 rounds,
 * about 10 batches of a window), where the normal quantile (1.96) would be far
 * too narrow: with 3 rounds the 95 % quantile is 4.30. The quantile comes from
 * stdlib's Student's t distribution, never from a table or an approximation.
 */
import tQuantile from '@stdlib/stats-base-dists-t-quantile';

/** 95 %: the level of every interval, tie and verdict wsbench states. */
export const CONFIDENCE_LEVEL = 0.95;

/** The two-sided t quantile at CONFIDENCE_LEVEL: the interval is the estimate +- this x its standard error. */
export function tCritical(degreesOfFreedom: number, level = CONFIDENCE_LEVEL): number {
  if (!(degreesOfFreedom > 0)) throw new RangeError(`degreesOfFreedom: ${degreesOfFreedom} is not above 0`);
  return tQuantile(1 - (1 - level) / 2, degreesOfFreedom);
}

/** A standard error and the degrees of freedom it was estimated with. */
export interface Spread {
  standardError: number;
  degreesOfFreedom: number;
}

/** A spread read from `samples` values (rounds, batches), of the values themselves or of their logarithms (a relative error). */
export interface ScaledSpread extends Spread {
  samples: number;
  scale: 'log' | 'linear';
}

/**
 * The standard error of a sum or difference of independent estimates, with the
 * Welch-Satterthwaite degrees of freedom (what Welch's t-test uses): the
 * combined variance is the sum of the parts', and its degrees of freedom are
 * (sum v)^2 / sum(v^2 / df). Parts with no spread add nothing; when no part has
 * any, the degrees of freedom are the smallest of the parts'.
 */
export function combineIndependent(parts: Spread[]): Spread {
  if (parts.length === 0) throw new RangeError('parts: give at least one spread');
  const variances = parts.map((p) => p.standardError ** 2);
  const total = variances.reduce((a, b) => a + b, 0);
  const denominator = parts.reduce((sum, p, i) => sum + variances[i]! ** 2 / p.degreesOfFreedom, 0);
  const degreesOfFreedom =
    denominator > 0 ? total ** 2 / denominator : Math.min(...parts.map((p) => p.degreesOfFreedom));
  return { standardError: Math.sqrt(total), degreesOfFreedom };
}

/**
 * The level each of `tests` intervals must hold for all of them together to hold at `level`
 * (Bonferroni): a gate that weighs 12 changes judges each at 99.6 %, so identical code fails it at
 * most 5 % of the time however many cells and metrics it compares, rather than at 1 - 0.95^12 = 46 %.
 */
export function familyLevel(tests: number, level = CONFIDENCE_LEVEL): number {
  return tests > 1 ? 1 - (1 - level) / tests : level;
}

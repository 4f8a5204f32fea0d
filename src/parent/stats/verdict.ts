/**
 * What a change with its confidence interval says, against a margin: the
 * smallest change in percent that matters (a CI gate's --fail-on-regression N).
 * In the spirit of criterion.rs (a change is reported only when it is both
 * significant and beyond a noise threshold) and of equivalence testing (a
 * change is "unchanged" only when its whole interval lies within the margin):
 *
 * - regressed: the interval lies wholly on the worse side of 0 (significant at
 *   the interval's level) and the estimate is worse by more than the margin;
 * - improved: the same on the better side;
 * - unchanged: the whole interval lies within +- the margin;
 * - inconclusive: anything else. The data cannot tell: the interval reaches
 *   beyond the margin and holds 0, or the change is real but may be smaller
 *   than the margin. More rounds (--repeat) or longer windows narrow it.
 *
 * Identical code on a noisy machine gives an interval around 0: unchanged when
 * it is narrower than the margin, inconclusive when wider, never regressed.
 * A change whose paired and unpaired tests disagree (src/parent/stats/two-cells.ts)
 * is inconclusive, whatever either says.
 */

export type ChangeVerdict = 'improved' | 'regressed' | 'unchanged' | 'inconclusive';

/** A change in percent of the base (next / base - 1), with its interval. */
export interface ChangeInterval {
  estimatePct: number;
  lowPct: number;
  highPct: number;
  /** Confidence level of the interval, 0..1; null for a band that is no confidence interval (a rule of thumb, said in `method`). */
  level: number | null;
  /** How the interval was made, for people: "paired rounds, t(4)", "window intervals, widened to the run-to-run band". */
  method: string;
  /** With paired rounds: the paired estimate (the geometric mean of the rounds' ratios, each round weighing the same), in percent. */
  pairedEstimatePct?: number;
  /** With paired rounds: the unpaired test's interval beside the paired one, in percent. */
  unpaired?: { lowPct: number; highPct: number };
  /** Set when the paired and the unpaired tests disagree (the verdict is then inconclusive): both, in words. */
  disagreement?: string;
}

/** Without a gate, changes smaller than this many percent are not worth a verdict either way. */
export const DEFAULT_MARGIN_PCT = 5;

export function judgeChange(change: ChangeInterval, better: 'lower' | 'higher', marginPct: number): ChangeVerdict {
  // The two tests disagree: the data cannot tell until more rounds make them agree.
  if (change.disagreement !== undefined) return 'inconclusive';
  // Worse is positive from here on.
  const sign = better === 'lower' ? 1 : -1;
  const estimate = sign * change.estimatePct;
  const low = Math.min(sign * change.lowPct, sign * change.highPct);
  const high = Math.max(sign * change.lowPct, sign * change.highPct);
  if (low > 0 && estimate > marginPct) return 'regressed';
  if (high < 0 && -estimate > marginPct) return 'improved';
  if (low >= -marginPct && high <= marginPct) return 'unchanged';
  return 'inconclusive';
}

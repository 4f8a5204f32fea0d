/**
 * The one test of two cells (or of two stacks over the partners they share),
 * used by the table's ties, "what to pick", the heatmap, the noise control and
 * `compare` alike (docs/reading-results.md, "One test, said once"):
 *
 * - the estimate is the ratio of the pooled values, the numbers the columns
 *   show, so a stated difference always points the way they do;
 * - its interval is the design's: paired by round for two cells of one run
 *   (both measured in the same interleaved rounds), unpaired (Welch) otherwise,
 *   with the run-to-run spread joining it for two separate runs (separate-runs.ts);
 * - where the rounds pair, the unpaired test is made too. The two must agree
 *   before a difference or a tie is said: where one finds a difference and the
 *   other does not, the pair is `split` and the words say both. So is a
 *   difference whose rounds, each weighing the same (the paired estimate),
 *   point the other way from the pooled values. A difference is claimed only
 *   when every test made claims it (an intersection-union test), so the chance
 *   of a false one stays within each test's own level.
 */
import type { RatioInterval } from '../../shared/types/result-types.js';
import {
  isTie,
  meanLogRatio,
  pairedEstimateLog,
  pairedLogRatio,
  ratioInterval,
  unpairedLogRatio,
  type LogRatio,
  type Side,
} from './ratio.js';
import { CONFIDENCE_LEVEL } from './confidence.js';
import { separateRunsLogRatio } from './separate-runs.js';

/** differs: every test made excludes 1; tie: every one holds it; split: they disagree. */
type TwoCellOutcome = 'differs' | 'tie' | 'split';

export interface TwoCellTest {
  /** a over b: the pooled values' ratio, with the design's interval (paired by round when paired). */
  ratio: RatioInterval;
  /** The unpaired interval, beside a paired one; absent when the design's test is the unpaired one. */
  unpaired?: RatioInterval;
  /** The paired estimate: the geometric mean of the rounds' ratios a / b, when the rounds pair. */
  pairedEstimate?: number;
  outcome: TwoCellOutcome;
  /** Why the tests disagree, in words, when `split`. */
  disagreement?: string;
  /** What the spread was read from: rounds, or an interval of a single window somewhere. */
  basis: LogRatio['basis'];
}

interface TwoCellOptions {
  /** The cells ran in one run, round r of each in the same pass: pair them by round. */
  paired: boolean;
  /** The level of each interval; default CONFIDENCE_LEVEL. */
  level?: number;
  /** The cells come from two separate runs (two result files): the run-to-run spread joins the unpaired test (separate-runs.ts). */
  separateRuns?: boolean;
}

/** The two tests' log ratios (and the paired estimate) of one pair of sides, or of several averaged. */
export interface TwoCellParts {
  design: LogRatio;
  unpaired: LogRatio | null;
  pairedEstimateLog: number | null;
}

/** a against b; null when neither test can be made (a value of 0, or no interval and no rounds). */
export function twoCellTest(a: Side, b: Side, options: TwoCellOptions): TwoCellTest | null {
  const parts = options.separateRuns && !options.paired ? separateRunsParts(a, b) : twoCellParts(a, b, options.paired);
  return parts ? judgeTwoCells(parts, options.level) : null;
}

/** The log ratios of one pair of sides, before they are judged (or averaged over partners: meanTwoCellParts). */
export function twoCellParts(a: Side, b: Side, paired: boolean): TwoCellParts | null {
  const unpaired = unpairedLogRatio(a, b);
  const pairedLog = paired ? pairedLogRatio(a, b) : null;
  const design = pairedLog ?? unpaired;
  if (!design) return null;
  return {
    design,
    unpaired: pairedLog ? unpaired : null,
    pairedEstimateLog: pairedLog ? pairedEstimateLog(a, b) : null,
  };
}

/** Two cells of two separate runs: the unpaired test with the run-to-run spread; nothing to pair. */
function separateRunsParts(a: Side, b: Side): TwoCellParts | null {
  const design = separateRunsLogRatio(a, b);
  return design ? { design, unpaired: null, pairedEstimateLog: null } : null;
}

/**
 * Several pairs' parts as one (a server against another over the clients both met): the mean of
 * each test's log ratios, its error from theirs (meanLogRatio); the unpaired beside it only when every
 * pair has one, the paired estimate likewise.
 */
export function meanTwoCellParts(parts: TwoCellParts[]): TwoCellParts | null {
  const design = meanLogRatio(parts.map((p) => p.design));
  if (!design) return null;
  const unpaired = parts.every((p) => p.unpaired) ? meanLogRatio(parts.map((p) => p.unpaired!)) : null;
  const estimates = parts.map((p) => p.pairedEstimateLog);
  const pairedEstimate = estimates.every((e): e is number => e !== null)
    ? estimates.reduce((sum, e) => sum + e, 0) / estimates.length
    : null;
  return { design, unpaired, pairedEstimateLog: pairedEstimate };
}

/** The verdict of the parts at `level`. */
export function judgeTwoCells(parts: TwoCellParts, level = CONFIDENCE_LEVEL): TwoCellTest {
  const ratio = ratioInterval(parts.design, level);
  const unpaired = parts.unpaired ? ratioInterval(parts.unpaired, level) : undefined;
  const pairedEstimate = parts.pairedEstimateLog === null ? undefined : Math.exp(parts.pairedEstimateLog);
  const found = !isTie(ratio);
  const base = {
    ratio,
    ...(unpaired ? { unpaired } : {}),
    ...(pairedEstimate !== undefined ? { pairedEstimate } : {}),
    basis: parts.design.basis,
  };
  if (unpaired && found !== !isTie(unpaired)) {
    const said = (r: RatioInterval): string => `${isTie(r) ? 'no difference shown' : 'a difference'} (${ratioText(r)})`;
    return {
      ...base,
      outcome: 'split',
      disagreement: `paired by round: ${said(ratio)}; unpaired, each cell's rounds on their own: ${said(unpaired)}`,
    };
  }
  if (found && pairedEstimate !== undefined && Math.sign(Math.log(pairedEstimate)) !== Math.sign(parts.design.log)) {
    return {
      ...base,
      outcome: 'split',
      disagreement: `the pooled values differ (${ratioText(ratio)}), but the rounds, each weighing the same, point the other way (their geometric mean ratio ${pairedEstimate.toFixed(2)})`,
    };
  }
  return { ...base, outcome: found ? 'differs' : 'tie' };
}

/** `1.34 [1.17, 1.52]`. */
export function ratioText(ratio: Pick<RatioInterval, 'ratio' | 'low' | 'high'>): string {
  return `${ratio.ratio.toFixed(2)} [${ratio.low.toFixed(2)}, ${ratio.high.toFixed(2)}]`;
}

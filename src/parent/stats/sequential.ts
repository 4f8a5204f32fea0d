/**
 * `run --until-decided`: the rule that keeps a statement made after several
 * looks at the data as trustworthy as one made after a single look. Looking
 * after every round and stopping at the first look that decides would find a
 * difference that is not there far more often than 5 % (each look is another
 * chance); so the 5 % is shared out over the looks, an alpha-spending rule
 * (Lan and DeMets, 1983) with a linear spending function:
 *
 * - before the first look, the most rounds the budget allows is fixed (N, from
 *   the time the first rounds took), and at most MAX_LOOKS looks are planned at
 *   rounds n_1 < ... < n_K = N, spread evenly from the first look's rounds;
 * - look k spends alpha x (n_k - n_(k-1)) / N of the 5 % (n_0 = 0): its
 *   intervals are stated at 1 - that, and the spends add up to 5 %;
 * - a look after which the budget has no room for the next one is the last,
 *   and spends what is left.
 *
 * By the union bound (Bonferroni over the looks), the chance that any look
 * states a difference that is not there, or a tie "the same" that is not, is at
 * most the sum of the spends: 5 %, for each ranking and verdict, however the
 * run stopped. Stopping early because everything is decided spends less. (An
 * exact group-sequential boundary would be a little narrower, but needs the
 * looks' joint distribution, which rounds of a busy machine do not promise.)
 */
import { CONFIDENCE_LEVEL } from './confidence.js';

/** At most this many looks: each takes its share of the 5 %, so more looks make each look's intervals wider. */
const MAX_LOOKS = 4;
/** The most rounds a run takes, as for --repeat. */
const MAX_DECISION_ROUNDS = 100;

interface LookPlan {
  /** The most rounds the budget allows (N). */
  maxRounds: number;
  /** The rounds each planned look falls on, ascending; the last is maxRounds. */
  looks: number[];
}

/**
 * The looks of a run whose first `firstRounds` rounds took `elapsedMs`, with `budgetMs` in all: N is as
 * many rounds as the budget holds at that pace (at least the first look's, at most MAX_DECISION_ROUNDS).
 */
export function planLooks(firstRounds: number, elapsedMs: number, budgetMs: number, maxLooks = MAX_LOOKS): LookPlan {
  const perRound = elapsedMs / Math.max(1, firstRounds);
  const fits = perRound > 0 ? Math.floor(budgetMs / perRound) : MAX_DECISION_ROUNDS;
  const maxRounds = Math.min(MAX_DECISION_ROUNDS, Math.max(firstRounds, fits));
  if (maxRounds === firstRounds || maxLooks < 2) return { maxRounds, looks: [firstRounds] };
  const looks = Array.from({ length: maxLooks }, (_, i) =>
    Math.round(firstRounds + ((maxRounds - firstRounds) * i) / (maxLooks - 1)),
  );
  return { maxRounds, looks: [...new Set(looks)] };
}

/**
 * The share of alpha look `index` of `plan` spends: alpha x (its rounds - the previous look's) / N;
 * `last`: the run stops after it whatever it finds (no room for the next), so it spends all that is left.
 */
export function lookAlpha(plan: LookPlan, index: number, last: boolean, level = CONFIDENCE_LEVEL): number {
  const alpha = 1 - level;
  const before = index === 0 ? 0 : plan.looks[index - 1]!;
  if (last) return alpha - (alpha * before) / plan.maxRounds;
  return (alpha * (plan.looks[index]! - before)) / plan.maxRounds;
}

/** The rule in words, for the result and the docs. */
export function ruleText(plan: LookPlan, level = CONFIDENCE_LEVEL): string {
  const pct = `${Math.round((1 - level) * 100)} %`;
  return plan.looks.length === 1
    ? `one look, after ${plan.looks[0]} rounds (the budget holds no more), at the full ${pct}`
    : `alpha spending: ${pct} shared out over up to ${plan.looks.length} looks at rounds ${plan.looks.join(', ')} of at most ${plan.maxRounds}, each spending the share of the ${plan.maxRounds} rounds it adds; a look with no room after it in the budget spends what is left`;
}

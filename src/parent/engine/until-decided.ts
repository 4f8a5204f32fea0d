/**
 * `run --until-decided --budget 3m`: after the first rounds, look at the data;
 * while some ranking of the picks or some SLO verdict is undecided and the
 * budget has room, run more interleaved rounds and look again. The looks are
 * planned, and each one's share of the 5 % fixed, by src/parent/stats/sequential.ts
 * before the first look is made; every look is recorded in the result.
 */
import type { BenchResult, DecisionLook, DecisionSection } from '../../shared/types/result-types.js';
import { undecided } from '../stats/decisions.js';
import { lookAlpha, planLooks, ruleText } from '../stats/sequential.js';
import { withSloVerdicts } from '../slo/verdict.js';
import type { Slo } from '../slo/grammar.js';
import type { RunEvent } from './events.js';

/** The budget --until-decided gets without --budget. */
export const DEFAULT_DECISION_BUDGET_MS = 180_000;

interface DecisionRun {
  budgetMs: number;
  /** Rounds every cell has measured so far (the first look's). */
  rounds: number;
  /** Wall time since the run started. */
  elapsedMs: () => number;
  /** Runs every cell round by round up to `rounds` in all; resolves with the rounds every cell then has. */
  runRounds: (rounds: number) => Promise<number>;
  /** The result of what was measured so far, its intervals at `level`. */
  resultAt: (level: number) => BenchResult;
  interrupted: () => boolean;
  slo: Slo | null;
  emit: (event: RunEvent) => void;
}

/** Looks until everything is decided or the budget is spent; the decision and the level of its last look. */
export async function runUntilDecided(run: DecisionRun): Promise<{ decision: DecisionSection; level: number }> {
  const plan = planLooks(run.rounds, run.elapsedMs(), run.budgetMs);
  const looks: DecisionLook[] = [];
  let rounds = run.rounds;
  let stopped: DecisionSection['stopped'] = 'budget';
  let level = 1 - lookAlpha(plan, 0, true);
  for (const [index, planned] of plan.looks.entries()) {
    if (planned > rounds) rounds = await run.runRounds(planned);
    if (run.interrupted() || rounds < planned) {
      stopped = 'interrupted';
      break;
    }
    // Whether this look is the last is settled before its data are read: by the budget alone.
    const next = plan.looks[index + 1];
    const perRound = run.elapsedMs() / rounds;
    const last = next === undefined || run.elapsedMs() + (next - rounds) * perRound > run.budgetMs;
    level = 1 - lookAlpha(plan, index, last);
    const result = run.resultAt(level);
    const open = undecided(run.slo ? withSloVerdicts(result, run.slo) : result);
    const look: DecisionLook = {
      rounds,
      elapsedMs: Math.round(run.elapsedMs()),
      level,
      asked: open.asked,
      undecided: open.undecided,
    };
    looks.push(look);
    const done = open.undecided.length === 0;
    run.emit({ type: 'look', look, nextRounds: done || last ? null : next!, plannedLooks: plan.looks });
    if (done) {
      stopped = 'decided';
      break;
    }
    if (last) break;
  }
  return {
    decision: {
      budgetMs: run.budgetMs,
      maxRounds: plan.maxRounds,
      plannedLooks: plan.looks,
      rule: ruleText(plan),
      looks,
      stopped,
    },
    level,
  };
}

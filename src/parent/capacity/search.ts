/**
 * The capacity search itself, apart from how a step is measured: ramp the count
 * x2 from `start` until a step breaks (or `max` holds), then bisect between the
 * largest count that held and the smallest that broke until they are within
 * `resolution` of each other, then measure both ends of that bracket `confirm`
 * times more: near its limit a server holds some tries and not others, so the
 * answer is a bracket with how often each end held, not one number. A count that
 * held above one that broke is said: the curve is not monotonic there, and one
 * try at a count does not decide it. A step whose load generator saturated proves
 * nothing about the server: it is kept as invalid and measured again with one
 * more client process, up to `maxClientProcesses`; past that the search stops
 * and says it cannot tell. Pure logic over a step function, so tests can drive it.
 */
import type { CountTries, SearchEnd } from '../../shared/types/capacity-types.js';

/** What one measured step says; the step function decides it from a cell (judge.ts) or a fake. */
export interface StepJudgement {
  /**
   * within: the SLO held; broken: it did not; refused: the count cannot be run here (the reason says why);
   * interrupted: the search's signal stopped the step (the search then ends, the step counting for nothing).
   */
  verdict: 'within' | 'broken' | 'refused' | 'interrupted';
  /** A client process was (near) saturated: the numbers may be the load generator's, not the server's. */
  clientSaturated: boolean;
}

export interface SearchSettings {
  /** First count of the ramp. */
  start: number;
  /** The ramp goes no higher. */
  max: number;
  /** The smallest count a step may have (the parameter's minimum). */
  min: number;
  /** Bisection stops when the bracket is at most this share of the count that held (0.1 = 10 %), and never finer than 1. */
  resolution: number;
  /** Client processes of the first step. */
  clientProcesses: number;
  /** Tries more of each end of the bracket once it is found (0: none). */
  confirm?: number;
  /** More than this many client processes are never used (the machine's cores). */
  maxClientProcesses: number;
  signal?: AbortSignal;
}

interface SearchStep<J extends StepJudgement> {
  count: number;
  clientProcesses: number;
  /** ramp, bisect, confirm (an end of the bracket again), or retry (the same count again with more client processes). */
  phase: 'ramp' | 'bisect' | 'confirm' | 'retry';
  judgement: J;
  /** False when the load generator saturated: the step does not count. */
  valid: boolean;
}

export interface SearchOutcome<J extends StepJudgement> {
  /** Largest count that held the SLO with a load generator that was not saturated; 0 when none did. */
  capacity: number;
  /** Smallest count that broke it (or was refused); null when none did. */
  brokeAt: number | null;
  end: SearchEnd;
  /** The count whose load generator stayed saturated, when end is cannot-tell. */
  undecidedAt: number | null;
  /** Client processes the last step used. */
  clientProcesses: number;
  /** Every step in the order it ran, invalid ones included. */
  steps: Array<SearchStep<J>>;
  /** Each end of the bracket, with how many of its valid tries held: the answer, with its uncertainty. */
  bracket: { held: CountTries | null; broke: CountTries | null };
  /** Counts that held above a count that broke, each with the highest count below it that broke; empty when none. */
  nonMonotonic: Array<{ held: number; brokeBelow: number }>;
}

export type { CountTries };

type StepFunction<J extends StepJudgement> = (count: number, clientProcesses: number) => Promise<J>;

export async function searchCapacity<J extends StepJudgement>(
  settings: SearchSettings,
  step: StepFunction<J>,
): Promise<SearchOutcome<J>> {
  checkSettings(settings);
  const steps: Array<SearchStep<J>> = [];
  let processes = settings.clientProcesses;
  let lo = 0;
  let hi: number | null = null;
  const stopped = (): boolean => settings.signal?.aborted === true;
  const finish = (end: SearchEnd, undecidedAt: number | null = null): SearchOutcome<J> => ({
    capacity: lo,
    brokeAt: hi,
    end,
    undecidedAt,
    clientProcesses: processes,
    steps,
    bracket: { held: triesAt(steps, lo), broke: hi === null ? null : triesAt(steps, hi) },
    nonMonotonic: nonMonotonic(steps),
  });

  /** A valid judgement of `count`, adding client processes while the load generator saturates; null when it still does. */
  const measure = async (count: number, phase: 'ramp' | 'bisect' | 'confirm'): Promise<J | null | 'stopped'> => {
    for (let attempt = 0; ; attempt++) {
      if (stopped()) return 'stopped';
      const judgement = await step(count, processes);
      const valid = judgement.verdict === 'refused' || !judgement.clientSaturated;
      steps.push({ count, clientProcesses: processes, phase: attempt === 0 ? phase : 'retry', judgement, valid });
      if (stopped()) return 'stopped';
      if (valid) return judgement;
      if (processes >= settings.maxClientProcesses) return null;
      processes += 1;
    }
  };

  // Ramp: x2 until a step breaks or max holds.
  for (let count = settings.start; ; count = Math.min(settings.max, count * 2)) {
    const judged = await measure(count, 'ramp');
    if (judged === 'stopped') return finish('interrupted');
    if (judged === null) return finish('cannot-tell', count);
    if (judged.verdict !== 'within') {
      hi = count;
      break;
    }
    lo = count;
    if (count >= settings.max) return finish('max');
  }

  const tries = settings.confirm ?? 0;
  for (let pass = 0; ; pass++) {
    // Bisect between the largest count that held (or nothing) and the smallest that broke.
    while (hi - lo > tolerance(lo, settings.resolution)) {
      const mid = Math.max(settings.min, Math.floor((lo + hi) / 2));
      if (mid <= lo || mid >= hi) break;
      const judged = await measure(mid, 'bisect');
      if (judged === 'stopped') return finish('interrupted');
      if (judged === null) return finish('cannot-tell', mid);
      if (judged.verdict === 'within') lo = mid;
      else hi = mid;
    }
    if (tries === 0) return finish('bracketed');
    // Confirm: the two ends in turn (drift on the machine meets both alike) until each has 1 + confirm valid
    // tries, so the bracket says how often each held.
    for (let round = 0; round < tries; round++) {
      for (const count of [lo, hi]) {
        if (count <= 0 || isRefused(steps, count) || (triesAt(steps, count)?.tries ?? 0) >= 1 + tries) continue;
        const judged = await measure(count, 'confirm');
        if (judged === 'stopped') return finish('interrupted');
        if (judged === null) return finish('cannot-tell', count);
      }
    }
    // One lucky (or unlucky) try set an end: move it to where most tries agree, and bisect again.
    if (pass >= MAX_PASSES - 1) return finish('bracketed');
    if (lo > 0 && !mostlyHeld(triesAt(steps, lo))) {
      hi = lo;
      lo = highestMostlyHeld(steps, hi);
    } else if (!isRefused(steps, hi) && mostlyHeld(triesAt(steps, hi))) {
      lo = hi;
      const above = lowestMostlyBroken(steps, lo);
      if (above === null) return finish('bracketed');
      hi = above;
    } else return finish('bracketed');
  }
}

/** Passes of bisect-and-confirm at most: a limit that keeps moving is reported where the last pass left it. */
const MAX_PASSES = 4;

function isRefused<J extends StepJudgement>(steps: Array<SearchStep<J>>, count: number): boolean {
  return steps.some((s) => s.count === count && s.judgement.verdict === 'refused');
}

/** More than half the tries held (a tie does not: the bracket stays on the safe side). */
function mostlyHeld(tries: CountTries | null): boolean {
  return tries !== null && tries.held * 2 > tries.tries;
}

/** The highest count below `below` whose tries mostly held; 0 when none did. */
function highestMostlyHeld<J extends StepJudgement>(steps: Array<SearchStep<J>>, below: number): number {
  const counts = [...new Set(steps.map((s) => s.count))].filter((c) => c < below).sort((a, b) => b - a);
  return counts.find((c) => mostlyHeld(triesAt(steps, c))) ?? 0;
}

/** The lowest count above `above` whose tries mostly broke (or that was refused); null when none did. */
function lowestMostlyBroken<J extends StepJudgement>(steps: Array<SearchStep<J>>, above: number): number | null {
  const counts = [...new Set(steps.map((s) => s.count))].filter((c) => c > above).sort((a, b) => a - b);
  return (
    counts.find((c) => isRefused(steps, c) || (triesAt(steps, c) !== null && !mostlyHeld(triesAt(steps, c)))) ?? null
  );
}

/** The valid tries at `count` and how many held; null for no count (nothing held) or no valid try. */
function triesAt<J extends StepJudgement>(steps: Array<SearchStep<J>>, count: number): CountTries | null {
  const tries = steps.filter((s) => s.count === count && s.valid && s.judgement.verdict !== 'interrupted');
  if (count <= 0 || tries.length === 0) return null;
  return { count, tries: tries.length, held: tries.filter((s) => s.judgement.verdict === 'within').length };
}

/**
 * Counts that held more often than a lower count did (each with the highest such lower count): the curve is
 * not monotonic there, and one try at a count did not decide it. Ties (both ends held 2 of 3) are a fuzzy
 * limit, not a reversal.
 */
export function nonMonotonic<J extends StepJudgement>(
  steps: Array<SearchStep<J>>,
): Array<{ held: number; brokeBelow: number }> {
  const valid = steps.filter(
    (s) => s.valid && s.judgement.verdict !== 'refused' && s.judgement.verdict !== 'interrupted',
  );
  const counts = [...new Set(valid.map((s) => s.count))].sort((a, b) => a - b);
  const share = new Map(
    counts.map((count) => {
      const tries = valid.filter((s) => s.count === count);
      return [count, tries.filter((s) => s.judgement.verdict === 'within').length / tries.length];
    }),
  );
  return counts.flatMap((count) => {
    const worse = counts.filter((low) => low < count && share.get(low)! < share.get(count)!);
    return worse.length > 0 ? [{ held: count, brokeBelow: Math.max(...worse) }] : [];
  });
}

/** The widest bracket that is good enough: `resolution` of the count that held, at least 1. */
export function tolerance(lo: number, resolution: number): number {
  return Math.max(1, Math.floor(lo * resolution));
}

function checkSettings(s: SearchSettings): void {
  const whole = (n: number): boolean => Number.isSafeInteger(n);
  if (!whole(s.min) || s.min < 0) throw new RangeError(`min ${s.min} is not a whole number >= 0`);
  if (!whole(s.start) || s.start < Math.max(1, s.min))
    throw new RangeError(`start ${s.start} is not a whole number >= ${Math.max(1, s.min)}`);
  if (!whole(s.max) || s.max < s.start) throw new RangeError(`max ${s.max} is below start ${s.start}`);
  if (!(s.resolution > 0 && s.resolution < 1))
    throw new RangeError(`resolution ${s.resolution} is not between 0 and 1`);
  if (s.confirm !== undefined && (!whole(s.confirm) || s.confirm < 0))
    throw new RangeError(`confirm ${s.confirm} is not a whole number >= 0`);
  if (!whole(s.clientProcesses) || s.clientProcesses < 1 || s.clientProcesses > s.maxClientProcesses) {
    throw new RangeError(`client processes ${s.clientProcesses} is not from 1 to ${s.maxClientProcesses}`);
  }
}

/**
 * The capacity search itself, apart from how a step is measured: ramp the count
 * x2 from `start` until a step breaks (or `max` holds), then bisect between the
 * largest count that held and the smallest that broke until they are within
 * `resolution` of each other. A step whose load generator saturated proves
 * nothing about the server: it is kept as invalid and measured again with one
 * more client process, up to `maxClientProcesses`; past that the search stops
 * and says it cannot tell. Pure logic over a step function, so tests can drive it.
 */
import type { SearchEnd } from '../capacity-types.js';

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
  /** More than this many client processes are never used (the machine's cores). */
  maxClientProcesses: number;
  signal?: AbortSignal;
}

export interface SearchStep<J extends StepJudgement> {
  count: number;
  clientProcesses: number;
  /** ramp, bisect, or retry (the same count again with more client processes). */
  phase: 'ramp' | 'bisect' | 'retry';
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
}

export type StepFunction<J extends StepJudgement> = (count: number, clientProcesses: number) => Promise<J>;

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
  });

  /** A valid judgement of `count`, adding client processes while the load generator saturates; null when it still does. */
  const measure = async (count: number, phase: 'ramp' | 'bisect'): Promise<J | null | 'stopped'> => {
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
  return finish('bracketed');
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
  if (!whole(s.clientProcesses) || s.clientProcesses < 1 || s.clientProcesses > s.maxClientProcesses) {
    throw new RangeError(`client processes ${s.clientProcesses} is not from 1 to ${s.maxClientProcesses}`);
  }
}

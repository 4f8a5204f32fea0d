/**
 * conn.iterate(): one scenario step per message, run as the cell's load plan
 * says. The closed loop runs `inflight` chains of steps, each step after the
 * one before it settled, so the load is what the server lets through. The open
 * model hands each step to the process's pacer, which runs it when its message
 * is due whatever came back; steps in flight are only counted, so none waits
 * for another. Either way it resolves once the window closed and every step it
 * started has settled (replies drained, or given up at the drain's end).
 */
import type { IterateOptions, IterationStep, LoadPlan } from '../../types/connection-types.js';
import { endsQuietly } from '../work-ended.js';
import type { ActiveConnections } from './active-connections.js';
import { connectionDueTimes, type DueTimes } from './due-times.js';
import type { Pacer } from './pacer.js';

export interface IterationLink {
  /** The connection's index over the cell, and the cell's connections. */
  index: number;
  total: number;
  plan: LoadPlan;
  /** The window. */
  signal: AbortSignal;
  nowUs(): number;
  /** The process's pacer (open model), made when the window opened. */
  pacer(): Pacer;
  /** Which connections take part now (closed loop with stages); null without stages. */
  active(): ActiveConnections | null;
}

export function runIterations(link: IterationLink, step: IterationStep, options: IterateOptions = {}): Promise<void> {
  if (options.at !== undefined) return openIterations(link, step, timetable(options.at));
  if (link.plan.model === 'open') {
    const { curve, arrivals, seed } = link.plan;
    const times = connectionDueTimes({ curve, index: link.index, count: link.total, process: arrivals, seed });
    return openIterations(link, step, times);
  }
  const inflight = options.inflight ?? 1;
  if (!Number.isSafeInteger(inflight) || inflight < 1)
    throw new Error(`conn.iterate(): inflight must be a whole number of 1 or more (it is ${String(inflight)})`);
  return closedIterations(link, step, inflight);
}

async function openIterations(link: IterationLink, step: IterationStep, times: DueTimes): Promise<void> {
  let inFlight = 0;
  let failure: unknown = null;
  let settled: () => void = () => undefined;
  const allSettled = new Promise<void>((resolve) => (settled = resolve));
  const done = (): void => {
    inFlight -= 1;
    if (inFlight === 0) settled();
  };
  const failed = (error: unknown): void => {
    if (!endsQuietly(error)) failure ??= error;
    done();
  };
  try {
    await link.pacer().run(times, (n, dueUs, nowUs) => {
      const result = step(n, dueUs, nowUs);
      if (result === undefined) return;
      inFlight += 1;
      result.then(done, failed);
    });
  } catch (error) {
    // A send on a connection that is gone: no more steps; what is in flight still settles.
    if (!endsQuietly(error)) throw error;
  }
  if (inFlight > 0) await allSettled;
  if (failure !== null) throw failure;
}

async function closedIterations(link: IterationLink, step: IterationStep, inflight: number): Promise<void> {
  let n = 0;
  const chain = async (): Promise<void> => {
    while (!link.signal.aborted) {
      const gate = link.active();
      if (gate !== null && !gate.isActive(link.index)) {
        await gate.whenActive(link.index, link.signal);
        continue;
      }
      const nowUs = link.nowUs();
      const result = step(n++, nowUs, nowUs);
      // A step that does not wait for its reply would spin here without ever letting the window close.
      if (result === undefined)
        throw new Error(
          "conn.iterate(): in the closed loop a step returns its reply's promise (return requests.send(...)); with a rate, steps may return nothing",
        );
      try {
        await result;
      } catch (error) {
        if (endsQuietly(error)) return;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: inflight }, chain));
}

/** The user's timetable as due times in µs. */
function timetable(at: (n: number) => number | null): DueTimes {
  let n = 0;
  return {
    next: () => {
      const ms = at(n++);
      if (ms === null) return null;
      if (!Number.isFinite(ms) || ms < 0)
        throw new Error(`conn.iterate(): at(${n - 1}) gave ${String(ms)}, not a time in ms of 0 or more`);
      return ms * 1000;
    },
  };
}

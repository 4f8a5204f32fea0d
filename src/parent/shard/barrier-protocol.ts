/**
 * The small HTTP barrier shard 0 serves, as data: its two routes and what
 * crosses them. Both carry the run id; a barrier answers only its own run.
 *
 *   GET  /wsbench/barrier/time?run=ID&count=N   -> 200 {runId, epochMs, monotonicMs}
 *   POST /wsbench/barrier/check-in  {CheckIn}   -> 200 {Release} once every shard is in (or the timeout passed)
 *
 * 409: another run id or shard count. 410: this cell's barrier already released
 * the others without this shard. 400: a body that is not a check-in.
 */
import { monotonicUs } from '../../shared/measure/clock.js';

export const TIME_PATH = '/wsbench/barrier/time';
export const CHECK_IN_PATH = '/wsbench/barrier/check-in';

/** One shard at one cell round: its clients are connected (or, with `withdraw`, it will not measure this round). */
export interface CheckIn {
  runId: string;
  count: number;
  shard: number;
  /** Position of the cell in the run's expansion (the same on every shard of one configuration). */
  cell: number;
  round: number;
  /** Set when the shard sits this round out (skipped, or failed before its clients were ready): nobody waits for it. */
  withdraw?: string;
}

/** What every waiting shard hears when the barrier opens. */
export interface Release {
  /** Shards that neither arrived nor withdrew before the timeout: the windows opened without them. */
  missing: number[];
  /** Shards that sat this round out, and why. */
  withdrawn: Array<{ shard: number; reason: string }>;
  /** How long the barrier waited after the first shard came, ms. */
  waitedMs: number;
  timeoutMs: number;
}

/** Shard 0's clocks when it answered a time probe. */
export interface TimeAnswer {
  runId: string;
  /** Wall clock, epoch ms with sub-millisecond digits. */
  epochMs: number;
  /** CLOCK_MONOTONIC in ms: the clock scenarios stamp one-way delays with (ctx.nowUs). */
  monotonicMs: number;
}

/** Wall clock with sub-millisecond digits (Date.now() has whole milliseconds only). */
export function preciseEpochMs(): number {
  return performance.timeOrigin + performance.now();
}

/** CLOCK_MONOTONIC in ms: the clock of ctx.nowUs(). */
export function monotonicMs(): number {
  return monotonicUs() / 1000;
}

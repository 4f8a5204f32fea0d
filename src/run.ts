/**
 * The library's way in: run(options) plans (planRun) and executes the plan
 * (execute). Planning checks every option before anything starts; a run that
 * is one shard of several also gets its shard options checked, and executing
 * it opens a shard session whose gates line the windows up across machines.
 */
import { planMatrix, type MatrixOptions, type MatrixPlan } from './core/plan.js';
import { executeMatrix } from './core/execute.js';
import type { RunEvent } from './core/events.js';
import type { LoadedScenario, ScenarioRef } from './core/scenario-loader.js';
import type { BenchResult } from './result-types.js';
import { checkShardOptions, configHash, type ShardOptions } from './shard/shard-options.js';
import { ShardSession } from './shard/shard-session.js';

export type { ParamsFor } from './core/plan.js';

export interface RunOptions<S extends ScenarioRef = ScenarioRef> extends MatrixOptions<S> {
  /** Aborting stops the current cell (marked `interrupted`) and skips the rest. */
  signal?: AbortSignal;
  /** Called for every engine event: run start, cell start, window open, tick, cell end. */
  onEvent?: (event: RunEvent) => void;
  /**
   * Run as shard `index` of `count` load machines against the same --target servers: client processes
   * are numbered over all shards, so each shard takes its part of every connection count and rate, and
   * the windows open together (a start time or shard 0's barrier). The result carries `shard` for `merge`.
   */
  shard?: ShardOptions;
  /** The command line, recorded in the result as `argv` (the CLI passes what it was given). */
  argv?: string[];
}

export interface RunPlan extends MatrixPlan {
  shard: ShardOptions | null;
}

/**
 * Checks options and builds the plan without starting anything; errors name the option.
 * `loaded`: the scenario, when the caller has loaded it already (the CLI, for its flags).
 */
export async function planRun<S extends ScenarioRef>(options: RunOptions<S>, loaded?: LoadedScenario): Promise<RunPlan> {
  const plan = await planMatrix(options, loaded);
  if (options.shard) checkShardOptions(options.shard, plan.servers, plan.foreign);
  return { ...plan, shard: options.shard ?? null };
}

/** Runs a plan; a sharded plan opens its shard session first and records it in the result. */
export async function execute(plan: RunPlan, options: Pick<RunOptions, 'signal' | 'onEvent' | 'argv'> = {}): Promise<BenchResult> {
  const shard = plan.shard;
  if (!shard) return executeMatrix(plan, options);
  // Shard 0 serves the barrier; the others wait for it and measure their clock offset from it.
  const opened: { session?: ShardSession } = {};
  const result = await executeMatrix(plan, { ...options, coordinate: async (signal) => (opened.session = await ShardSession.open(shard, signal)) });
  return opened.session ? { ...result, shard: opened.session.info(configHash({ ...plan, count: shard.count })) } : result;
}

export async function run<S extends ScenarioRef>(options: RunOptions<S>): Promise<BenchResult> {
  return execute(await planRun(options), options);
}

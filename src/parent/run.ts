/**
 * The library's way in: run(options) plans (planRun) and executes the plan
 * (execute). Planning checks every option before anything starts; a run that
 * is one shard of several also gets its shard options checked, and executing
 * it opens a shard session whose gates line the windows up across machines.
 * With `out`, run() writes the result file and its report as `wsbench run`
 * does, through the same functions; without it, nothing.
 */
import { planMatrix, type MatrixOptions, type MatrixPlan } from './engine/plan.js';
import { executeMatrix } from './engine/execute.js';
import type { RunEvent } from './engine/events.js';
import type { LoadedScenario, ScenarioRef } from '../child/scenario-loader.js';
import type { BenchResult } from '../shared/types/result-types.js';
import type { ResultOf, ScenarioRefInput } from './results/typed-results.js';
import { isScenario } from '../shared/types/scenario-types.js';
import { lockResultFile } from './results/result-lock.js';
import { checkOutputs, ResultWriteError, writeResultAndReport } from './result-output.js';
import { checkShardOptions, checkShardShares, configHash, type ShardOptions } from './shard/shard-options.js';
import { allParameters } from './engine/params.js';
import { ShardSession } from './shard/shard-session.js';
import { ParameterError } from '../shared/types/errors.js';

export type { ParamsFor } from './engine/plan.js';

/** run()'s options. `S` the scenario, `Sv`, `Cl`, `F` the stack names as written (see MatrixOptions): inferred by run(). */
export interface RunOptions<
  S extends ScenarioRef = ScenarioRef,
  Sv extends string = string,
  Cl extends string = string,
  F extends string = string,
> extends MatrixOptions<S, Sv, Cl, F> {
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
  /**
   * Write the result JSON here, and report.html with charts/ in `<name>.report/` beside it, as `wsbench run --out`
   * does. Checked before anything starts. When the JSON cannot go there, it is saved in the temp folder (or the
   * current one) and run() rejects with a ResultWriteError that says where and carries the result.
   */
  out?: string;
  /** With `out`: also charts/*.png. */
  png?: boolean;
}

/** A run checked and planned, nothing started: what planRun() returns and execute() runs. */
export interface RunPlan extends MatrixPlan {
  shard: ShardOptions | null;
}

/**
 * Checks options and builds the plan without starting anything; errors name the option.
 * `loaded`: the scenario, when the caller has loaded it already (the CLI, for its flags).
 */
export async function planRun<
  S extends ScenarioRef,
  Sv extends string = never,
  Cl extends string = never,
  F extends string = never,
>(options: RunOptions<S, Sv, Cl, F>, loaded?: LoadedScenario): Promise<RunPlan> {
  if (options.out !== undefined) checkOutputs(options.out);
  const plan = await planMatrix(options, loaded);
  if (options.shard && options.untilDecided)
    throw new ParameterError(
      'untilDecided',
      'a sharded run measures the same rounds on every machine: give it --repeat instead',
    );
  if (options.shard) {
    checkShardOptions(options.shard, plan.servers, plan.foreign);
    checkShardShares(options.shard, allParameters(plan.loaded.scenario), plan.paramSets, plan.clientProcesses);
  }
  return { ...plan, shard: options.shard ?? null };
}

/** Runs a plan; a sharded plan opens its shard session first and records it in the result. */
export async function execute(
  plan: RunPlan,
  options: Pick<RunOptions, 'signal' | 'onEvent' | 'argv'> = {},
): Promise<BenchResult> {
  const shard = plan.shard;
  if (!shard) return executeMatrix(plan, options);
  // Shard 0 serves the barrier; the others wait for it and measure their clock offset from it.
  const opened: { session?: ShardSession } = {};
  const part = { index: shard.index, count: shard.count, runId: shard.runId };
  const result = await executeMatrix(plan, {
    ...options,
    shard: part,
    coordinate: async (signal) => (opened.session = await ShardSession.open(shard, signal)),
  });
  return opened.session
    ? { ...result, shard: opened.session.info(configHash({ ...plan, count: shard.count })) }
    : result;
}

/**
 * Plans, runs and returns the result: `run({ scenario: 'echo', params })` or `run('echo', { params })`.
 * Given a scenario object or a built-in's name, `params` are checked against its declarations and the
 * result is typed by them (ResultOf): each cell's `metrics` has exactly the scenario's metric keys and
 * its `params` the scenario's parameters. Stack names written as literals must be known ones; names in
 * a `string[]` (read from input) are checked when the run is planned. A path gives the untyped result.
 */
export async function run<
  S extends ScenarioRef,
  Sv extends string = never,
  Cl extends string = never,
  F extends string = never,
>(options: RunOptions<S, Sv, Cl, F>): Promise<ResultOf<S>>;
/** The same run with the scenario first: `run('echo', { params })`. */
export async function run<
  S extends ScenarioRef,
  Sv extends string = never,
  Cl extends string = never,
  F extends string = never,
>(scenario: ScenarioRefInput<S>, options?: Omit<RunOptions<S, Sv, Cl, F>, 'scenario'>): Promise<ResultOf<S>>;
export async function run<S extends ScenarioRef>(
  first: S | RunOptions<S>,
  rest: Omit<RunOptions<S>, 'scenario'> = {},
): Promise<BenchResult> {
  const options = (isScenarioRef(first) ? { ...rest, scenario: first } : first) as RunOptions<S>;
  const plan = await planRun(options);
  if (options.out === undefined) return execute(plan, options);
  // One writer per result file, as for `wsbench run`.
  const lock = lockResultFile(options.out, 'out');
  try {
    const result = await execute(plan, options);
    const written = await writeResultAndReport(result, options.out, { png: options.png === true });
    if (written.saved.problem !== null || written.problem !== null)
      throw new ResultWriteError(result, options.out, written);
    return result;
  } finally {
    lock.release();
  }
}

function isScenarioRef(value: unknown): value is ScenarioRef {
  return typeof value === 'string' || value instanceof URL || isScenario(value);
}

/**
 * run(): expands scenario x server x client x parameter sets into cells, skips
 * the pairs that cannot work (with the reason), runs the rest one at a time,
 * and tells listeners what happens as events.
 */
import { ParameterError, UsageError } from '../errors.js';
import { toolVersion } from '../package-version.js';
import { clientStacks, serverStacks } from '../stacks.js';
import type { ParamInputs, ParamValues } from '../declaration-types.js';
import type { AnyScenario, Scenario } from '../scenario-types.js';
import { SCHEMA_VERSION, type BenchResult, type CellResult, type ScenarioInfo, type StackInfo } from '../result-types.js';
import { runCell, type CellPlan, type CellRun } from './cell.js';
import { cellResult } from './cell-result.js';
import { describeEnvironment, probeStacks } from './environment.js';
import { COMMON_PARAMETERS, resolveParameterSets, serverProcessCount } from './params.js';
import { raiseOpenFileLimit } from './file-limit.js';
import { loadScenario, type LoadedScenario, type ScenarioRef } from './scenario-loader.js';
import { scenarioInfo } from './scenario-info.js';
import type { RunEvent } from './events.js';
import type { ForeignServerSpec } from './servers/types.js';
import {
  foreignScenarioSkip,
  foreignServerInfo,
  foreignSpecs,
  foreignStackInfo,
  type ServerCommandOption,
  type TargetOption,
} from './servers/foreign-options.js';
import { checkShardOptions, configHash, type ShardOptions } from '../shard/shard-options.js';
import { ShardSession } from '../shard/shard-session.js';

/** Parameters as code passes them, typed from the scenario when run() gets the scenario itself. */
export type ParamsFor<S> = S extends Scenario<infer D, infer _M>
  ? ParamInputs<D> & ParamInputs<typeof COMMON_PARAMETERS>
  : Readonly<Record<string, unknown>>;

export interface RunOptions<S extends ScenarioRef = ScenarioRef> {
  /** A built-in scenario's name, a path or file URL of a module exporting one, or the scenario itself. */
  scenario: S;
  /**
   * Server stacks; default all, or none when `targets` or `serverCommands` name servers.
   * Names of those may appear here too, to order the rows.
   */
  servers?: string[];
  /** Servers already running (ws:// or wss:// WebSocket, http(s):// socket.io); only the clients run. */
  targets?: TargetOption[];
  /** Servers started for each cell by a command ({port} and {host} filled in), in any language. */
  serverCommands?: ServerCommandOption[];
  /** Client stacks; default all. */
  clients?: string[];
  /** Parameter values: numbers in ms and bytes (or '5s', '4kb'), arrays to sweep. */
  params?: ParamsFor<S>;
  /** A preset of the scenario; `params` override it. */
  preset?: string;
  /** Load-generating processes per cell. Default 1. */
  clientProcesses?: number;
  /** Rounds per cell, interleaved over the cells; the cell pools them. Default 1. */
  repeat?: number;
  /** Loopback address the server binds. Default 127.0.0.1. */
  host?: string;
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
}

export interface RunPlan {
  servers: string[];
  clients: string[];
  clientProcesses: number;
  repeat: number;
  host: string;
  loaded: LoadedScenario;
  info: ScenarioInfo;
  paramSets: ParamValues[];
  /** The --target and --server-cmd servers, by the name `servers` lists them under. */
  foreign: ForeignServerSpec[];
  shard: RunOptions['shard'] | null;
}

/** Checks options and builds the plan without starting anything; errors name the option. */
export async function planRun<S extends ScenarioRef>(options: RunOptions<S>): Promise<RunPlan> {
  if (process.env.WSBENCH_ROLE) {
    throw new UsageError('run() was called inside a wsbench child process: keep a scenario in its own module, apart from the code that calls run()');
  }
  const builtIn = Object.keys(serverStacks);
  const foreign = foreignSpecs(options.targets ?? [], options.serverCommands ?? [], builtIn);
  const foreignNames = foreign.map((f) => f.name);
  // Measuring your own server runs it alone unless built-in stacks are asked for beside it.
  const picked = pickStacks('servers', options.servers ?? (foreign.length > 0 ? foreignNames : undefined), [...builtIn, ...foreignNames]);
  const servers = [...picked, ...foreignNames.filter((name) => !picked.includes(name))];
  const clients = pickStacks('clients', options.clients, Object.keys(clientStacks));
  const clientProcesses = wholeNumber('clientProcesses', options.clientProcesses ?? 1, 1, 64);
  const repeat = wholeNumber('repeat', options.repeat ?? 1, 1, 100);
  const host = options.host ?? '127.0.0.1';
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) throw new ParameterError('host', `${host} is not a loopback address (127.x.x.x)`);
  // Before any check of a parameter set against the limit, and before any child inherits it.
  raiseOpenFileLimit();
  const loaded = await loadScenario(options.scenario);
  const paramSets = resolveParameterSets(loaded.scenario, (options.params ?? {}) as Record<string, unknown>, options.preset);
  if (options.shard) checkShardOptions(options.shard, servers, foreign);
  return { servers, clients, clientProcesses, repeat, host, loaded, info: scenarioInfo(loaded.scenario), paramSets, foreign, shard: options.shard ?? null };
}

export async function run<S extends ScenarioRef>(options: RunOptions<S>): Promise<BenchResult> {
  const startedAt = new Date();
  const plan = await planRun(options);
  const stacks = await probeStacks();
  const signal = options.signal ?? new AbortController().signal;
  const emit = options.onEvent ?? (() => undefined);
  const cells = expandCells(plan);
  // A foreign server pairs by the same rules, as a stack whose protocol its URL says.
  const pairing = [...stacks, ...plan.foreign.map(foreignStackInfo)];
  const skips = cells.map((cell) => (cell.foreign ? foreignScenarioSkip(plan.loaded.scenario) : null) ?? whySkip(cell, plan.loaded.scenario, pairing));
  const runs: CellRun[][] = cells.map(() => []);
  const total = cells.length * plan.repeat;
  const cellPlan = cells.map((cell, i) => ({ server: cell.server, client: cell.client, params: cell.params, skip: skips[i]! }));
  const shard = plan.shard ? { shard: { index: plan.shard.index, count: plan.shard.count, runId: plan.shard.runId } } : {};
  emit({ type: 'run-start', scenario: plan.info, cells: cells.length, repeat: plan.repeat, plan: cellPlan, ...shard });
  // Shard 0 serves the barrier; the others wait for it and measure their clock offset from it.
  const session = plan.shard ? await ShardSession.open(plan.shard, signal) : null;
  // Round-robin over the cells, so slow drift on the machine hits every pair alike.
  for (let round = 0; round < plan.repeat && !session?.failure; round++) {
    for (const [i, cell] of cells.entries()) {
      if (skips[i] !== null && session) session.gate(i, round).withdraw(skips[i]!);
      if (skips[i] !== null || signal.aborted) continue;
      const index = round * cells.length + i;
      const identity = { scenario: plan.info.name, server: cell.server, client: cell.client, params: cell.params };
      emit({ type: 'cell-start', index, total, round, ...identity, windowMs: plan.loaded.scenario.windowMs?.(cell.params) });
      const outcome = await runCell(cell, {
        host: plan.host,
        clientProcesses: plan.clientProcesses,
        signal,
        onWindowOpen: () => emit({ type: 'window-open', index }),
        onTick: (counters, progress) => emit({ type: 'tick', index, counters, progress }),
        onResourceSample: (role, process, sample) => emit({ type: 'resources', index, role, process, ...sample }),
        ...(session ? { shard: { index: session.options.index, count: session.options.count, gate: session.gate(i, round) } } : {}),
      });
      runs[i]!.push(outcome);
      const findings = outcome.measured ? { notes: outcome.measured.notes, ...(outcome.measured.saturation ? { saturation: outcome.measured.saturation } : {}) } : {};
      emit({ type: 'cell-end', index, total, round, ...identity, status: outcome.failure === null ? 'ok' : 'failed', reason: outcome.failure, ...findings });
    }
  }
  await session?.close();
  emit({ type: 'run-end', interrupted: signal.aborted });
  const results = cells.map((cell, i): CellResult => {
    const identity = { scenario: plan.info.name, server: cell.server, client: cell.client, params: cell.params };
    if (skips[i] !== null) return { ...identity, status: 'skipped', reason: skips[i]!, elapsedMs: 0 };
    if (session?.failure) return { ...identity, status: 'failed', reason: session.failure, elapsedMs: 0 };
    if (runs[i]!.length === 0) return { ...identity, status: 'skipped', reason: 'interrupted before it started', elapsedMs: 0 };
    return cellResult(identity, plan.loaded.scenario, plan.clientProcesses, runs[i]!);
  });
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'wsbench', version: toolVersion() },
    startedAt: startedAt.toISOString(),
    elapsedMs: Date.now() - startedAt.getTime(),
    interrupted: signal.aborted,
    environment: {
      ...describeEnvironment(stacks),
      ...(plan.foreign.length > 0 ? { foreignServers: plan.foreign.map(foreignServerInfo) } : {}),
    },
    clientProcesses: plan.clientProcesses,
    repeat: plan.repeat,
    scenarios: [plan.info],
    cells: results,
    ...(session ? { shard: session.info(configHash({ ...plan, count: session.options.count })) } : {}),
  };
}

function wholeNumber(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new ParameterError(name, `${value} is not a whole number from ${min} to ${max}`);
  return value;
}

function pickStacks(option: 'servers' | 'clients', wanted: string[] | undefined, known: string[]): string[] {
  if (wanted === undefined) return known;
  if (wanted.length === 0) throw new ParameterError(option, `give at least one of ${known.join(', ')}`);
  for (const name of wanted) {
    if (name === '') throw new ParameterError(option, `an empty name in the list (known: ${known.join(', ')})`);
    if (!known.includes(name)) throw new ParameterError(option, `unknown ${option.slice(0, -1)} stack "${name}" (known: ${known.join(', ')})`);
  }
  return [...new Set(wanted)];
}

function expandCells(plan: RunPlan): CellPlan[] {
  return plan.paramSets.flatMap((params) =>
    plan.servers.flatMap((server) => {
      const foreign = plan.foreign.find((f) => f.name === server);
      return plan.clients.map((client) => ({ loaded: plan.loaded, server, client, params, ...(foreign ? { foreign } : {}) }));
    }),
  );
}

/** What a scenario may require, which side must offer it, and how a skip says it is missing. */
const REQUIREMENTS = [
  { need: 'fragmentControl', side: 'server', missing: 'needs a server that sends one message as several WebSocket frames' },
  { need: 'httpRoutes', side: 'server', missing: 'needs a server that serves its HTTP routes' },
  { need: 'wireTap', side: 'client', missing: "needs a client that hands over the socket's raw bytes (frames are read off the wire)" },
] as const;

/**
 * Incompatible or unavailable pairs are skipped with the reason, never failed.
 * Reasons are worded without the stack names where they can be, so the table
 * folds all such pairs into one line.
 */
function whySkip(cell: CellPlan, scenario: AnyScenario, stacks: StackInfo[]): string | null {
  const server = stacks.find((s) => s.role === 'server' && s.name === cell.server)!;
  const client = stacks.find((s) => s.role === 'client' && s.name === cell.client)!;
  if (server.protocol !== client.protocol) return `a ${server.protocol} server cannot talk to a ${client.protocol} client`;
  if (!server.availability.available) return `server ${cell.server} unavailable: ${server.availability.reason}`;
  if (!client.availability.available) return `client ${cell.client} unavailable: ${client.availability.reason}`;
  const sides = { server, client };
  for (const { need, side, missing } of REQUIREMENTS) {
    if (scenario.requires?.[need] && sides[side].capabilities?.[need] !== true) return `${scenario.name} ${missing}`;
  }
  if (cell.params.deflate === 'on') {
    const unable = [server, client].find((s) => s.capabilities?.deflate !== true);
    if (unable) return `deflate=on: the ${unable.name} ${unable.role} cannot negotiate permessage-deflate`;
  }
  return whyNotProcesses(cell, scenario, server);
}

/** serverProcesses above 1 needs a built-in stack that can share its port and a scenario whose server half allows it. */
function whyNotProcesses(cell: CellPlan, scenario: AnyScenario, server: StackInfo): string | null {
  const count = serverProcessCount(cell.params);
  if (count === 1) return null;
  const asked = `serverProcesses=${count}`;
  if (cell.foreign) return `${asked}: a --target or --server-cmd server runs as it was started`;
  if (!scenario.multiProcessServer) return `${asked}: ${scenario.name} keeps its server state in one process`;
  if (server.capabilities?.sharedPort !== true) {
    const why = server.runtime === 'node' ? " (Node 20's net has no SO_REUSEPORT)" : '';
    return `${asked}: the ${server.name} server cannot share one port between processes${why}`;
  }
  return null;
}

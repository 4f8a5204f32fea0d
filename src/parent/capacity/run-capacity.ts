/**
 * capacity(): for every server stack (built-in, --target or --server-cmd), the
 * largest count of the varied parameter (the scenario's connections) that holds
 * an SLO. Each step is one cell; the search (search.ts) decides the counts,
 * judge.ts reads each cell. Returns one result file: the steps' cells, and the
 * search in its `capacity` section.
 */
import os from 'node:os';
import { ParameterError } from '../../shared/types/errors.js';
import { toolVersion } from '../../shared/package-version.js';
import { planMatrix, replan, type MatrixPlan } from '../engine/plan.js';
import { executeMatrix } from '../engine/execute.js';
import { describeEnvironment } from '../engine/environment.js';
import { SATURATED_CPU_PERCENT } from '../measure/saturation.js';
import type { RunEvent } from '../engine/events.js';
import { loadScenario, type LoadedScenario, type ScenarioRef } from '../../child/scenario-loader.js';
import { scenarioInfo } from '../engine/scenario-info.js';
import type { ParamValues } from '../../shared/types/declaration-types.js';
import {
  SCHEMA_VERSION,
  type CapacityResult,
  type CellResult,
  type Environment,
  type ScenarioInfo,
  type StackInfo,
} from '../../shared/types/result-types.js';
import type { CapacitySettings, CapacityStep, ServerCapacity } from '../../shared/types/capacity-types.js';
import {
  foreignServerInfo,
  foreignStackInfo,
  type ServerCommandOption,
  type TargetOption,
} from '../server-lifecycles/foreign-options.js';
import type { ForeignServerSpec } from '../server-lifecycles/types.js';
import {
  STARVED_LOOP_SHARE,
  clientSaturationEvidence,
  describeBreak,
  interruptedStep,
  judgeCell,
  refusedStep,
  type StepMeasurement,
} from './judge.js';
import { searchCapacity, type SearchOutcome } from './search.js';
import { parseSlo, type Slo } from '../slo/grammar.js';
import { startKeptServer, type KeptServer } from './kept-server.js';

const DEFAULT_VARY = 'connections';
const DEFAULT_START = 100;
const DEFAULT_MAX = 50_000;
const DEFAULT_RESOLUTION = 0.1;
/** Two more tries of each end of the bracket: three in all, so a boundary that holds 2 of 3 reads as such. */
const DEFAULT_CONFIRM = 2;
/** Why a server has no search: the run stopped first. */
const NOT_REACHED = "the search was interrupted before this server's turn";

/** capacity()'s options: the scenario, the servers and client, the SLO, the load parameter to raise and how. */
export interface CapacityOptions {
  /** A built-in scenario's name, a path or file URL of a module exporting one, or the scenario itself. */
  scenario: ScenarioRef;
  /** e.g. 'p99<500ms,errors=0': see src/parent/slo/grammar.ts. */
  slo: string;
  /** Server stacks; default all, or none when `targets` or `serverCommands` name servers (as in run()). */
  servers?: string[];
  /** Servers already running: kept for every step (not wsbench's to restart). */
  targets?: TargetOption[];
  /** Servers started by a command, in any language: afresh for every step, unless `keepServer`. */
  serverCommands?: ServerCommandOption[];
  /** Start each `serverCommands` server once and keep it for all its steps; default false (a fresh server per step). */
  keepServer?: boolean;
  /** Client stacks to load the servers with: each server gets the first one that speaks its protocol. Default: ws, then the others. */
  clients?: string[];
  /** The whole-number parameter to vary; default `connections`. */
  vary?: string;
  /** First count of the ramp; default 100 (or the parameter's minimum, if higher). */
  start?: number;
  /** Highest count tried; default 50,000 (or the parameter's maximum, if lower). */
  max?: number;
  /** Bisection stops when the bracket is within this share of the capacity; default 0.1. */
  resolution?: number;
  /** Tries more of each end of the bracket once it is found; default 2 (three tries each in all). */
  confirm?: number;
  /** Every other parameter, one value each (a step is one cell). */
  params?: Readonly<Record<string, unknown>>;
  preset?: string;
  /** Client processes of each server's first step; default 1. */
  clientProcesses?: number;
  /** The most client processes a step may use when the load generator saturates; default the machine's cores. */
  maxClientProcesses?: number;
  host?: string;
  signal?: AbortSignal;
  onEvent?: (event: CapacityEvent) => void;
  /** The engine events of each step's run(), for a live view. */
  onRunEvent?: (event: RunEvent) => void;
}

/** What capacity() reports as it searches: each server pair starting, each step measured, each server's outcome. */
export type CapacityEvent =
  | { type: 'server-start'; server: string; client: string }
  | { type: 'step-start'; server: string; client: string; count: number; clientProcesses: number }
  | { type: 'step-end'; server: string; client: string; step: StepMeasurement }
  | { type: 'server-end'; result: ServerCapacity };

/** A capacity search checked and planned, not started: what planCapacity() returns and executeCapacity() runs. */
export interface CapacityPlan {
  info: ScenarioInfo;
  slo: Slo;
  latencyMetric: string | null;
  settings: CapacitySettings;
  /** Server -> the client stack that loads it, or why none can. */
  pairs: Array<{ server: string; client: string | null; reason: string | null }>;
  /** The parameters as given (the varied one aside): each step adds its count. */
  inputs: Readonly<Record<string, unknown>>;
  /** The plan of the first step: every step is planned again from it. */
  firstStep: MatrixPlan;
}

/**
 * Checks every option without starting a process; errors name the option.
 * `loaded`: the scenario, when the caller has loaded it already (the CLI, for its flags).
 */
export async function planCapacity(options: CapacityOptions, loaded?: LoadedScenario): Promise<CapacityPlan> {
  const vary = options.vary ?? DEFAULT_VARY;
  const inputs = { ...(options.params ?? {}) };
  if (vary in inputs)
    throw new ParameterError(vary, 'the capacity search varies it: set its range with start and max instead');
  const scenario = loaded ?? (await loadScenario(options.scenario));
  const info = scenarioInfo(scenario.scenario);
  const spec = info.parameters[vary];
  if (!spec)
    throw new ParameterError(
      'vary',
      `"${vary}" is not a parameter of ${info.name} (its parameters: ${Object.keys(info.parameters).join(', ')})`,
    );
  if (spec.kind !== 'integer')
    throw new ParameterError(
      'vary',
      `${vary} is a ${spec.kind} parameter; the search varies a whole-number one (a count of connections)`,
    );
  const start = options.start ?? Math.max(DEFAULT_START, spec.min ?? 1);
  const max = options.max ?? Math.min(DEFAULT_MAX, spec.max ?? DEFAULT_MAX);
  wholeInRange('start', start, spec.min ?? 1, spec.max ?? Number.MAX_SAFE_INTEGER);
  // The bound below max is start's, perhaps its default: the message names start, or the user meets a 100 they never gave.
  if (Number.isSafeInteger(max) && max < start) {
    throw new ParameterError(
      'max',
      `${max} is below start (${start}${options.start === undefined ? ', its default' : ''}): give a smaller start, or a max of ${start} or more`,
      ['start', 'max'],
    );
  }
  wholeInRange('max', max, start, spec.max ?? Number.MAX_SAFE_INTEGER);
  const resolution = options.resolution ?? DEFAULT_RESOLUTION;
  const confirm = options.confirm ?? DEFAULT_CONFIRM;
  wholeInRange('confirm', confirm, 0, 100);
  if (!(resolution > 0 && resolution < 1))
    throw new ParameterError('resolution', `${resolution} is not a share between 0 and 1 (0.1 = 10 %)`);
  const cores = os.availableParallelism();
  const clientProcesses = options.clientProcesses ?? 1;
  const maxClientProcesses = options.maxClientProcesses ?? Math.max(clientProcesses, cores);
  wholeInRange('maxClientProcesses', maxClientProcesses, 1, 64);
  wholeInRange('clientProcesses', clientProcesses, 1, maxClientProcesses);
  const slo = parseSlo(options.slo, info);
  // The first step's plan checks stacks, host and every parameter, and the scenario's own limits at `start`;
  // every step plans again from it, changing only the pair, the count and the client processes.
  const plan = await planMatrix(
    { ...runBase(options, clientProcesses), params: { ...inputs, [vary]: start } },
    scenario,
  );
  if (plan.paramSets.length !== 1) {
    const [first, ...others] = plan.paramSets as [ParamValues, ...ParamValues[]];
    const swept = Object.keys(first).find((name) => others.some((set) => set[name] !== first[name]))!;
    throw new ParameterError(swept, 'takes one value in a capacity search (each step is one cell)');
  }
  const params: ParamValues = Object.fromEntries(Object.entries(plan.paramSets[0]!).filter(([name]) => name !== vary));
  const settings: CapacitySettings = {
    vary,
    start,
    max,
    resolution,
    confirm,
    clientProcesses,
    maxClientProcesses,
    keepServer: options.keepServer === true,
    params,
    thresholds: {
      clientCpuPercent: SATURATED_CPU_PERCENT,
      serverCpuPercent: SATURATED_CPU_PERCENT,
      starvedEventLoop: STARVED_LOOP_SHARE,
    },
  };
  const pairs = pickClients(plan.servers, options.clients, [...plan.stacks, ...plan.foreign.map(foreignStackInfo)]);
  return { info, slo, latencyMetric: latencyMetricOf(slo, info), settings, pairs, inputs, firstStep: plan };
}

/**
 * Searches each server for the highest load it serves within the SLO (`wsbench capacity`); returns the result with
 * `capacity`.
 */
export async function capacity(options: CapacityOptions): Promise<CapacityResult> {
  return executeCapacity(await planCapacity(options), options);
}

/** Searches every server of a plan; `options` gives the signal and listeners (the rest is the plan's). */
export async function executeCapacity(
  plan: CapacityPlan,
  options: Pick<CapacityOptions, 'signal' | 'onEvent' | 'onRunEvent'> = {},
): Promise<CapacityResult> {
  const startedAt = new Date();
  const signal = options.signal ?? new AbortController().signal;
  const emit = options.onEvent ?? (() => undefined);
  const cells = new Map<string, CellResult>();
  let environment: Environment | null = null;
  const servers: ServerCapacity[] = [];

  for (const pair of plan.pairs) {
    const foreign = plan.firstStep.foreign.find((f) => f.name === pair.server);
    const serverPerStep =
      foreign?.kind === 'target' || (foreign?.kind === 'command' && plan.settings.keepServer) ? 'kept' : 'fresh';
    // Listed, not left out: a reader must see which servers the stopped search never measured.
    if (signal.aborted) {
      servers.push(notSearched(pair.server, pair.client ?? '-', serverPerStep, 'not-reached', NOT_REACHED));
      continue;
    }
    if (pair.client === null) {
      servers.push(
        notSearched(pair.server, '-', serverPerStep, 'skipped', pair.reason ?? 'no client stack can load it'),
      );
      continue;
    }
    const client = pair.client;
    emit({ type: 'server-start', server: pair.server, client });
    let kept: KeptServer | null = null;
    try {
      if (foreign?.kind === 'command' && plan.settings.keepServer) {
        const first = { ...plan.firstStep.paramSets[0]!, [plan.settings.vary]: plan.settings.start };
        kept = await startKeptServer(
          foreign,
          { host: plan.firstStep.host, scenario: plan.info.name, params: first },
          signal,
        );
      }
    } catch (error) {
      if (signal.aborted) servers.push(notSearched(pair.server, client, serverPerStep, 'not-reached', NOT_REACHED));
      else
        servers.push(
          notSearched(
            pair.server,
            client,
            serverPerStep,
            'failed',
            `--keep-server: ${(error as Error).message.split('\n')[0]}`,
          ),
        );
      continue;
    }
    const step = async (count: number, processes: number): Promise<StepMeasurement> => {
      emit({ type: 'step-start', server: pair.server, client, count, clientProcesses: processes });
      const measured = await measureStep(
        plan,
        { server: pair.server, client, reached: kept?.target ?? null },
        count,
        processes,
        signal,
        options.onRunEvent,
      );
      if ('skipped' in measured) throw new PairSkipped(measured.skipped);
      // Every try is kept: a count measured again (a retry, a confirmation) is a cell of its own.
      if (measured.cell) cells.set(`${pair.server}\n${count}\n${cells.size}`, measured.cell);
      environment ??= measured.environment;
      emit({ type: 'step-end', server: pair.server, client, step: measured.step });
      return measured.step;
    };
    try {
      const outcome = await searchCapacity(
        { ...plan.settings, min: plan.info.parameters[plan.settings.vary]!.min ?? 1, signal },
        step,
      );
      const result = serverResult(pair.server, client, serverPerStep, outcome);
      servers.push(result);
      emit({ type: 'server-end', result });
    } catch (error) {
      if (!(error instanceof PairSkipped)) throw error;
      servers.push(notSearched(pair.server, client, serverPerStep, 'skipped', error.message));
    } finally {
      await kept?.stop();
    }
  }

  const elapsedMs = Date.now() - startedAt.getTime();
  const env = environment ?? {
    ...describeEnvironment(plan.firstStep.stacks),
    ...(plan.firstStep.foreign.length > 0 ? { foreignServers: plan.firstStep.foreign.map(foreignServerInfo) } : {}),
  };
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'wsbench', version: toolVersion() },
    startedAt: startedAt.toISOString(),
    elapsedMs,
    interrupted: signal.aborted,
    environment: env,
    clientProcesses: Math.max(plan.settings.clientProcesses, ...servers.map((s) => s.clientProcesses)),
    repeat: 1,
    scenarios: [plan.info],
    cells: [...cells.values()].sort((a, b) => order(plan, a) - order(plan, b)),
    capacity: {
      slo: { text: plan.slo.text, clauses: plan.slo.clauses },
      latencyMetric: plan.latencyMetric,
      settings: plan.settings,
      servers,
    },
  };
}

class PairSkipped extends Error {}

type Measured =
  | { step: StepMeasurement; cell: CellResult | null; environment: Environment | null }
  | { skipped: string };

/** The pair a step measures; `reached`: the kept server every step reaches as a target, when there is one. */
interface StepPair {
  server: string;
  client: string;
  reached: ForeignServerSpec | null;
}

/** One step: a refused count, or the judged cell; `skipped` with the reason when the pair cannot run at all. */
async function measureStep(
  plan: CapacityPlan,
  pair: StepPair,
  count: number,
  processes: number,
  signal: AbortSignal,
  onRunEvent: CapacityOptions['onRunEvent'],
): Promise<Measured> {
  let stepPlan: MatrixPlan;
  try {
    stepPlan = replan(plan.firstStep, {
      servers: [pair.server],
      clients: [pair.client],
      params: { ...plan.inputs, [plan.settings.vary]: count },
      clientProcesses: processes,
    });
  } catch (error) {
    // The scenario refuses this count here (open-file limit, port range...): the server cannot be shown to hold it.
    if (error instanceof ParameterError)
      return { step: refusedStep(count, processes, error.message, plan.slo), cell: null, environment: null };
    throw error;
  }
  const reached = pair.reached;
  if (reached) stepPlan = { ...stepPlan, cells: stepPlan.cells.map((cell) => ({ ...cell, foreign: reached })) };
  const result = await executeMatrix(stepPlan, { signal, ...(onRunEvent ? { onEvent: onRunEvent } : {}) });
  const cell = result.cells[0]!;
  if (cell.status === 'skipped' && !signal.aborted) return { skipped: cell.reason };
  const judged = judgeCell(cell, plan.slo, plan.info, plan.latencyMetric, count, processes);
  // The engine marks the cell an interrupt cut (failed, "interrupted") or never started (skipped): not a break.
  const cut =
    signal.aborted && (cell.status === 'skipped' || (cell.status === 'failed' && cell.reason === 'interrupted'));
  return { step: cut ? interruptedStep(judged) : judged, cell, environment: result.environment };
}

function runBase(options: CapacityOptions, clientProcesses: number) {
  return {
    scenario: options.scenario,
    clientProcesses,
    ...(options.servers !== undefined ? { servers: options.servers } : {}),
    ...(options.targets !== undefined ? { targets: options.targets } : {}),
    ...(options.serverCommands !== undefined ? { serverCommands: options.serverCommands } : {}),
    ...(options.preset !== undefined ? { preset: options.preset } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
  };
}

function serverResult(
  server: string,
  client: string,
  serverPerStep: ServerCapacity['serverPerStep'],
  outcome: SearchOutcome<StepMeasurement>,
): ServerCapacity {
  const steps: CapacityStep[] = outcome.steps.map((s) => ({
    ...s.judgement,
    phase: s.phase,
    outcome: s.judgement.verdict === 'interrupted' || s.valid ? s.judgement.verdict : 'invalid',
  }));
  // What broke at brokeAt: a try that broke there (a confirmation there may have held).
  const broken =
    outcome.brokeAt === null
      ? undefined
      : (lastOf(steps, (s) => s.count === outcome.brokeAt && s.outcome !== 'invalid' && s.outcome !== 'within') ??
        lastOf(steps, (s) => s.count === outcome.brokeAt && s.outcome !== 'invalid'));
  const undecided = outcome.undecidedAt === null ? undefined : lastOf(steps, (s) => s.count === outcome.undecidedAt);
  return {
    server,
    client,
    status: 'measured',
    reason: null,
    serverPerStep,
    capacity: outcome.capacity,
    brokeAt: outcome.brokeAt,
    end: outcome.end,
    broke: broken ? describeBreak(broken) : null,
    cannotTell: undecided
      ? `the load generator saturated at ${undecided.count} with ${undecided.clientProcesses} client process${undecided.clientProcesses === 1 ? '' : 'es'} ` +
        `(${clientSaturationEvidence(undecided)}; from ${SATURATED_CPU_PERCENT} % on counts as saturated), ` +
        'and no more are allowed'
      : null,
    clientProcesses: outcome.clientProcesses,
    steps,
    bracket: outcome.bracket,
    ...(outcome.nonMonotonic.length > 0 ? { nonMonotonic: outcome.nonMonotonic } : {}),
  };
}

function lastOf<T>(items: T[], match: (item: T) => boolean): T | undefined {
  return [...items].reverse().find(match);
}

/** A server whose search never ran: skipped (the pair cannot run here), failed (its kept server did not start) or not reached. */
function notSearched(
  server: string,
  client: string,
  serverPerStep: ServerCapacity['serverPerStep'],
  status: Exclude<ServerCapacity['status'], 'measured'>,
  reason: string,
): ServerCapacity {
  return {
    server,
    client,
    status,
    reason,
    serverPerStep,
    capacity: 0,
    brokeAt: null,
    end: null,
    broke: null,
    cannotTell: null,
    clientProcesses: 0,
    steps: [],
  };
}

/** Each server gets the first candidate client that speaks its protocol. */
function pickClients(servers: string[], wanted: string[] | undefined, stacks: StackInfo[]): CapacityPlan['pairs'] {
  const clients = stacks.filter((s) => s.role === 'client');
  const known = clients.map((c) => c.name);
  const candidates = wanted ?? ['ws', ...known.filter((name) => name !== 'ws')];
  for (const name of candidates) {
    if (!known.includes(name))
      throw new ParameterError('clients', `unknown client stack "${name}" (known: ${known.join(', ')})`);
  }
  return servers.map((server) => {
    const protocol = stacks.find((s) => s.role === 'server' && s.name === server)?.protocol;
    const client = candidates.find((name) => clients.find((c) => c.name === name)?.protocol === protocol) ?? null;
    return {
      server,
      client,
      reason: client === null ? `no client in ${candidates.join(', ')} speaks ${protocol ?? 'its protocol'}` : null,
    };
  });
}

/** The latency each step reports: the SLO's first latency clause, else the primary p99, else none. */
function latencyMetricOf(slo: Slo, info: ScenarioInfo): string | null {
  const clause = slo.clauses.find((c) => c.kind === 'latency' && c.metrics.length === 1);
  if (clause) return clause.metrics[0]!;
  try {
    return parseSlo('p99<1', info).clauses[0]!.metrics[0]!;
  } catch {
    return null;
  }
}

/** The steps' cells: by server in the order searched, then by count. */
function order(plan: CapacityPlan, cell: CellResult): number {
  const serverIndex = plan.pairs.findIndex((p) => p.server === cell.server);
  return serverIndex * 1e9 + Number(cell.params[plan.settings.vary] ?? 0);
}

function wholeInRange(name: string, value: number, min: number, max: number): void {
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new ParameterError(name, `${value} is not a whole number from ${min} to ${max}`);
}

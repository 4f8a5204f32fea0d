/**
 * Runs one cell: a server (wsbench's own child, a running target, or a command
 * it starts; see server-lifecycles/), N client children, a measurement window that opens
 * for all of them at once, then reports merged into one CellResult.
 */
import { fileURLToPath } from 'node:url';
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type {
  CellFault,
  CellMeasurements,
  CellResources,
  ConnectionLedger,
  ProcessReport,
} from '../../shared/types/result-types.js';
import { ChildFailure, ManagedChild } from '../child-processes.js';
import { clientSampledAsTree, stackRuntime } from '../../child/stacks.js';
import { sumCounterSets } from '../../shared/measure/metrics.js';
import { assembleMeasurements, sideBySide } from '../measure/measurements.js';
import type { LoadedScenario } from '../../child/scenario-loader.js';
import type { MetricDefinition } from '../../shared/types/scenario-types.js';
import { TimeSeriesCollector, progressIntervalMs } from '../../shared/measure/time-series.js';
import { cellWindow } from './window.js';
import { watchWindow } from './window-watch.js';
import { WindowResources } from '../measure/window-resources.js';
import { silenceOf } from '../measure/saturation.js';
import { readyTimeoutMs } from './ready-timeout.js';
import { serverProcessCount } from './params.js';
import { sumLedgers } from '../../child/connection-ledger.js';
import { connectionVerdict, countedErrors, countedErrorsText, whenText, type CountedError } from './cell-verdict.js';
import type { CellServer, CellTls, ForeignServerSpec } from '../server-lifecycles/types.js';
import { ChildServer } from '../server-lifecycles/child.js';
import { foreignServer } from '../server-lifecycles/foreign.js';
import { freePort, ServerUnavailable } from '../server-lifecycles/command.js';
import { onPort, restartingServer } from './server-restart.js';
import type { CellGate } from './coordination.js';
import type { RunTls } from './run-tls.js';
import type { ProgressTick } from '../../shared/measure/time-series.js';
import type { ResourceSample } from '../measure/proc-sampler.js';
import { redactUrlsIn } from '../redact/url-secrets.js';
import { computeMetrics, declaresServerMetrics } from '../measure/metric-values.js';
import { declaredStages } from '../../shared/parsing/stages.js';
import { StageCollector, type StageMeasured } from '../measure/stage-series.js';

const SERVER_ENTRY = fileURLToPath(new URL('../../child/server-process.js', import.meta.url));
const CLIENT_ENTRY = fileURLToPath(new URL('../../child/client-process.js', import.meta.url));
const CLIENT_WRAP_UP_TIMEOUT_MS = 15_000;

export interface CellPlan {
  loaded: LoadedScenario;
  server: string;
  client: string;
  params: ParamValues;
  /** Set when `server` names a --target or --server-cmd server instead of a built-in stack. */
  foreign?: ForeignServerSpec;
}

interface CellOptions {
  host: string;
  clientProcesses: number;
  signal: AbortSignal;
  /** The window opened: every process is connected and measuring. */
  onWindowOpen?: () => void;
  /** Client counters summed over processes, once per progress message while the window is open, with that message. */
  onTick?: (counters: Record<string, number>, progress: { process: number; ticks: ProgressTick[] }) => void;
  /** Each /proc sample of a process while the window is open. */
  onResourceSample?: (role: 'server' | 'client', process: number, sample: ResourceSample) => void;
  /**
   * Set when this run is one shard of several: client processes are numbered over all shards
   * (ctx.share() then splits the work across machines), and the window opens through the gate.
   */
  shard?: { index: number; count: number; gate: CellGate };
  /** The run's TLS: what this cell's server and clients get (nothing for a plain cell). */
  tls?: RunTls;
}

/** What one round of a cell measured, before the scenario's metrics are computed from it. */
export interface CellRun {
  /** The first thing that went wrong; null when every process reported. */
  failure: string | null;
  /** Connections lost or that could not open while the round still ran to its end; null when none. */
  errors: string | null;
  /** Set when the server said it cannot run here (a --server-cmd that exited 77 before listening): the cell is n/a with this reason. */
  unavailable?: string;
  /** When the failure or the errors happened, and what they did to the connections; null when neither did. */
  fault: CellFault | null;
  /** Null when no client reported anything. */
  measured: {
    measurements: CellMeasurements;
    resources: CellResources;
    /** Null when the server did not report. */
    stackDrops: number | null;
    /** false: no report; true: wsbench's own server (every counter); 'listed': a foreign server's stats (only those listed). */
    serverReported: boolean | 'listed';
    notes: string[];
    /** Set when the server fell behind (see saturation.ts): the evidence. */
    saturation?: string;
    /** Each stage on its own, in a cell with stages (measure/stage-series.ts). */
    stages?: StageMeasured[];
  } | null;
  elapsedMs: number;
}

export async function runCell(plan: CellPlan, options: CellOptions): Promise<CellRun> {
  const started = Date.now();
  const children: ManagedChild[] = [];
  let server: CellServer | null = null;
  const state: {
    failure: string | null;
    /** When the failure happened (epoch ms), when known. */
    failedAtEpochMs: number | null;
    saturation?: string;
    serverReport: ProcessReport | null;
    stackDrops: number | null;
    serverReported: boolean | 'listed';
  } = {
    failure: null,
    failedAtEpochMs: null,
    serverReport: null,
    stackDrops: null,
    serverReported: false,
  };
  /** Client reports by process index: resources are joined per process. */
  const clientReports = new Map<number, ProcessReport>();
  let resources: WindowResources | null = null;
  /** Epoch ms of the go, so shards can find the window they all measured in. */
  let openedAtEpochMs: number | null = null;
  const gateNotes: string[] = [];
  const window = cellWindow(plan.loaded.scenario, plan.params);
  const timeSeries = new TimeSeriesCollector(progressIntervalMs(window.expectedMs));
  const declared = declaredStages(plan.loaded.scenario.parameters, plan.params);
  const stages = declared.length > 0 ? new StageCollector(declared) : null;
  /** performance.now() at the go: resource samples are placed in their stage by it. */
  let openedAtMs = 0;
  try {
    const tls = (await options.tls?.forCell(plan)) ?? {};
    const restart = restartingServer(
      plan.loaded.scenario,
      plan.params,
      (port) => serverOf(plan, options, tls, port),
      plan.foreign ? null : () => freePort(options.host),
    );
    server = restart ?? serverOf(plan, options, tls);
    // Waits before the window honour Ctrl+C at once; the reports after it are still collected.
    const ready = await server.start(options.signal);
    throwIfAborted(options.signal);

    const clients = startClients(plan, options, ready.url, ready.httpUrl, { timeSeries, stages }, tls);
    children.push(...clients);
    const readyMs = readyTimeoutMs(plan.loaded.scenario, plan.params);
    await Promise.all(
      clients.map((c) => c.waitFor('ready', readyMs, 'ready() call (connections open)', options.signal)),
    );
    throwIfAborted(options.signal);

    const serverPids = ready.read ?? (ready.pid === null ? [] : [ready.pid, ...(ready.siblingPids ?? [])]);
    const onSample: CellOptions['onResourceSample'] = stages
      ? (role, process, sample) => {
          stages.sample(role, process, sample, performance.now() - openedAtMs);
          options.onResourceSample?.(role, process, sample);
        }
      : options.onResourceSample;
    resources = new WindowResources(
      serverPids,
      clients.map((c) => c.process.pid ?? -1),
      ready.tree,
      onSample,
      clientSampledAsTree(plan.client),
    );
    const sampling = resources;
    clients.forEach((client, index) => {
      client.onWindowClosed = () => sampling.clientClosed(index);
    });
    await server.windowOpen(options.signal);
    throwIfAborted(options.signal);
    if (options.shard) gateNotes.push(...(await options.shard.gate.arrive(options.signal)));
    openedAtEpochMs = Date.now();
    openedAtMs = performance.now();
    for (const client of clients) client.send({ type: 'go' });
    resources.start();
    restart?.arm(clients, resources, options.signal);
    options.onWindowOpen?.();
    const reports = clients.map((c) => c.waitFor('report', window.limitMs + CLIENT_WRAP_UP_TIMEOUT_MS, 'report'));
    const watch = watchWindow(server, clients, plan.loaded.scenario);
    await waitForWindow(window.limitMs, options.signal, reports);
    watch.stop();
    restart?.windowClosed();
    for (const client of clients) client.send({ type: 'stop' });

    for (const [index, outcome] of (await Promise.allSettled(reports)).entries()) {
      if (outcome.status === 'fulfilled') clientReports.set(index, outcome.value.report);
      else {
        fail(state, outcome.reason);
        const partial = (outcome.reason as ChildFailure).report;
        if (partial) clientReports.set(index, partial);
      }
    }
    resources.stopClients();
    state.failure ??= (await restart?.settle()) ?? null;
    const serverCost = resources.stopServer();
    const serverReport = await server.report().catch((error: unknown) => {
      const silence = silenceOf(serverCost, reasonOf(error), timeSeries.build(), serverProcessCount(plan.params));
      if (silence && 'saturated' in silence) state.saturation = silence.saturated;
      else if (silence) state.failure ??= silence.hung;
      else fail(state, error);
      return null;
    });
    state.serverReport = serverReport?.report ?? null;
    state.stackDrops = serverReport?.stackDrops ?? null;
    state.serverReported = serverReport?.complete ?? false;
  } catch (error) {
    if (error instanceof ServerUnavailable && !options.signal.aborted) {
      // Nothing was measured; `finally` stops what it had started.
      options.shard?.gate.withdraw(error.message);
      return {
        failure: null,
        errors: null,
        fault: null,
        measured: null,
        unavailable: error.message,
        elapsedMs: Date.now() - started,
      };
    }
    if (options.signal.aborted) state.failure = 'interrupted';
    else fail(state, error);
    // The other shards need not wait for a window this shard will never open.
    if (openedAtEpochMs === null) options.shard?.gate.withdraw(state.failure ?? 'failed');
  } finally {
    await Promise.allSettled([...(server ? [server.stop()] : []), ...children.map((c) => c.stop())]);
  }
  if (options.signal.aborted) state.failure = 'interrupted';

  const elapsedMs = Date.now() - started;
  const reports = [...clientReports.values()];
  const failedAtMs =
    state.failedAtEpochMs !== null && openedAtEpochMs !== null ? state.failedAtEpochMs - openedAtEpochMs : null;
  if (reports.length === 0 || !resources) {
    const failure = state.failure ?? 'no client reported';
    return {
      failure,
      errors: null,
      fault: failedAtMs === null ? null : { atMs: failedAtMs, connections: { opened: 0, failed: 0, lost: 0 } },
      measured: null,
      elapsedMs,
    };
  }
  const measurements = assembleMeasurements(
    reports,
    state.serverReport ? [state.serverReport] : [],
    sideBySide,
    timeSeries.build(),
  );
  if (openedAtEpochMs !== null) measurements.windowOpenedAtEpochMs = openedAtEpochMs;
  const connections = sumLedgers(reports.flatMap((r) => (r.connections ? [r.connections] : [])));
  // A scenario that measures failed and lost connections itself (churn, a restart) is not judged by the ledger:
  // its own metrics of role errors say which of them are faults (cell-verdict.ts).
  const judged = plan.loaded.scenario.connectionFaults === 'measured' ? sumLedgers([]) : connections;
  const measured: NonNullable<CellRun['measured']> = {
    measurements,
    resources: resources.build(state.serverReport, clientReports),
    stackDrops: state.stackDrops,
    serverReported: state.serverReport === null ? false : state.serverReported,
    notes: [...new Set([...reports.flatMap((r) => r.notes), ...(server?.notes() ?? []), ...gateNotes])],
    ...(state.saturation ? { saturation: state.saturation } : {}),
    ...(stages ? { stages: stages.build() } : {}),
  };
  const { metrics } = computeMetrics(plan.loaded.scenario, {
    ...measured,
    clientProcesses: options.clientProcesses,
    params: plan.params,
  });
  const verdict = judgeRound(
    state.failure,
    failedAtMs,
    judged,
    countedErrors(plan.loaded.scenario.metrics as Record<string, MetricDefinition>, metrics),
  );
  return { ...verdict, measured, elapsedMs };
}

/** Keeps the first failure of a round, and when it happened if the error says (a child's exit, a server's death). */
function fail(state: { failure: string | null; failedAtEpochMs: number | null }, error: unknown): void {
  if (state.failure !== null) return;
  state.failure = reasonOf(error);
  state.failedAtEpochMs = error instanceof ChildFailure ? error.atEpochMs : null;
}

/**
 * A round's status from what failed, what its connections went through and what it counted
 * (cell-verdict.ts): a failure keeps its own reason (with when it happened, if known); every
 * connection lost fails the round; some lost or that could not open, or any metric of role
 * errors above zero, give it errors.
 */
function judgeRound(
  failure: string | null,
  failedAtMs: number | null,
  connections: ConnectionLedger,
  counted: CountedError[],
): Pick<CellRun, 'failure' | 'errors' | 'fault'> {
  const verdict = connectionVerdict(connections);
  const counts = { opened: connections.opened, failed: connections.failed, lost: connections.lost };
  if (failure !== null) {
    const atMs = failedAtMs ?? verdict?.fault.atMs ?? null;
    const trafficMs = verdict?.fault.trafficMs;
    const fault: CellFault = { atMs, connections: counts, ...(trafficMs !== undefined ? { trafficMs } : {}) };
    if (failure === 'interrupted') return { failure, errors: null, fault: verdict?.fault ?? null };
    // When it happened: the failure's own time, else what the connections went through.
    if (failedAtMs === null && verdict)
      return { failure: `${failure}; ${verdict.failure ?? verdict.errors}`, errors: null, fault };
    const when = failedAtMs !== null ? ` (${whenText(failedAtMs)})` : '';
    const rates =
      trafficMs !== undefined && trafficMs > 0
        ? `; rates are over the ${(trafficMs / 1000).toFixed(2)} s the traffic ran`
        : '';
    return { failure: `${failure}${when}${rates}`, errors: null, fault };
  }
  const countedText = countedErrorsText(counted);
  if (!verdict) return { failure: null, errors: countedText, fault: null };
  if (verdict.errors !== null && countedText !== null)
    return { ...verdict, errors: `${verdict.errors}; ${countedText}` };
  return verdict;
}

/** wsbench's own server child running the stack's adapter, or the foreign server the plan names; on `port` when given (a restart). */
function serverOf(plan: CellPlan, options: CellOptions, tls: CellTls, port?: number): CellServer {
  const scenario = { url: plan.loaded.url, name: plan.loaded.scenario.name };
  if (plan.foreign)
    return foreignServer(port === undefined ? plan.foreign : onPort(plan.foreign, port), {
      host: options.host,
      scenario: scenario.name,
      params: plan.params,
      tls,
      serverMetrics: declaresServerMetrics(plan.loaded.scenario),
      subprotocols: plan.loaded.scenario.subprotocols?.(plan.params) ?? [],
    });
  const count = serverProcessCount(plan.params);
  const children = Array.from(
    { length: count },
    (_, i) =>
      new ManagedChild(
        count > 1 ? `server ${i + 1}` : 'server',
        'server',
        SERVER_ENTRY,
        stackRuntime('server', plan.server),
      ),
  );
  return new ChildServer(
    children,
    {
      type: 'start',
      adapter: plan.server,
      scenario,
      params: plan.params,
      host: options.host,
      ...(tls.server ? { tls: tls.server } : {}),
    },
    port,
  );
}

function startClients(
  plan: CellPlan,
  options: CellOptions,
  url: string,
  httpUrl: string,
  { timeSeries, stages }: { timeSeries: TimeSeriesCollector; stages: StageCollector | null },
  tls: CellTls,
): ManagedChild[] {
  const latest: Record<string, number>[] = [];
  // Shard i's processes come after those of shards 0 .. i-1: every shard takes its own part of every share.
  const firstIndex = (options.shard?.index ?? 0) * options.clientProcesses;
  const processCount = (options.shard?.count ?? 1) * options.clientProcesses;
  return Array.from({ length: options.clientProcesses }, (_, index) => {
    const child = new ManagedChild(
      options.clientProcesses > 1 ? `client ${index + 1}` : 'client',
      'client',
      CLIENT_ENTRY,
      stackRuntime('client', plan.client),
    );
    child.onProgress = (message) => {
      for (const tick of message.ticks) {
        timeSeries.add(index, tick);
        stages?.add(index, tick);
        latest[index] = tick.counters;
      }
      options.onTick?.(sumCounterSets(latest.filter(Boolean)), { process: index, ticks: message.ticks });
    };
    child.send({
      type: 'start',
      adapter: plan.client,
      scenario: { url: plan.loaded.url, name: plan.loaded.scenario.name },
      params: plan.params,
      url,
      httpUrl,
      processIndex: firstIndex + index,
      processCount,
      progressIntervalMs: timeSeries.intervalMs,
      ...(stages ? { stageEndsMs: stages.endsMs } : {}),
      ...(tls.client ? { tls: tls.client } : {}),
    });
    return child;
  });
}

/** The window closes at its length, when every client has finished, or on interrupt. */
function waitForWindow(limitMs: number, signal: AbortSignal, reports: Promise<unknown>[]): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, limitMs);
    signal.addEventListener('abort', done, { once: true });
    void Promise.allSettled(reports).then(done);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ChildFailure('interrupted');
}

/** A failure as the result records it: its first line, any URL in it without secrets. */
function reasonOf(error: unknown): string {
  return redactUrlsIn((error instanceof Error ? error.message : String(error)).split('\n')[0]!);
}

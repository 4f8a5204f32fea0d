/**
 * Runs one cell: a server child, N client children, a measurement window that
 * opens for all of them at once, then reports merged into one CellResult.
 */
import { fileURLToPath } from 'node:url';
import type { ParamValues } from '../types.js';
import type { CellMeasurements, CellResult, EncodedHistogram, ProcessReport } from '../result-types.js';
import { ChildFailure, ManagedChild } from './processes.js';
import { mergeHistogramSets, summarizeEncoded, summarizeSizes, sumCounterSets } from './metrics.js';
import type { LoadedScenario } from './scenario-loader.js';
import { TimeSeriesCollector } from './time-series.js';
import { PROGRESS_INTERVAL_MS } from './ipc.js';

const SERVER_ENTRY = fileURLToPath(new URL('./server-process.js', import.meta.url));
const CLIENT_ENTRY = fileURLToPath(new URL('./client-process.js', import.meta.url));
const SERVER_START_TIMEOUT_MS = 15_000;
const CLIENTS_READY_TIMEOUT_MS = 120_000;
const CLIENT_WRAP_UP_TIMEOUT_MS = 15_000;
const SERVER_REPORT_TIMEOUT_MS = 5_000;
/** Scenarios that end by themselves still get a ceiling. */
const OPEN_ENDED_WINDOW_MS = 30 * 60_000;

export interface CellPlan {
  loaded: LoadedScenario;
  server: string;
  client: string;
  params: ParamValues;
}

export interface CellOptions {
  host: string;
  clientProcesses: number;
  signal: AbortSignal;
  /** Client counters summed over processes, about once a second. */
  onProgress?: (counters: Record<string, number>) => void;
}

export async function runCell(plan: CellPlan, options: CellOptions): Promise<CellResult> {
  const started = Date.now();
  const base = { scenario: plan.loaded.scenario.name, server: plan.server, client: plan.client, params: plan.params };
  const children: ManagedChild[] = [];
  const state: { failure: string | null; serverReport: ProcessReport | null; stackDrops: number } = {
    failure: null,
    serverReport: null,
    stackDrops: 0,
  };
  const clientReports: ProcessReport[] = [];
  const timeSeries = new TimeSeriesCollector(PROGRESS_INTERVAL_MS);
  try {
    const server = new ManagedChild('server', SERVER_ENTRY);
    children.push(server);
    server.send({ type: 'start', adapter: plan.server, scenarioUrl: plan.loaded.url, params: plan.params, host: options.host });
    // Waits before the window honour Ctrl+C at once; the reports after it are still collected.
    const ready = await server.waitFor('ready', SERVER_START_TIMEOUT_MS, 'ready signal', options.signal);
    throwIfAborted(options.signal);

    const clients = startClients(plan, options, ready.url!, ready.httpUrl!, timeSeries);
    children.push(...clients);
    await Promise.all(clients.map((c) => c.waitFor('ready', CLIENTS_READY_TIMEOUT_MS, 'ready signal (connections open)', options.signal)));
    throwIfAborted(options.signal);

    server.send({ type: 'go' });
    for (const client of clients) client.send({ type: 'go' });
    const reports = clients.map((c) => c.waitFor('report', windowLimitMs(plan) + CLIENT_WRAP_UP_TIMEOUT_MS, 'report'));
    await waitForWindow(plan, options.signal, reports);
    for (const client of clients) client.send({ type: 'stop' });

    for (const outcome of await Promise.allSettled(reports)) {
      if (outcome.status === 'fulfilled') clientReports.push(outcome.value.report);
      else {
        state.failure ??= reasonOf(outcome.reason);
        const partial = (outcome.reason as ChildFailure).report;
        if (partial) clientReports.push(partial);
      }
    }
    server.send({ type: 'stop' });
    const serverReport = await server.waitFor('report', SERVER_REPORT_TIMEOUT_MS, 'report').catch((error: unknown) => {
      state.failure ??= reasonOf(error);
      return null;
    });
    state.serverReport = serverReport?.report ?? null;
    state.stackDrops = serverReport?.stackDrops ?? 0;
  } catch (error) {
    state.failure = options.signal.aborted ? 'interrupted' : reasonOf(error);
  } finally {
    await Promise.allSettled(children.map((c) => c.stop()));
  }
  if (options.signal.aborted) state.failure = 'interrupted';

  const elapsedMs = Date.now() - started;
  if (clientReports.length === 0) return { ...base, status: 'failed', reason: state.failure ?? 'no client reported', elapsedMs };
  const measurements = mergeReports(clientReports, state.serverReport);
  const series = timeSeries.build();
  if (series) measurements.timeSeries = series;
  let metrics: Record<string, number | null> | undefined;
  try {
    metrics = plan.loaded.scenario.summarize(measurements, plan.params, {
      resources: { server: state.serverReport?.resources ?? null, clients: clientReports.map((r) => r.resources) },
      serverStackDrops: state.stackDrops,
      clientProcesses: options.clientProcesses,
    });
  } catch (error) {
    state.failure ??= `summarize failed: ${reasonOf(error)}`;
  }
  const notes = [...new Set(clientReports.flatMap((r) => r.notes))];
  return {
    ...base,
    status: state.failure ? 'failed' : 'ok',
    ...(state.failure ? { reason: state.failure } : {}),
    ...(metrics ? { metrics } : {}),
    measurements,
    resources: { server: state.serverReport?.resources ?? null, clients: clientReports.map((r) => r.resources) },
    serverStackDrops: state.stackDrops,
    ...(notes.length ? { notes } : {}),
    elapsedMs,
  };
}

function startClients(plan: CellPlan, options: CellOptions, url: string, httpUrl: string, timeSeries: TimeSeriesCollector): ManagedChild[] {
  const latest: Record<string, number>[] = [];
  return Array.from({ length: options.clientProcesses }, (_, index) => {
    const child = new ManagedChild(options.clientProcesses > 1 ? `client ${index + 1}` : 'client', CLIENT_ENTRY);
    child.onProgress = (message) => {
      timeSeries.add(index, message);
      latest[index] = message.counters;
      options.onProgress?.(sumCounterSets(latest.filter(Boolean)));
    };
    child.send({
      type: 'start',
      adapter: plan.client,
      scenarioUrl: plan.loaded.url,
      params: plan.params,
      url,
      httpUrl,
      processIndex: index,
      processCount: options.clientProcesses,
    });
    return child;
  });
}

function windowLimitMs(plan: CellPlan): number {
  return plan.loaded.scenario.windowMs?.(plan.params) ?? OPEN_ENDED_WINDOW_MS;
}

/** The window closes at its length, when every client has finished, or on interrupt. */
function waitForWindow(plan: CellPlan, signal: AbortSignal, reports: Promise<unknown>[]): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, windowLimitMs(plan));
    signal.addEventListener('abort', done, { once: true });
    void Promise.allSettled(reports).then(done);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

function mergeReports(clients: ProcessReport[], server: ProcessReport | null): CellMeasurements {
  const histograms = mergeHistogramSets(clients.map((r) => r.histograms));
  const serverHistograms = server?.histograms ?? {};
  const sizes = Object.fromEntries(Object.entries(histograms).filter(([, h]) => h.unit === 'bytes'));
  return {
    histograms,
    latency: mapValues(latencyOnly(histograms), summarizeEncoded),
    sizes: mapValues(sizes, summarizeSizes),
    counters: sumCounterSets(clients.map((r) => r.counters)),
    serverHistograms,
    serverLatency: mapValues(latencyOnly(serverHistograms), summarizeEncoded),
    serverCounters: server?.counters ?? {},
    windowMs: Math.max(0, ...clients.map((r) => r.windowMs)),
  };
}

function latencyOnly(set: Record<string, EncodedHistogram>): Record<string, EncodedHistogram> {
  return Object.fromEntries(Object.entries(set).filter(([, h]) => h.unit !== 'bytes'));
}

function mapValues<A, B>(record: Record<string, A>, fn: (value: A) => B): Record<string, B> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new ChildFailure('interrupted');
}

function reasonOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}

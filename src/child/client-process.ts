/**
 * Entry of a load-generating child: loads one client adapter and runs the
 * scenario's client half. Everything is recorded locally; the parent hears each
 * progress interval's counters and latency about once a second, and the encoded
 * histograms once, at the end.
 */
import { createHttpClient } from './clients/http.js';
import { loadClientAdapter } from './stacks.js';
import { isHostedClient } from '../shared/types/hosted-client-types.js';
import type { ClientScenarioContext, ServerRestartTimes } from '../shared/types/scenario-types.js';
import type { ProcessReport } from '../shared/types/result-types.js';
import { monotonicUs } from '../shared/measure/clock.js';
import { exitWithParent, sendToParent, type ClientStartMessage, type ToChild } from './ipc.js';
import type { ProgressTick } from '../shared/measure/time-series.js';
import { MetricsRegistry } from '../shared/measure/metrics.js';
import { EventLoopSampler, type LoopStats } from './resources.js';
import { firstOfShare, shareOf } from '../shared/share.js';
import { importScenario } from './scenario-loader.js';
import { handshakeLog } from './handshakes.js';
import { ConnectionBook } from './connection-ledger.js';
import { countedConnect, DEFAULT_CONNECT_TIMEOUT_MS } from './counted-connect.js';
import { watchParent } from './parent-watchdog.js';

// A crash still hands over the ticks not sent yet, before its partial report.
exitWithParent(() => {
  void sendTicks();
  return report();
});

const MAX_NOTES = 20;
/** Progress ticks wait for one message about this often (see ProgressMessage). */
const PROGRESS_SEND_MS = 1000;
const metrics = new MetricsRegistry();
const sampler = new EventLoopSampler();
const windowControl = new AbortController();
const book = new ConnectionBook(monotonicUs);
const notes: string[] = [];
let openWindow: () => void = () => undefined;
const windowOpened = new Promise<void>((resolve) => (openWindow = resolve));
let restartKnown: (times: ServerRestartTimes | null) => void = () => undefined;
const restartTimes = new Promise<ServerRestartTimes | null>((resolve) => (restartKnown = resolve));
/** When wsbench killed the server, once it has: a window that closes before it serves again still knows. */
let killedAtUs: number | null = null;
let windowStartUs = 0;
let windowEndUs = 0;
/** Set when the window closes; undefined while it is open. */
let eventLoop: LoopStats | undefined;
/** What a stack running the client half elsewhere measured of the loop that runs it (a page's), in place of this process's. */
let hostedLoop: LoopStats | null = null;
let ticker: NodeJS.Timeout | null = null;
/** Progress interval the orchestrator asked for, the last tick taken, and those not sent yet. */
let progressIntervalMs = 1000;
let tick = 0;
const unsent: ProgressTick[] = [];
/** The cell's stages, where they end (ms into the window), the one running, and the timers that cut at their ends. */
let stageEndsMs: number[] = [];
let stage = 0;
const stageCuts: NodeJS.Timeout[] = [];

process.on('message', (message: ToChild) => {
  if (message.type === 'start') {
    progressIntervalMs = (message as ClientStartMessage).progressIntervalMs ?? progressIntervalMs;
    stageEndsMs = (message as ClientStartMessage).stageEndsMs ?? [];
    void run(message as ClientStartMessage);
  } else if (message.type === 'go') {
    windowStartUs = monotonicUs();
    sampler.start();
    startTicks();
    openWindow();
  } else if (message.type === 'stop') closeWindow();
  else if (message.type === 'server-killed') killedAtUs = message.stoppedAtUs;
  else if (message.type === 'server-restart') restartKnown(message.times);
});

/** Once per interval while the window is open: counters so far and that interval's histograms, sent about once a second. */
function startTicks(): void {
  const ticksPerMessage = Math.max(1, Math.round(PROGRESS_SEND_MS / progressIntervalMs));
  ticker = setInterval(() => {
    takeTick((monotonicUs() - windowStartUs) / 1000);
    if (unsent.length >= ticksPerMessage) void sendTicks();
  }, progressIntervalMs);
  ticker.unref();
  // Each stage's end but the last (the window's end) cuts the interval there, so every interval is of one stage.
  for (const [index, endMs] of stageEndsMs.slice(0, -1).entries()) {
    const cut = setTimeout(() => {
      takeTick((monotonicUs() - windowStartUs) / 1000, true);
      stage = index + 1;
    }, endMs);
    cut.unref();
    stageCuts.push(cut);
  }
}

/**
 * Reads the counters and takes the interval's histograms. A stage's end cuts the interval short: that cut
 * carries the number of the interval it cuts, whose rest comes with the regular tick (the series adds both).
 */
function takeTick(tMs: number, stageCut = false): void {
  if (!stageCut) tick += 1;
  unsent.push({
    tick: stageCut ? tick + 1 : tick,
    tMs,
    counters: metrics.counterValues(),
    intervals: metrics.takeIntervals(),
    ...(stageEndsMs.length > 0 ? { stage } : {}),
  });
}

function sendTicks(): Promise<void> {
  if (unsent.length === 0) return Promise.resolve();
  return sendToParent({ type: 'progress', ticks: unsent.splice(0) });
}

/**
 * The last interval, up to the window's end, sent with those still waiting right
 * before the report: the time series then reaches the end of the window and its
 * counters are the report's.
 */
function sendLastTick(): Promise<void> {
  if (windowStartUs === 0) return Promise.resolve();
  takeTick(((windowEndUs || monotonicUs()) - windowStartUs) / 1000);
  return sendTicks();
}

/** Ends this process's window: timing, resource sampling, ticks and the scenario's signal stop together. */
function closeWindow(): void {
  if (windowControl.signal.aborted) return;
  windowEndUs = monotonicUs();
  eventLoop = sampler.stop();
  if (ticker) clearInterval(ticker);
  for (const cut of stageCuts) clearTimeout(cut);
  void sendToParent({ type: 'window-closed' });
  // A restart not announced by now will not be measured in this window; a kill that came is still known.
  restartKnown(killedAtUs === null ? null : { stoppedAtUs: killedAtUs, servingAtUs: null });
  windowControl.abort();
}

let saidAllLost = false;
/** Tells the parent when this process's connections are all lost, and when one opens again after that (window-watch.ts). */
function tellConnections(): void {
  const allLost = book.allLostAtUs() !== null;
  if (allLost === saidAllLost) return;
  saidAllLost = allLost;
  void sendToParent({ type: 'connections', allLost });
}

function note(text: string): void {
  // A note repeated (every dropped connection says the same) must not crowd out the others.
  if (notes.length < MAX_NOTES && !notes.includes(text)) notes.push(text);
}

async function run(message: ClientStartMessage): Promise<void> {
  const http = createHttpClient(message.httpUrl, 1, message.tls);
  const extraHttp: Array<ReturnType<typeof createHttpClient>> = [];
  const lost = metrics.counter('connectionsLost');
  const deflateAsked = message.params.deflate === 'on';
  const sourceAddressesReach = reachedFrom127(message.url);
  const handshakes = handshakeLog((name) => metrics.counter(name), note, deflateAsked);
  try {
    const adapter = await loadClientAdapter(message.adapter);
    const scenario = await importScenario(message.scenario.url, message.scenario.name);
    const ctx: ClientScenarioContext = {
      params: message.params,
      processIndex: message.processIndex,
      processCount: message.processCount,
      share: (total) => shareOf(total, message.processIndex, message.processCount),
      firstOfShare: (total) => firstOfShare(total, message.processIndex, message.processCount),
      nowUs: monotonicUs,
      histogram: (name) => metrics.histogram(name),
      sizeHistogram: (name) => metrics.sizeHistogram(name),
      counter: (name) => metrics.counter(name),
      connect: async ({ timeoutMs, ...options }) => {
        // Toward another machine they never could (sharding's servers are elsewhere); ::1 is this machine's, and worth saying.
        if (options.localAddress && new URL(message.url).hostname === '[::1]')
          note('connections from one source address: 127.x source addresses cannot reach ::1');
        // A tap the stack cannot give is refused before any connection is tried: no connection fault.
        if (options.onWireData && !adapter.capabilities.wireTap)
          return adapter.connect(message.url, { ...options, onUnexpectedClose: () => undefined });
        const connection = await countedConnect(book, timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, (counted) =>
          adapter.connect(message.url, {
            ...options,
            // 127.x source addresses spread load over loopback ports; toward another host, or ::1, they cannot route.
            ...(options.localAddress && !sourceAddressesReach ? { localAddress: undefined } : {}),
            deflate: deflateAsked,
            ...(message.tls ? { tls: message.tls } : {}),
            onUnexpectedClose(reason) {
              counted(reason);
              tellConnections();
              lost.add();
              note(reason);
              options.onUnexpectedClose?.(reason);
            },
          }),
        );
        tellConnections();
        handshakes.record(connection);
        return connection;
      },
      httpUrl: message.httpUrl,
      http,
      newHttpClient() {
        const client = createHttpClient(message.httpUrl, 1, message.tls);
        extraHttp.push(client);
        return client;
      },
      async ready() {
        await sendToParent({ type: 'ready' });
        await windowOpened;
      },
      signal: windowControl.signal,
      done: closeWindow,
      note,
      serverRestart: () => (scenario.serverRestart ? restartTimes : Promise.resolve(null)),
    };
    // A stack whose client half runs elsewhere (a browser) gets this ctx as its bridge.
    if (isHostedClient(adapter)) {
      hostedLoop = await adapter.runClientHalf({
        ctx,
        scenario: message.scenario,
        url: message.url,
        watchProcessGroup: (pgid) => watchParent(pgid, process.pid, 'group'),
      });
    } else await scenario.client(ctx);
    closeWindow();
    await sendLastTick();
    await sendToParent({ type: 'report', report: report() });
  } catch (error) {
    closeWindow();
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
    await sendLastTick();
    await sendToParent({ type: 'failed', reason, report: report() });
  } finally {
    await Promise.allSettled([http, ...extraHttp].map((client) => client.close()));
    // Open sockets of a finished scenario must not keep the process alive.
    process.exit(0);
  }
}

function report(): ProcessReport {
  if (eventLoop === undefined) eventLoop = sampler.stop();
  const endUs = windowEndUs || monotonicUs();
  // Once every connection was lost no traffic ran: rates are over the time before that.
  const lostAllUs = book.allLostAtUs();
  const trafficEndUs = lostAllUs !== null && lostAllUs < endUs ? Math.max(windowStartUs, lostAllUs) : endUs;
  return {
    histograms: metrics.encodeAll(),
    counters: metrics.counterValues(),
    eventLoopUtilization: (hostedLoop ?? eventLoop).utilization,
    timerLatenessMs: (hostedLoop ?? eventLoop).timerLatenessMs,
    windowMs: windowStartUs === 0 ? 0 : (trafficEndUs - windowStartUs) / 1000,
    connections: book.ledger(windowStartUs),
    notes,
  };
}

/** True when the server is on this machine's IPv4 loopback, where any 127.x source address can reach it (::1 is not). */
function reachedFrom127(url: string): boolean {
  const host = new URL(url).hostname;
  return host === 'localhost' || /^127\./.test(host);
}

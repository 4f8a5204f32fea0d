/**
 * Entry of a load-generating child: loads one client adapter and runs the
 * scenario's client half. Everything is recorded locally; the parent hears
 * counters once per progress interval and the encoded histograms once, at the end.
 */
import { createHttpClient } from '../clients/http.js';
import { loadClientAdapter } from '../stacks.js';
import type { ClientScenarioContext } from '../scenario-types.js';
import type { ProcessReport } from '../result-types.js';
import { monotonicUs } from './clock.js';
import { exitWithParent, sendToParent, type ClientStartMessage, type ToChild } from './ipc.js';
import { MetricsRegistry } from './metrics.js';
import { EventLoopSampler } from './resources.js';
import { firstOfShare, shareOf } from './share.js';
import { importScenario } from './scenario-loader.js';
import { handshakeLog } from './handshakes.js';

exitWithParent(() => report());

const MAX_NOTES = 20;
const metrics = new MetricsRegistry();
const sampler = new EventLoopSampler();
const windowControl = new AbortController();
const notes: string[] = [];
let openWindow: () => void = () => undefined;
const windowOpened = new Promise<void>((resolve) => (openWindow = resolve));
let windowStartUs = 0;
let windowEndUs = 0;
/** Set when the window closes; undefined while it is open. */
let eventLoop: ProcessReport['eventLoopUtilization'] | undefined;
let ticker: NodeJS.Timeout | null = null;
/** Progress interval the orchestrator asked for, and the last tick sent. */
let progressIntervalMs = 1000;
let tick = 0;

process.on('message', (message: ToChild) => {
  if (message.type === 'start') {
    progressIntervalMs = (message as ClientStartMessage).progressIntervalMs ?? progressIntervalMs;
    void run(message as ClientStartMessage);
  } else if (message.type === 'go') {
    windowStartUs = monotonicUs();
    sampler.start();
    startTicks();
    openWindow();
  } else if (message.type === 'stop') closeWindow();
});

/** Once per interval while the window is open: counters so far and that interval's histograms. */
function startTicks(): void {
  ticker = setInterval(() => {
    tick += 1;
    const tMs = (monotonicUs() - windowStartUs) / 1000;
    void sendToParent({ type: 'progress', tick, tMs, counters: metrics.counterValues(), intervals: metrics.takeIntervals() });
  }, progressIntervalMs);
  ticker.unref();
}

/**
 * The last interval, up to the window's end, sent right before the report: the
 * time series then reaches the end of the window and its counters are the report's.
 */
function sendLastTick(): Promise<void> {
  if (windowStartUs === 0) return Promise.resolve();
  tick += 1;
  const tMs = ((windowEndUs || monotonicUs()) - windowStartUs) / 1000;
  return sendToParent({ type: 'progress', tick, tMs, counters: metrics.counterValues(), intervals: metrics.takeIntervals() });
}

/** Ends this process's window: timing, resource sampling, ticks and the scenario's signal stop together. */
function closeWindow(): void {
  if (windowControl.signal.aborted) return;
  windowEndUs = monotonicUs();
  eventLoop = sampler.stop();
  if (ticker) clearInterval(ticker);
  void sendToParent({ type: 'window-closed' });
  windowControl.abort();
}

function note(text: string): void {
  if (notes.length < MAX_NOTES) notes.push(text);
}

async function run(message: ClientStartMessage): Promise<void> {
  const http = createHttpClient(message.httpUrl);
  const extraHttp: Array<ReturnType<typeof createHttpClient>> = [];
  const lost = metrics.counter('connectionsLost');
  const deflateAsked = message.params.deflate === 'on';
  const loopbackServer = isLoopback(message.url);
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
      connect: async (options) => {
        const connection = await adapter.connect(message.url, {
          ...options,
          // 127.x source addresses spread load over loopback ports; toward another host they cannot route.
          ...(options.localAddress && !loopbackServer ? { localAddress: undefined } : {}),
          deflate: deflateAsked,
          onUnexpectedClose(reason) {
            lost.add();
            note(reason);
            options.onUnexpectedClose(reason);
          },
        });
        handshakes.record(connection.extensions());
        return connection;
      },
      httpUrl: message.httpUrl,
      http,
      newHttpClient() {
        const client = createHttpClient(message.httpUrl);
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
    };
    await scenario.client(ctx);
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
  return {
    histograms: metrics.encodeAll(),
    counters: metrics.counterValues(),
    eventLoopUtilization: eventLoop === undefined ? sampler.stop() : eventLoop,
    windowMs: windowStartUs === 0 ? 0 : ((windowEndUs || monotonicUs()) - windowStartUs) / 1000,
    notes,
  };
}

/** True when the server is on this machine's loopback, where any 127.x source address can reach it. */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/**
 * A client process of the browser client: it serves its pages (page-server.ts),
 * starts one headless Chromium per page, sets each page's clock on
 * CLOCK_MONOTONIC, runs the scenario's client half on every page, and keeps
 * the books through its own ctx (page-bridge.ts). Each page takes one share of
 * the cell's work, as a client process does elsewhere: a process of P pages is
 * P processes to the scenario.
 */
import { fileURLToPath } from 'node:url';
import type { ClientHalfHost, HostedLoop } from '../../../shared/types/hosted-client-types.js';
import type { ParamValues } from '../../../shared/types/declaration-types.js';
import { locateChromium } from './chromium-binary.js';
import { RunningBrowser } from './browser-process.js';
import { startPageServer } from './page-server.js';
import { PageBridge } from './page-bridge.js';
import { windowUncertaintyUs, type ClockOffset } from './clock-offset.js';
import { PAGE_CONNECTION_LIMIT, type PageConnector } from '../../../shared/browser-bridge.js';
import { RendererLoad } from './renderer-load.js';
import { groupMemory } from './process-group.js';

/** A page (and its browser) that has not said hello by then is not coming. */
const PAGE_START_TIMEOUT_MS = 30_000;
/**
 * After the window closed, pages get this long to finish (a drain, closing connections) before the process
 * gives up on them: less than the orchestrator waits for the report (15 s), so the reason is this one.
 */
const PAGE_FINISH_TIMEOUT_MS = 10_000;
/** A page's control socket closed: this long for the reason (a crash) before the close itself is the reason. */
const GONE_GRACE_MS = 250;
/** The histogram (µs) that records each page's clock uncertainty: one sample per page per window. */
const CLOCK_UNCERTAINTY_HISTOGRAM = 'browserClockUncertainty';

/**
 * Pages per client process: enough for this process's connections at PAGE_CONNECTION_LIMIT a page
 * (and a browser), the same number in every process so that shares line up. The scenario's
 * `connections` parameter says how many, or chat's `members`; without either, one page.
 */
function pagesPerProcess(params: ParamValues, processCount: number): number {
  const total = [params.connections, params.members].find((value): value is number => typeof value === 'number') ?? 1;
  return Math.max(1, Math.ceil(Math.ceil(total / processCount) / PAGE_CONNECTION_LIMIT));
}

export async function runInBrowsers(host: ClientHalfHost, connector: PageConnector): Promise<HostedLoop> {
  // The orchestrator probed its version; this process only needs the binary.
  const chromium = locateChromium();
  if ('reason' in chromium) throw new Error(chromium.reason);
  const { ctx } = host;
  const pages = pagesPerProcess(ctx.params, ctx.processCount);
  let fail: (reason: string) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => (fail = (reason) => reject(new Error(reason))));
  failure.catch(() => undefined);
  const bridges: Array<PageBridge | undefined> = [];
  const arrived: Array<(bridge: PageBridge) => void> = [];
  const arrivals = Array.from(
    { length: pages },
    (_, i) => new Promise<PageBridge>((resolve) => (arrived[i] = resolve)),
  );

  const server = await startPageServer({
    scenarioFile: fileURLToPath(host.scenario.url),
    onControl(page, socket) {
      if (page < 0 || page >= pages || bridges[page]) return void socket.terminate();
      // A page that crashed closes its control socket too: the crash event, a moment later, says more.
      const bridge = new PageBridge(page, socket, ctx, (reason) =>
        setTimeout(() => fail(reason), GONE_GRACE_MS).unref(),
      );
      bridges[page] = bridge;
      arrived[page]!(bridge);
    },
  });
  const browsers: RunningBrowser[] = [];
  try {
    await within(
      PAGE_START_TIMEOUT_MS,
      'a browser page to load',
      failure,
      Promise.all(
        Array.from({ length: pages }, async (_, i) => {
          const browser = await RunningBrowser.start({
            binary: chromium.path,
            hosts: [server.host, new URL(host.url).hostname],
            watchProcessGroup: host.watchProcessGroup,
            onFailure: fail,
          });
          browsers.push(browser);
          await browser.openPage(server.pageUrl(i));
          const bridge = await arrivals[i]!;
          await bridge.greeted;
        }),
      ),
    );
    const live = bridges as PageBridge[];
    const startClocks: ClockOffset[] = [];
    for (const bridge of live) startClocks.push(await Promise.race([bridge.measureClock(), failure]));
    describe(host, live, browsers);

    let ready = 0;
    let finished = 0;
    let done = 0;
    let allFinished: () => void = () => undefined;
    const over = new Promise<void>((resolve) => (allFinished = resolve));
    const lateness: Array<{ mean: number; max: number }> = [];
    const renderers = new RendererLoad(browsers.map((browser) => browser.pid));
    let busy: HostedLoop['utilization'] = null;
    let started = false;
    let ended = false;
    // The window closes for the process when every page's has, or when the engine closes it.
    const windowEnd = (): void => {
      if (ended || !started) return;
      ended = true;
      busy = renderers.stop();
      memoryNote(host, browsers);
    };
    ctx.signal.addEventListener('abort', windowEnd, { once: true });
    const closeWindow = (): void => {
      if (!ctx.signal.aborted) ctx.done();
    };
    const stop = (): void =>
      live.forEach((bridge) => {
        bridge.send({ t: 'stop' });
      });
    ctx.signal.addEventListener('abort', stop, { once: true });
    live.forEach((bridge, i) => {
      bridge.start(
        {
          t: 'start',
          scenarioPath: server.pathOf(fileURLToPath(host.scenario.url)),
          scenarioName: host.scenario.name,
          params: ctx.params,
          url: host.url,
          httpUrl: ctx.httpUrl,
          connector,
          processIndex: ctx.processIndex * pages + i,
          processCount: ctx.processCount * pages,
          offsetUs: startClocks[i]!.offsetUs,
        },
        {
          ready: () => {
            if (++ready < pages) return;
            void ctx.ready().then(
              () => {
                started = true;
                renderers.start();
                live.forEach((b) => {
                  b.send({ t: 'go' });
                });
              },
              (error: Error) => fail(error.message),
            );
          },
          // The process's window closes when every page's has: a page that is done measures nothing more.
          done: () => {
            if (++done === pages) closeWindow();
          },
          finished: (timerLatenessMs) => {
            if (timerLatenessMs) lateness.push(timerLatenessMs);
            if (++finished === pages) allFinished();
          },
          failed: (reason) => fail(pages > 1 ? `browser page ${i + 1}: ${reason}` : reason),
        },
      );
    });
    await Promise.race([over, failure, finishDeadline(ctx.signal, pages)]);
    closeWindow();
    await recordClock(host, live, startClocks, failure);
    return {
      utilization: busy,
      // The page whose timer fired latest speaks for the process, as its busiest renderer does for the loop.
      timerLatenessMs:
        lateness.length === 0
          ? null
          : { mean: Math.max(...lateness.map((l) => l.mean)), max: Math.max(...lateness.map((l) => l.max)) },
    };
  } finally {
    await Promise.allSettled(browsers.map((browser) => browser.close()));
    await server.close();
  }
}

/** Rejects when the pages are still running PAGE_FINISH_TIMEOUT_MS after the window closed. */
function finishDeadline(signal: AbortSignal, pages: number): Promise<never> {
  return new Promise((_, reject) => {
    const arm = (): void => {
      setTimeout(
        () =>
          reject(
            new Error(
              `${pages > 1 ? 'a browser page' : 'the browser page'} did not finish within ${PAGE_FINISH_TIMEOUT_MS / 1000} s after the window closed (hung?)`,
            ),
          ),
        PAGE_FINISH_TIMEOUT_MS,
      ).unref();
    };
    if (signal.aborted) arm();
    else signal.addEventListener('abort', arm, { once: true });
  });
}

/** Waits for `work`, failing with what went wrong first, or after `timeoutMs`. */
async function within<T>(timeoutMs: number, what: string, failure: Promise<never>, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  try {
    return await Promise.race([work, failure, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What ran, in the cell's notes: the browser, its pages, and how fine the page clock is. */
function describe(host: ClientHalfHost, bridges: PageBridge[], browsers: RunningBrowser[]): void {
  const product = browsers[0]?.product || 'Chromium';
  host.ctx.note(
    `browser: ${product}, headless; ${bridges.length} page${bridges.length > 1 ? 's' : ''} per client process, one browser each`,
  );
  const steps = [...new Set(bridges.map((b) => b.hello?.timerResolutionUs ?? 0))];
  const isolated = bridges.every((b) => b.hello?.crossOriginIsolated === true);
  host.ctx.note(
    `page clock: performance.now() in steps of ${steps.join(', ')} µs${isolated ? ' (cross-origin isolated)' : ' (not cross-origin isolated: coarse)'}`,
  );
}

/** The browsers' memory at the window's end, both ways of adding it up (the samples add RSS). */
function memoryNote(host: ClientHalfHost, browsers: RunningBrowser[]): void {
  const memory = groupMemory(browsers.map((browser) => browser.pid));
  if (!memory) return;
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(0);
  host.ctx.note(
    `browser memory at the window's end: RSS ${mb(memory.rssBytes)} MB added over its processes (as the client's RSS is), PSS ${mb(memory.pssBytes)} MB (pages its processes share counted once)`,
  );
}

/**
 * Measures each page's offset again now the window is over and records how well the page clock sat on
 * CLOCK_MONOTONIC through it: one sample per page in CLOCK_UNCERTAINTY_HISTOGRAM, and a note. A page
 * that cannot answer any more keeps its start uncertainty.
 */
async function recordClock(
  host: ClientHalfHost,
  bridges: PageBridge[],
  startClocks: ClockOffset[],
  failure: Promise<never>,
): Promise<void> {
  const recorder = host.ctx.histogram(CLOCK_UNCERTAINTY_HISTOGRAM);
  let worst = { uncertaintyUs: 0, driftUs: null as number | null };
  for (const [i, bridge] of bridges.entries()) {
    const end = await Promise.race([bridge.measureClock(), failure]).catch(() => null);
    const clock = windowUncertaintyUs(startClocks[i]!, end);
    recorder.recordUs(clock.uncertaintyUs);
    if (clock.uncertaintyUs >= worst.uncertaintyUs) worst = clock;
  }
  const drift =
    worst.driftUs === null
      ? 'no end probe'
      : `the end's estimate ${worst.driftUs >= 0 ? '+' : ''}${worst.driftUs.toFixed(1)} µs from the start's`;
  host.ctx.note(
    `page clock on CLOCK_MONOTONIC within ±${worst.uncertaintyUs.toFixed(1)} µs (quickest of 20 probes at the window's start and end; ${drift}): one-way delays are known to that, round trips are timed on the page clock alone`,
  );
  // A latency that depends on the offset (a one-way delay) and is typically shorter than its uncertainty is not resolved.
  const short = new Map<string, number>();
  for (const bridge of bridges) {
    for (const [name, medianUs] of bridge.typical.offsetDependent())
      if (medianUs < worst.uncertaintyUs) short.set(name, Math.min(medianUs, short.get(name) ?? medianUs));
  }
  if (short.size > 0) {
    const named = [...short].map(([name, medianUs]) => `${name} (median ${medianUs} µs)`).join(', ');
    host.ctx.note(
      `warning: the page clock's offset is known to ±${worst.uncertaintyUs.toFixed(1)} µs, more than ${named}: a one-way delay that short is not resolved on a page`,
    );
  }
}

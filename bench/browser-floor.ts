/**
 * The browser client's floor: wsbench's echo on a headless Chromium page
 * (1 connection, 32-byte text, one message in flight) against a bare page
 * script doing the same ping-pong on the same kind of browser, both against one
 * echo server (echo's own server half on uws, in a child process), in the same
 * run, rounds alternating; a second bare page each round, after wsbench's, is the
 * control (two identical clients measured the same way: the noise). The bare page is what any page measuring round trips
 * must do: read performance.now() at send and at reply, keep the difference.
 * What wsbench adds on top is its bookkeeping: the scenario's ctx, records sent
 * to the client process in batches, the control socket.
 *
 * This file is also its own server child (`--role server`).
 * Alone: `node dist/bench/browser-floor.js` prints the comparison.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import echo from '../scenarios/echo.js';
import { run } from '../src/parent/index.js';
import { watchParent } from '../src/child/parent-watchdog.js';
import { RunningBrowser } from '../src/child/runtimes/browser/browser-process.js';
import { locateChromium } from '../src/child/runtimes/browser/chromium-binary.js';
import { exitWithBench, median, reply } from './bench-children.js';
import { serveScenario } from './uws-scenario-server.js';

const SELF = fileURLToPath(import.meta.url);
export const BROWSER_FLOOR = { rounds: 3, durationMs: 3000, payloadBytes: 32 };

interface Round {
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  messagesPerSec: number;
}

export interface BrowserFloor {
  wsbench: Round[];
  bare: Round[];
  /** A second bare page each round, after wsbench's: bare over bare is the comparison's own noise. */
  control: Round[];
  /** 1-minute load average before and after, as os.loadavg() read it. */
  load: [number, number];
  version: string;
}

export async function browserFloor(log: (line: string) => void = () => undefined): Promise<BrowserFloor | string> {
  const chromium = locateChromium();
  if ('reason' in chromium) return chromium.reason;
  const loadBefore = loadavg()[0]!;
  const server = fork(SELF, ['--role', 'server'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const { url } = await reply<{ url: string }>(server);
    const wsbench: Round[] = [];
    const bare: Round[] = [];
    const control: Round[] = [];
    let version = '';
    for (let round = 1; round <= BROWSER_FLOOR.rounds; round++) {
      const page = await barePage(chromium.path, url);
      bare.push(page.round);
      version = page.version;
      wsbench.push(await wsbenchRound(url));
      control.push((await barePage(chromium.path, url)).round);
      log(
        `round ${round}/${BROWSER_FLOOR.rounds}: bare page p50 ${bare.at(-1)!.p50Ms.toFixed(3)} ms, wsbench browser echo p50 ${wsbench.at(-1)!.p50Ms.toFixed(3)} ms, bare again ${control.at(-1)!.p50Ms.toFixed(3)} ms`,
      );
    }
    return { wsbench, bare, control, load: [loadBefore, loadavg()[0]!], version };
  } finally {
    server.kill();
  }
}

export function renderBrowserFloor(floor: BrowserFloor | string): string {
  if (typeof floor === 'string') return `browser echo floor: skipped (${floor})`;
  const p50 = (rounds: Round[]): number => median(rounds.map((r) => r.p50Ms));
  const p99 = (rounds: Round[]): number => median(rounds.map((r) => r.p99Ms));
  const mean = (rounds: Round[]): number => median(rounds.map((r) => r.meanMs));
  const rate = (rounds: Round[]): number => median(rounds.map((r) => r.messagesPerSec));
  const line = (label: string, rounds: Round[]): string =>
    `  ${label.padEnd(56)} p50 ${p50(rounds).toFixed(3)} ms  p99 ${p99(rounds).toFixed(3)} ms  mean ${mean(rounds).toFixed(3)} ms  ${rate(rounds).toFixed(0)} msg/s`;
  return [
    `browser echo floor, ${BROWSER_FLOOR.payloadBytes} B text, 1 connection, 1 in flight, ${BROWSER_FLOOR.rounds} alternating rounds of ${BROWSER_FLOOR.durationMs / 1000} s, one uws echo server (${floor.version}; 1-min load ${floor.load[0].toFixed(1)} -> ${floor.load[1].toFixed(1)}):`,
    line('bare page script (performance.now() around each reply)', floor.bare),
    line('wsbench echo, browser client', floor.wsbench),
    `  wsbench over bare: p50 ${(p50(floor.wsbench) / p50(floor.bare)).toFixed(2)}x (rounds ${floor.bare.map((b, i) => (floor.wsbench[i]!.p50Ms / b.p50Ms).toFixed(2)).join(', ')}), p99 ${(p99(floor.wsbench) / p99(floor.bare)).toFixed(2)}x, mean ${(mean(floor.wsbench) / mean(floor.bare)).toFixed(2)}x, msg/s ${(rate(floor.wsbench) / rate(floor.bare)).toFixed(2)}x`,
    `  control, the bare page again after wsbench over the bare page before it: p50 ${(p50(floor.control) / p50(floor.bare)).toFixed(2)}x (rounds ${floor.bare.map((b, i) => (floor.control[i]!.p50Ms / b.p50Ms).toFixed(2)).join(', ')}), mean ${(mean(floor.control) / mean(floor.bare)).toFixed(2)}x, msg/s ${(rate(floor.control) / rate(floor.bare)).toFixed(2)}x: the noise the ratios above sit in`,
  ].join('\n');
}

async function wsbenchRound(url: string): Promise<Round> {
  const result = await run({
    scenario: 'echo',
    targets: [{ name: 'uws-echo', url }],
    clients: ['browser'],
    params: { duration: BROWSER_FLOOR.durationMs, payload: BROWSER_FLOOR.payloadBytes },
  });
  const [cell] = result.cells;
  if (cell?.status !== 'ok')
    throw new Error(`wsbench browser echo cell ${cell?.status}: ${cell && 'reason' in cell ? cell.reason : ''}`);
  const m = cell.metrics;
  return { p50Ms: m.rttP50Ms!, p99Ms: m.rttP99Ms!, meanMs: m.rttMeanMs!, messagesPerSec: m.messagesPerSec! };
}

/** The bare page, in a browser started as the browser client starts its own (same binary, same flags). */
async function barePage(binary: string, echoUrl: string): Promise<{ round: Round; version: string }> {
  let resolveResult: (round: Round) => void = () => undefined;
  const result = new Promise<Round>((resolve) => (resolveResult = resolve));
  const page = http.createServer((request, response) => {
    // Cross-origin isolated as wsbench's pages are: the same 5 µs clock steps.
    const headers = {
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Content-Type': 'text/html',
    };
    if (request.method === 'POST') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        resolveResult(JSON.parse(body) as Round);
        response.writeHead(204, headers).end();
      });
      return;
    }
    response.writeHead(200, headers).end(barePageHtml(echoUrl));
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  const { port } = page.address() as { port: number };
  let failed: (error: Error) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => (failed = reject));
  const browser = await RunningBrowser.start({
    binary,
    hosts: ['127.0.0.1'],
    watchProcessGroup: (pgid) => watchParent(pgid, process.pid, 'group'),
    onFailure: (reason) => failed(new Error(reason)),
  });
  try {
    await browser.openPage(`http://127.0.0.1:${port}/`);
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the bare page did not report')), BROWSER_FLOOR.durationMs + 30_000).unref(),
    );
    return { round: await Promise.race([result, failure, timeout]), version: browser.product };
  } finally {
    await browser.close();
    page.close();
  }
}

/** Connects, sends one message, sends the next on each reply; reports the median round trip and the rate. */
function barePageHtml(echoUrl: string): string {
  return `<!doctype html><script type="module">
const socket = new WebSocket(${JSON.stringify(echoUrl)});
await new Promise((resolve) => socket.addEventListener('open', resolve));
const payload = 'x'.repeat(${BROWSER_FLOOR.payloadBytes});
const rtts = [];
const end = performance.now() + ${BROWSER_FLOOR.durationMs};
let sentAt = 0;
const done = new Promise((resolve) => {
  socket.addEventListener('message', () => {
    const now = performance.now();
    rtts.push(now - sentAt);
    if (now >= end) return resolve(now);
    sentAt = now;
    socket.send(payload);
  });
});
const start = performance.now();
sentAt = start;
socket.send(payload);
const stop = await done;
rtts.sort((a, b) => a - b);
const at = (q) => rtts[Math.min(rtts.length - 1, Math.floor(rtts.length * q))];
const meanMs = rtts.reduce((a, b) => a + b, 0) / rtts.length;
await fetch('/', { method: 'POST', body: JSON.stringify({ p50Ms: at(0.5), p99Ms: at(0.99), meanMs, messagesPerSec: rtts.length / ((stop - start) / 1000) }) });
</script>`;
}

if (process.argv[2] === '--role') {
  exitWithBench();
  const { url } = await serveScenario(echo, {
    connections: 1,
    payload: BROWSER_FLOOR.payloadBytes,
    duration: BROWSER_FLOOR.durationMs,
  });
  process.send!({ url });
} else if (process.argv[1] === SELF) {
  process.stdout.write(`${renderBrowserFloor(await browserFloor((line) => process.stderr.write(`${line}\n`)))}\n`);
}

/**
 * What firehose's full accounting costs: client CPU microseconds per message of
 * wsbench's firehose client (uws x ws: wire tap, size histogram, drain accounting)
 * against a bare `ws` client that only counts, fed by the same uws server running
 * the same firehose server code. Alternating rounds, so drift on a shared machine
 * hits both sides.
 *
 * Why not messages/s "as fast as backpressure allows", as this comparison used to
 * be (ratio 1.24-1.36, wsbench "faster" than a client that only counts): that rate
 * is set by the server's send loop and by how two busy processes share two cores,
 * not by the client's work. Neither process ran at 100 % of a core, and the
 * server's cost per message depends on the reader: uWS writes a message with its
 * own syscall while its buffer is empty and appends it to the buffer once the
 * reader lags, so a reader that does more per message is sent bigger batches
 * (measured: the server spent 1.78 µs per message sent to wsbench's client, 2.07
 * to the bare one), and the reader's own reads get bigger too. So now both
 * clients get the same paced stream (RATE_PER_SEC), and both are measured alike,
 * from /proc, over their window: CPU time of the client and of the server, and
 * the messages received and sent. The ratio is client CPU per message.
 *
 * This file is also its own child processes: `--role server` (uws + firehose
 * server half) and `--role client` (bare ws counter). Run it alone with
 * `node dist/bench/firehose-baseline.js` to print the comparison.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import firehose from '../scenarios/firehose.js';
import { run } from '../src/index.js';
import { ProcSampler } from '../src/core/proc-sampler.js';
import { loadGeneratorExecArgv } from '../src/runtimes/load-generator-flags.js';
import { serveScenario } from './uws-scenario-server.js';

const SELF = fileURLToPath(import.meta.url);
const ROUNDS = 2;
const DURATION_MS = 5000;
/** The seed's 8 KB fragments. */
const FRAGMENT_BYTES = 8192;
/**
 * Both clients are fed the same paced stream, well below what either reads on
 * this machine, so they do the same work at the same load and batch alike.
 */
const RATE_PER_SEC = 100_000;
const CHILD_TIMEOUT_MS = 30_000;

/** One side of one round, both processes measured alike. */
export interface FirehoseRound {
  /** Messages the client received in its window. */
  received: number;
  /** Messages the server sent over the same window. */
  sent: number;
  windowMs: number;
  clientCpuMs: number;
  serverCpuMs: number;
}

export interface FirehoseBaseline {
  wsbench: FirehoseRound[];
  bare: FirehoseRound[];
}

export const clientUsPerMessage = (r: FirehoseRound): number => (r.clientCpuMs * 1000) / r.received;
export const serverUsPerMessage = (r: FirehoseRound): number => (r.serverCpuMs * 1000) / r.sent;
export const messagesPerSec = (r: FirehoseRound): number => r.received / (r.windowMs / 1000);

export async function firehoseBaseline(rounds = ROUNDS): Promise<FirehoseBaseline> {
  const wsbench: FirehoseRound[] = [];
  const bare: FirehoseRound[] = [];
  for (let round = 0; round < rounds; round++) {
    // ABBA order: each side goes first once.
    if (round % 2 === 0) {
      wsbench.push(await wsbenchRound());
      bare.push(await bareRound());
    } else {
      bare.push(await bareRound());
      wsbench.push(await wsbenchRound());
    }
  }
  return { wsbench, bare };
}

async function wsbenchRound(): Promise<FirehoseRound> {
  const result = await run({
    scenario: 'firehose',
    servers: ['uws'],
    clients: ['ws'],
    params: { duration: DURATION_MS, rate: RATE_PER_SEC, fragmentSize: FRAGMENT_BYTES },
  });
  const [cell] = result.cells;
  if (cell?.status !== 'ok') throw new Error(`wsbench firehose cell ${cell?.status}: ${cell?.reason}`);
  const { server, clients } = cell.resources;
  if (!server || !clients[0]) throw new Error('wsbench firehose cell: a process was not measured');
  const windowMs = cell.measurements.windowMs;
  return {
    received: cell.measurements.counters.received ?? 0,
    // The server's count covers the drain after the window too; its CPU is sampled until it is told to stop. Both alike.
    sent: cell.measurements.serverCounters.messagesSent ?? 0,
    windowMs,
    clientCpuMs: (clients[0].cpuPercent.mean / 100) * windowMs,
    serverCpuMs: (server.cpuPercent.mean / 100) * windowMs,
  };
}

/** Server and client in two child processes, as wsbench runs them, sampled from /proc as wsbench samples its own. */
async function bareRound(): Promise<FirehoseRound> {
  const children: ChildProcess[] = [];
  try {
    const server = fork(SELF, ['--role', 'server']);
    children.push(server);
    const { url } = await reply<{ url: string }>(server);
    // The V8 settings of wsbench's client processes: measured alike.
    const client = fork(SELF, ['--role', 'client', url], { execArgv: loadGeneratorExecArgv() });
    children.push(client);
    await reply<{ open: true }>(client);
    const serverSampler = new ProcSampler(server.pid!);
    const clientSampler = new ProcSampler(client.pid!);
    serverSampler.start();
    clientSampler.start();
    client.send('go');
    const { received, windowMs } = await reply<{ received: number; windowMs: number }>(client);
    const clientStats = clientSampler.stop();
    server.send('count');
    const { sent } = await reply<{ sent: number }>(server);
    const serverStats = serverSampler.stop();
    if (!clientStats || !serverStats) throw new Error('bare firehose: /proc could not be read');
    return {
      received,
      sent,
      windowMs,
      clientCpuMs: (clientStats.cpuPercent.mean / 100) * windowMs,
      serverCpuMs: (serverStats.cpuPercent.mean / 100) * windowMs,
    };
  } finally {
    for (const child of children) child.kill();
  }
}

function reply<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('baseline child went quiet')), CHILD_TIMEOUT_MS);
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`baseline child exited with code ${code}`));
    };
    child.once('message', (message) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(message as T);
    });
    child.once('exit', onExit);
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The uws adapter running firehose's own server half, outside wsbench's server process. */
async function serveFeed(): Promise<void> {
  const params = { duration: DURATION_MS, rate: RATE_PER_SEC, fragmentSize: FRAGMENT_BYTES };
  const { url, logic, metrics } = await serveScenario(firehose, params);
  process.send!({ url });
  // Asked once the client's window is over: how many messages the feed sent.
  process.on('message', () => {
    logic.onMeasureEnd?.();
    process.send!({ sent: metrics.counterValues().messagesSent ?? 0 });
  });
}

/** Connects, then on "go" subscribes and counts messages for DURATION_MS: nothing else. */
function countBare(url: string): void {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  socket.on('open', () => {
    let received = 0;
    socket.on('message', () => {
      received += 1;
    });
    process.send!({ open: true });
    process.once('message', () => {
      const startedMs = performance.now();
      socket.send(JSON.stringify({ method: 'subscribe', params: { channel: 'book' }, req_id: 1 }));
      setTimeout(() => {
        const windowMs = performance.now() - startedMs;
        process.send!({ received, windowMs }, undefined, {}, () => process.exit(0));
      }, DURATION_MS);
    });
  });
  socket.on('error', (error) => {
    process.stderr.write(`bare client: ${error.message}\n`);
    process.exit(1);
  });
}

export function renderFirehoseBaseline(result: FirehoseBaseline): string {
  const m = (list: FirehoseRound[], f: (r: FirehoseRound) => number): number => median(list.map(f));
  const line = (label: string, list: FirehoseRound[]): string =>
    `  ${label.padEnd(36)} ${m(list, clientUsPerMessage).toFixed(2)} µs client CPU/msg   (server ${m(list, serverUsPerMessage).toFixed(2)} µs/msg sent, ${Math.round(m(list, messagesPerSec))} msg/s)`;
  const ratio = m(result.wsbench, clientUsPerMessage) / m(result.bare, clientUsPerMessage);
  return [
    `firehose receive path, uws server pacing ${RATE_PER_SEC} msg/s to both, ${FRAGMENT_BYTES} B fragments, ${result.bare.length} alternating rounds of ${DURATION_MS / 1000} s (medians):`,
    line('bare ws client that only counts', result.bare),
    line('wsbench firehose, ws client', result.wsbench),
    `  ratio ${ratio.toFixed(2)} (client CPU per message, wsbench / bare: the cost of the wire tap, size histogram and drain accounting)`,
    '  (msg/s below the pace means the machine could not keep up; the server figure is context, not the comparison)',
  ].join('\n');
}

const role = process.argv[2] === '--role' ? process.argv[3] : null;
// A child whose parent is gone has nobody to report to.
if (role) process.on('disconnect', () => process.exit(0));
if (role === 'server') await serveFeed();
else if (role === 'client') countBare(process.argv[4]!);
else if (process.argv[1] === SELF) process.stdout.write(renderFirehoseBaseline(await firehoseBaseline()) + '\n');

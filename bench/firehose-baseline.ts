/**
 * What firehose's full accounting costs: messages/s that wsbench reports for
 * uws x ws against a bare `ws` client that only counts messages, fed by the
 * same uws server running the same firehose server code, same settings, same
 * call. Alternating rounds so drift on a shared machine hits both sides.
 *
 * This file is also its own child processes: `--role server` (uws + firehose
 * server half) and `--role client` (bare ws counter). Run it alone with
 * `node dist/bench/firehose-baseline.js` to print the ratio.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import firehose from '../scenarios/firehose.js';
import { run } from '../src/index.js';
import { monotonicUs } from '../src/core/clock.js';
import { MetricsRegistry } from '../src/core/metrics.js';
import { uwsServer } from '../src/servers/uws.js';
import type { ServerConnection, ServerScenarioContext } from '../src/index.js';

const SELF = fileURLToPath(import.meta.url);
const ROUNDS = 2;
const DURATION_MS = 5000;
/** firehose defaults: as fast as backpressure allows, the seed's 8 KB fragments. */
const FRAGMENT_BYTES = 8192;
const CHILD_TIMEOUT_MS = 30_000;

export interface FirehoseBaseline {
  /** Median over rounds of firehose messages/s, uws server x ws client, full accounting. */
  wsbenchMsgsPerSec: number;
  /** Median over rounds of messages/s a bare ws client counts from the same server code. */
  bareMsgsPerSec: number;
}

export async function firehoseBaseline(): Promise<FirehoseBaseline> {
  const wsbench: number[] = [];
  const bare: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // ABBA order: each side goes first once.
    if (round % 2 === 0) {
      wsbench.push(await wsbenchRound());
      bare.push(await bareRound());
    } else {
      bare.push(await bareRound());
      wsbench.push(await wsbenchRound());
    }
  }
  return { wsbenchMsgsPerSec: median(wsbench), bareMsgsPerSec: median(bare) };
}

async function wsbenchRound(): Promise<number> {
  const result = await run({
    scenario: 'firehose',
    servers: ['uws'],
    clients: ['ws'],
    params: { duration: DURATION_MS, rate: 0, fragmentSize: FRAGMENT_BYTES },
  });
  const [cell] = result.cells;
  if (cell?.status !== 'ok') throw new Error(`wsbench firehose cell ${cell?.status}: ${cell?.reason}`);
  const rate = cell.metrics.messagesPerSec;
  if (rate === null || rate === undefined) throw new Error(`wsbench firehose cell: ${cell.missing.messagesPerSec}`);
  return rate;
}

/** Server and client in two child processes, as wsbench runs them. */
async function bareRound(): Promise<number> {
  const children: ChildProcess[] = [];
  try {
    const server = fork(SELF, ['--role', 'server']);
    children.push(server);
    const { url } = await reply<{ url: string }>(server);
    const client = fork(SELF, ['--role', 'client', url]);
    children.push(client);
    return (await reply<{ msgsPerSec: number }>(client)).msgsPerSec;
  } finally {
    for (const child of children) child.kill();
  }
}

function reply<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('baseline child went quiet')), CHILD_TIMEOUT_MS);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as T);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`baseline child exited with code ${code}`));
    });
  });
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The uws adapter running firehose's own server half, outside wsbench's server process. */
async function serveFeed(): Promise<void> {
  const metrics = new MetricsRegistry();
  const open = new Set<ServerConnection>();
  const ctx: ServerScenarioContext = {
    params: { duration: DURATION_MS, rate: 0, fragmentSize: FRAGMENT_BYTES },
    nowUs: monotonicUs,
    histogram: (name) => metrics.histogram(name),
    sizeHistogram: (name) => metrics.sizeHistogram(name),
    counter: (name) => metrics.counter(name),
    broadcast: () => undefined,
    connections: () => open,
  };
  const logic = firehose.server(ctx as Parameters<typeof firehose.server>[0]);
  const running = await uwsServer.start({
    host: '127.0.0.1',
    handlers: {
      onConnection: (c) => void open.add(c),
      onMessage: (c, data) => logic.onMessage?.(c, data),
      onClose: (c) => {
        open.delete(c);
        logic.onClose?.(c);
      },
    },
  });
  process.send!({ url: running.url });
}

/** Connects, subscribes, counts messages for DURATION_MS: nothing else. */
function countBare(url: string): void {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  socket.on('open', () => {
    let count = 0;
    socket.on('message', () => {
      count += 1;
    });
    const startedMs = performance.now();
    socket.send(JSON.stringify({ method: 'subscribe', params: { channel: 'book' }, req_id: 1 }));
    setTimeout(() => {
      const seconds = (performance.now() - startedMs) / 1000;
      process.send!({ msgsPerSec: Math.round(count / seconds) }, undefined, {}, () => process.exit(0));
    }, DURATION_MS);
  });
  socket.on('error', (error) => {
    process.stderr.write(`bare client: ${error.message}\n`);
    process.exit(1);
  });
}

const role = process.argv[2] === '--role' ? process.argv[3] : null;
// A child whose parent is gone has nobody to report to.
if (role) process.on('disconnect', () => process.exit(0));
if (role === 'server') await serveFeed();
else if (role === 'client') countBare(process.argv[4]!);
else if (process.argv[1] === SELF) {
  const { wsbenchMsgsPerSec, bareMsgsPerSec } = await firehoseBaseline();
  process.stdout.write(
    [
      `firehose, uws server, ${DURATION_MS / 1000} s x ${ROUNDS} alternating rounds, as fast as backpressure allows, ${FRAGMENT_BYTES} B fragments:`,
      `  bare ws client counting messages   ${bareMsgsPerSec} msg/s`,
      `  wsbench firehose, ws client         ${wsbenchMsgsPerSec} msg/s (wire tap, sizes, drain accounting)`,
      `  ratio ${(wsbenchMsgsPerSec / bareMsgsPerSec).toFixed(2)}`,
      '',
    ].join('\n'),
  );
}

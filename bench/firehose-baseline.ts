/**
 * What firehose's full accounting costs: client CPU microseconds per message of
 * wsbench's firehose client (uws x ws: wire tap, size histogram, drain accounting)
 * against a bare `ws` client that only counts, both fed the same paced stream by
 * one uws server running firehose's own server half (wsbench measures it as a
 * --target).
 *
 * Both clients run at once, over the same window, as echo-cost.ts runs its two:
 * rounds taken one after the other on a shared 2-core machine compared the box's
 * drift (two alternating unpinned rounds read 0.95-1.11 over runs, and 1.34-1.68
 * at a load average of 10). Where it can, the bench gives the server one CPU and
 * both clients the other (cpu-pinning.ts), so neither client competes with the
 * server for its core. The control runs two bare counters the same way: how far
 * 1.00 reads off when nothing differs.
 *
 * Why a paced stream and CPU per message, not messages/s "as fast as backpressure
 * allows" (which read 1.24-1.36, wsbench "faster" than a client that only counts):
 * that rate is set by the server's send loop and by how busy processes share the
 * cores, and uWS batches more for a reader that lags, so a reader that does more
 * per message gets bigger reads. Fed the same pace, both do the same work.
 *
 * This file is also its own child processes: `--role server` (uws + firehose
 * server half) and `--role client` (bare ws counter). Alone:
 * `node dist/bench/firehose-baseline.js` prints the comparison;
 * `node dist/bench/firehose-baseline.js --profile DIR` runs one round under
 * --cpu-prof and prints where each client's time went.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import firehose from '../scenarios/firehose.js';
import { loadGeneratorExecArgv } from '../src/parent/runtimes/load-generator-flags.js';
import { pinForFullLoad } from './cpu-pinning.js';
import {
  describe,
  exitWithBench,
  forkOnCpu,
  killAll,
  measureBareWindow,
  median,
  reply,
  twoBareClients,
  usPerMessage,
  type ClientCost,
} from './bench-children.js';
import { profiledRound } from './profiled-round.js';
import { sharedWindow, type SharedRound } from './shared-window.js';
import { serveScenario } from './uws-scenario-server.js';

const SELF = fileURLToPath(import.meta.url);
export const FIREHOSE_COST = {
  rounds: 4,
  controlRounds: 2,
  durationMs: 4000,
  /** The seed's 8 KB fragments. */
  fragmentBytes: 8192,
  /** Each client's paced stream: well below what either reads, so both do the same work at the same load. */
  ratePerSec: 100_000,
};

export interface FirehoseBaseline {
  rounds: SharedRound[];
  /** Two bare counters measured the same way, second over first, per control round. */
  control: number[];
  /** Where the processes ran: pinned to which CPUs, or why not. */
  placement: string;
}

export const roundRatio = (r: SharedRound): number => usPerMessage(r.wsbench) / usPerMessage(r.bare);

export async function firehoseBaseline(
  rounds = FIREHOSE_COST.rounds,
  log: (line: string) => void = () => undefined,
): Promise<FirehoseBaseline> {
  const pinning = pinForFullLoad();
  const placement =
    typeof pinning === 'string'
      ? `not pinned (${pinning})`
      : `server on CPU ${pinning.serverCpu}, both clients on CPU ${pinning.clientCpu}`;
  const serverCpu = typeof pinning === 'string' ? null : pinning.serverCpu;
  try {
    const done: SharedRound[] = [];
    for (let round = 0; round < rounds; round++) {
      const r = await sharedRound(serverCpu);
      done.push(r);
      log(
        `round ${round + 1}/${rounds}: bare ${describe(r.bare)}; wsbench ${describe(r.wsbench)}; server ${r.serverCpuPercent?.toFixed(0) ?? '?'} % CPU; ratio ${roundRatio(r).toFixed(3)}`,
      );
    }
    const control: number[] = [];
    for (let round = 0; round < FIREHOSE_COST.controlRounds; round++) {
      const [first, second] = await controlRound(serverCpu);
      control.push(usPerMessage(second) / usPerMessage(first));
      log(
        `control ${round + 1}/${FIREHOSE_COST.controlRounds}: bare ${describe(first)}; bare ${describe(second)}; ratio ${control.at(-1)!.toFixed(3)}`,
      );
    }
    return { rounds: done, control, placement };
  } finally {
    if (typeof pinning !== 'string') pinning.release();
  }
}

/** The bench's firehose server and a bare counter in two child processes; wsbench's client joins them as a --target run. */
async function sharedRound(serverCpu: number | null): Promise<SharedRound> {
  const children: ChildProcess[] = [];
  try {
    const server = forkOnCpu(SELF, ['--role', 'server'], serverCpu);
    children.push(server);
    const { url } = await reply<{ url: string }>(server);
    const bareClient = forkBareCounter(url);
    children.push(bareClient);
    await reply<{ open: true }>(bareClient);
    return await sharedWindow(
      'firehose',
      { duration: FIREHOSE_COST.durationMs, rate: FIREHOSE_COST.ratePerSec, fragmentSize: FIREHOSE_COST.fragmentBytes },
      url,
      server,
      bareClient,
    );
  } finally {
    killAll(children);
  }
}

/** Two bare counters at once on one server, measured as sharedRound measures its two clients. */
function controlRound(serverCpu: number | null): Promise<[ClientCost, ClientCost]> {
  return twoBareClients(() => forkOnCpu(SELF, ['--role', 'server'], serverCpu), forkBareCounter, measureBareWindow);
}

/** A bare counter in its own process, with the V8 settings of wsbench's client processes: measured alike. */
function forkBareCounter(url: string): ChildProcess {
  return forkOnCpu(SELF, ['--role', 'client', url], null, { execArgv: loadGeneratorExecArgv() });
}

/** The uws adapter running firehose's own server half, outside wsbench's server process. */
async function serveFeed(): Promise<void> {
  const params = {
    duration: FIREHOSE_COST.durationMs,
    rate: FIREHOSE_COST.ratePerSec,
    fragmentSize: FIREHOSE_COST.fragmentBytes,
  };
  const { url } = await serveScenario(firehose, params);
  process.send!({ url });
}

/** Connects, then on "go" subscribes and counts messages for the window: nothing else. */
function countBare(url: string): void {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  socket.on('open', () => {
    let messages = 0;
    socket.on('message', () => {
      messages += 1;
    });
    process.send!({ open: true });
    process.once('message', () => {
      const startedMs = performance.now();
      socket.send(JSON.stringify({ method: 'subscribe', params: { channel: 'book' }, req_id: 1 }));
      setTimeout(() => {
        const windowMs = performance.now() - startedMs;
        process.send!({ messages, windowMs }, undefined, {}, () => process.exit(0));
      }, FIREHOSE_COST.durationMs);
    });
  });
  socket.on('error', (error) => {
    process.stderr.write(`bare client: ${error.message}\n`);
    process.exit(1);
  });
}

export function renderFirehoseBaseline({ rounds, control, placement }: FirehoseBaseline): string {
  const m = (side: 'bare' | 'wsbench', f: (c: ClientCost) => number): number => median(rounds.map((r) => f(r[side])));
  const rate = (c: ClientCost): number => c.messages / (c.windowMs / 1000);
  const ratios = rounds.map(roundRatio);
  const server = rounds.flatMap((r) => (r.serverCpuPercent === null ? [] : [r.serverCpuPercent]));
  return [
    `firehose receive path, one uws server pacing ${FIREHOSE_COST.ratePerSec} msg/s to each of both clients at once, ${FIREHOSE_COST.fragmentBytes} B fragments, ${rounds.length} rounds of ${FIREHOSE_COST.durationMs / 1000} s (medians); ${placement}:`,
    `  bare ws client that only counts      ${m('bare', usPerMessage).toFixed(2)} µs client CPU per message, ${Math.round(m('bare', rate))} msg/s`,
    `  wsbench firehose, ws client          ${m('wsbench', usPerMessage).toFixed(2)} µs client CPU per message, ${Math.round(m('wsbench', rate))} msg/s`,
    `  ratio ${median(ratios).toFixed(2)} (goal 1.05; median of the rounds' wsbench CPU per message / bare, each round ${ratios.map((r) => r.toFixed(2)).join(' ')}: the cost of the wire tap, size histogram and drain accounting)`,
    ...(control.length
      ? [
          `  control: two bare counters measured the same way, ratio ${median(control).toFixed(2)} (each round ${control.map((r) => r.toFixed(2)).join(' ')}): how far 1.00 reads off when nothing differs`,
        ]
      : []),
    `  (msg/s below the pace means the machine could not keep up; the server ran at ${server.length ? Math.round(median(server)) : '?'} % of a core feeding both)`,
  ].join('\n');
}

const role = process.argv[2] === '--role' ? process.argv[3] : null;
if (role) exitWithBench();
if (role === 'server') await serveFeed();
else if (role === 'client') countBare(process.argv[4]!);
else if (process.argv[1] === SELF) {
  const profileAt = process.argv.indexOf('--profile');
  if (profileAt >= 0) {
    await profiledRound(SELF, process.argv[profileAt + 1] ?? 'wsbench-profiles', async (serverCpu) => {
      const r = await sharedRound(serverCpu);
      return [
        { marker: 'client-process.js', label: `wsbench firehose client: ${describe(r.wsbench)}` },
        { marker: 'countBare', label: `bare counter, the same window and server: ${describe(r.bare)}` },
      ];
    });
  } else {
    const result = await firehoseBaseline(FIREHOSE_COST.rounds, (line) => process.stderr.write(`firehose ${line}\n`));
    process.stdout.write(`${renderFirehoseBaseline(result)}\n`);
  }
}

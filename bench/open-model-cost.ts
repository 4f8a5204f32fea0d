/**
 * What the open model costs: client CPU microseconds per message of wsbench's
 * echo client at a fixed rate (`--rate`, 50 connections, each message sent when
 * due and timed from its due time) against a bare open-loop `ws` client doing
 * the same: one timer, on each wake every message already due goes out, and each
 * reply is timed from its due time into a histogram (what any open-loop client
 * that measures latency must do). Both run at once against one uws echo server
 * over one window, so drift meets both; a control round runs two bare clients
 * the same way, to show how far 1.00 reads off when nothing differs.
 *
 * This file is also its own child processes (`--role server`, `--role client`).
 * Alone: `node dist/bench/open-model-cost.js` prints the ratio; `--profile DIR` runs one round with every
 * child under --cpu-prof and prints where each client's time went.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import echo from '../scenarios/echo.js';
import { monotonicUs } from '../src/shared/measure/clock.js';
import { MetricsRegistry } from '../src/shared/measure/metrics.js';
import { loadGeneratorExecArgv } from '../src/parent/runtimes/load-generator-flags.js';
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
import { pinForFullLoad } from './cpu-pinning.js';
import { profiledRound } from './profiled-round.js';
import { sharedWindow, type SharedRound } from './shared-window.js';
import { serveScenario } from './uws-scenario-server.js';

const SELF = fileURLToPath(import.meta.url);
export const OPEN_MODEL_COST = {
  connections: 50,
  /** Messages per second over each client's connections: well within what one client process sends. */
  ratePerSec: 20_000,
  payloadBytes: 32,
  durationMs: 10_000,
  rounds: 4,
  controlRounds: 2,
};

export interface OpenModelCost {
  rounds: SharedRound[];
  /** Two bare open-loop clients measured the same way, second over first, per control round. */
  control: number[];
  placement: string;
}

const roundRatio = (r: SharedRound): number => usPerMessage(r.wsbench) / usPerMessage(r.bare);

export async function openModelCost(
  rounds = OPEN_MODEL_COST.rounds,
  log: (line: string) => void = () => undefined,
): Promise<OpenModelCost> {
  const pinning = pinForFullLoad();
  const placement =
    typeof pinning === 'string'
      ? `not pinned (${pinning})`
      : `server on CPU ${pinning.serverCpu}, both clients on CPU ${pinning.clientCpu}`;
  log(placement);
  const serverCpu = typeof pinning === 'string' ? null : pinning.serverCpu;
  try {
    const done: SharedRound[] = [];
    for (let round = 0; round < rounds; round++) {
      const r = await sharedRound(serverCpu);
      done.push(r);
      log(
        `round ${round + 1}/${rounds}: bare open loop ${describe(r.bare)}; wsbench ${describe(r.wsbench)}; ratio ${roundRatio(r).toFixed(3)}`,
      );
    }
    const control: number[] = [];
    for (let round = 0; round < OPEN_MODEL_COST.controlRounds; round++) {
      const [first, second] = await twoBareClients(
        () => forkOnCpu(SELF, ['--role', 'server'], serverCpu),
        forkBareClient,
        (child) => measureBareWindow(child),
      );
      control.push(usPerMessage(second) / usPerMessage(first));
      log(
        `control ${round + 1}/${OPEN_MODEL_COST.controlRounds}: bare ${describe(first)}; bare ${describe(second)}; ratio ${control.at(-1)!.toFixed(3)}`,
      );
    }
    return { rounds: done, control, placement };
  } finally {
    if (typeof pinning !== 'string') pinning.release();
  }
}

async function sharedRound(serverCpu: number | null): Promise<SharedRound> {
  const children: ChildProcess[] = [];
  try {
    const server = forkOnCpu(SELF, ['--role', 'server'], serverCpu);
    children.push(server);
    const { url } = await reply<{ url: string }>(server);
    const bare = forkBareClient(url);
    children.push(bare);
    await reply<{ open: true }>(bare);
    return await sharedWindow(
      'echo',
      {
        connections: OPEN_MODEL_COST.connections,
        payload: OPEN_MODEL_COST.payloadBytes,
        duration: OPEN_MODEL_COST.durationMs,
        rate: OPEN_MODEL_COST.ratePerSec,
      },
      url,
      server,
      bare,
    );
  } finally {
    killAll(children);
  }
}

/** A bare client in its own process, with the V8 settings wsbench's client processes get: measured alike. */
function forkBareClient(url: string): ChildProcess {
  return fork(SELF, ['--role', 'client', url], { execArgv: loadGeneratorExecArgv() });
}

async function serveEcho(): Promise<void> {
  const { url } = await serveScenario(echo, {
    connections: OPEN_MODEL_COST.connections,
    payload: OPEN_MODEL_COST.payloadBytes,
    duration: OPEN_MODEL_COST.durationMs,
  });
  process.send!({ url });
}

/**
 * The bare open-loop client: connection i sends its k-th message at (k x N + i) / rate seconds into the
 * window (the same schedule wsbench's uniform arrivals make), whatever came back; one timer wakes for the
 * earliest due message and sends all that are due; each reply is timed from its message's due time.
 */
async function bareOpenLoop(url: string): Promise<void> {
  const { connections: n, ratePerSec, payloadBytes, durationMs } = OPEN_MODEL_COST;
  const payload = 'x'.repeat(payloadBytes);
  const sockets = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<WebSocket>((ok, fail) => {
          const socket = new WebSocket(url, { perMessageDeflate: false });
          socket.once('open', () => ok(socket));
          socket.once('error', fail);
        }),
    ),
  );
  const rtt = new MetricsRegistry().histogram('rtt');
  const intervalUs = 1e6 / ratePerSec;
  /** Per socket: due times of its messages waiting for replies, oldest first. */
  const waiting = sockets.map(() => [] as number[]);
  let messages = 0;
  let running = false;
  sockets.forEach((socket, i) => {
    socket.on('message', () => {
      const nowUs = monotonicUs();
      const dueUs = waiting[i]!.shift()!;
      if (!running) return;
      messages += 1;
      rtt.recordUs(nowUs - dueUs);
    });
  });
  process.send!({ open: true });
  process.once('message', () => {
    running = true;
    const startUs = monotonicUs();
    const startedMs = performance.now();
    let next = 0;
    const wake = (): void => {
      const nowUs = monotonicUs();
      for (; startUs + next * intervalUs <= nowUs; next++) {
        const i = next % n;
        waiting[i]!.push(startUs + next * intervalUs);
        sockets[i]!.send(payload);
      }
      timer = setTimeout(wake, Math.max(0, (startUs + next * intervalUs - monotonicUs()) / 1000));
    };
    let timer = setTimeout(wake, 0);
    setTimeout(() => {
      running = false;
      clearTimeout(timer);
      const windowMs = performance.now() - startedMs;
      process.send!({ messages, windowMs }, undefined, {}, () => process.exit(0));
    }, durationMs);
  });
}

export function renderOpenModelCost({ rounds, control, placement }: OpenModelCost): string {
  const ratios = rounds.map(roundRatio);
  const c = OPEN_MODEL_COST;
  const us = (side: 'bare' | 'wsbench'): number => median(rounds.map((r) => usPerMessage(r[side])));
  const ratio = median(ratios);
  const noise = control.length ? Math.max(...control.map((r) => Math.abs(Math.log(r)))) : 0;
  const verdict =
    ratio <= 1.05
      ? 'met'
      : Math.abs(Math.log(ratio)) <= noise
        ? 'NOT MET, within the noise the control shows'
        : 'NOT MET';
  return [
    `open model at ${c.ratePerSec} msg/s over ${c.connections} connections, ${c.payloadBytes} B, both clients at once on one uws server, ${rounds.length} rounds of ${c.durationMs / 1000} s (medians); ${placement}:`,
    `  bare open-loop ws client (send when due, time from due)  ${us('bare').toFixed(2)} µs client CPU per message`,
    `  wsbench echo --rate ${c.ratePerSec}                            ${us('wsbench').toFixed(2)} µs client CPU per message`,
    `  ratio ${ratio.toFixed(2)} (each round ${ratios.map((r) => r.toFixed(2)).join(' ')}; goal 1.05): ${verdict}`,
    ...(control.length
      ? [
          `  control: two bare open-loop clients measured the same way, ratio ${median(control).toFixed(2)} (each round ${control.map((r) => r.toFixed(2)).join(' ')}): how far 1.00 reads off when nothing differs`,
        ]
      : []),
  ].join('\n');
}

const role = process.argv[2] === '--role' ? process.argv[3] : null;
if (role) exitWithBench();
if (role === 'server') await serveEcho();
else if (role === 'client') await bareOpenLoop(process.argv[4]!);
else if (process.argv[1] === SELF) {
  const profileAt = process.argv.indexOf('--profile');
  if (profileAt >= 0) {
    await profiledRound(SELF, process.argv[profileAt + 1] ?? 'wsbench-profiles', async (serverCpu) => {
      const round = await sharedRound(serverCpu);
      return [
        { marker: 'client-process.js', label: `wsbench echo --rate: ${describe(round.wsbench)}` },
        { marker: 'bareOpenLoop', label: `bare open-loop client, the same window and server: ${describe(round.bare)}` },
      ];
    });
  } else {
    const cost = await openModelCost(OPEN_MODEL_COST.rounds, (line) => process.stderr.write(`${line}\n`));
    process.stdout.write(`${renderOpenModelCost(cost)}\n`);
  }
}

export type { ClientCost };

/**
 * wsbench's own cost at full load: client CPU microseconds per message of
 * wsbench's echo client (ws stack, 50 connections, one 32-byte message in flight
 * on each) against a bare `ws` loop doing the same exchange, both at once against
 * one uws echo server running echo's own server half. Sharing the server and the
 * window is the point: on a shared 2-core machine throughput drifts by 15 % from
 * one 5 s round to the next, so rounds taken one after the other compare drift,
 * while two clients measured side by side meet the same drift. Both are measured
 * alike: CPU time from /proc over the window, messages they received. Where it can,
 * the bench gives the server one CPU and both clients the other (cpu-pinning.ts), so
 * both clients are saturated: that is full load, and there per-message costs add up.
 *
 * This file is also its own child processes (`--role server`, `--role client`).
 * Alone: `node dist/bench/echo-cost.js` prints the ratio;
 * `node dist/bench/echo-cost.js --profile DIR` runs one round, placed as the measured
 * ones are, with every child under --cpu-prof and prints where each client's time went
 * (profile-summary.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import echo from '../scenarios/echo.js';
import { monotonicUs } from '../src/shared/measure/clock.js';
import { MetricsRegistry } from '../src/shared/measure/metrics.js';
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
export const ECHO_COST = {
  connections: 50,
  payloadBytes: 32,
  durationMs: 5000,
  rounds: 4,
  controlRounds: 2,
  sameWorkRounds: 3,
};

/**
 * `plain`: send, count, send, the loop ws's own examples suggest (text sent as a string).
 * `same-work`: what wsbench's echo client does per message, without wsbench: one clock
 * read and a histogram record (what any client that times round trips must do), and text
 * sent as bytes framed as text, as wsbench's ws adapter sends it (src/child/clients/ws.ts).
 */
type BareKind = 'plain' | 'same-work';

export type { ClientCost, SharedRound };

/** wsbench's CPU per message over the bare loop's, in one round. */
export const roundRatio = (r: SharedRound): number => usPerMessage(r.wsbench) / usPerMessage(r.bare);

export interface EchoCost {
  rounds: SharedRound[];
  /** Two bare loops measured the same way, second over first, per control round: the comparison's own noise. */
  control: number[];
  /** wsbench against a bare loop doing the same work per message (see BareKind), per round: what wsbench's own code adds. */
  againstSameWork: number[];
  /** Where the processes ran: pinned to which CPUs, or why not. */
  placement: string;
}

export async function echoCost(
  rounds = ECHO_COST.rounds,
  log: (line: string) => void = () => undefined,
): Promise<EchoCost> {
  const pinning = pinForFullLoad();
  const placement =
    typeof pinning === 'string'
      ? `not pinned (${pinning}): clients that are not saturated read higher CPU per message`
      : `server on CPU ${pinning.serverCpu}, both clients on CPU ${pinning.clientCpu}, each saturating its half`;
  log(placement);
  try {
    return { ...(await measure(rounds, typeof pinning === 'string' ? null : pinning.serverCpu, log)), placement };
  } finally {
    if (typeof pinning !== 'string') pinning.release();
  }
}

async function measure(
  rounds: number,
  serverCpu: number | null,
  log: (line: string) => void,
): Promise<Omit<EchoCost, 'placement'>> {
  const done: SharedRound[] = [];
  const control: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const r = await sharedRound('plain', serverCpu);
    done.push(r);
    log(
      `round ${round + 1}/${rounds}: bare ws ${describe(r.bare)}; wsbench ${describe(r.wsbench)}; server ${r.serverCpuPercent?.toFixed(0) ?? '?'} % CPU; ratio ${roundRatio(r).toFixed(3)}`,
    );
  }
  for (let round = 0; round < ECHO_COST.controlRounds; round++) {
    const [first, second] = await controlRound(serverCpu);
    control.push(usPerMessage(second) / usPerMessage(first));
    log(
      `control ${round + 1}/${ECHO_COST.controlRounds}: bare ws ${describe(first)}; bare ws ${describe(second)}; ratio ${control.at(-1)!.toFixed(3)}`,
    );
  }
  const againstSameWork: number[] = [];
  for (let round = 0; round < ECHO_COST.sameWorkRounds; round++) {
    const r = await sharedRound('same-work', serverCpu);
    againstSameWork.push(roundRatio(r));
    log(
      `same work ${round + 1}/${ECHO_COST.sameWorkRounds}: bare ws doing wsbench's work ${describe(r.bare)}; wsbench ${describe(r.wsbench)}; ratio ${roundRatio(r).toFixed(3)}`,
    );
  }
  return { rounds: done, control, againstSameWork };
}

/** Two bare loops at once against one server, measured as sharedRound measures its two clients. */
function controlRound(serverCpu: number | null): Promise<[ClientCost, ClientCost]> {
  return twoBareClients(
    () => forkServer(serverCpu),
    (url) => forkBareLoop(url, 'plain'),
    runBareWindow,
  );
}

/**
 * The bench's uws echo server and the bare client in two child processes; wsbench
 * measures the same server as a --target, and the bare loop starts when wsbench's window opens.
 */
async function sharedRound(bareKind: BareKind, serverCpu: number | null): Promise<SharedRound> {
  const children: ChildProcess[] = [];
  try {
    const server = forkServer(serverCpu);
    children.push(server);
    const { url } = await reply<{ url: string }>(server);
    const bareClient = forkBareLoop(url, bareKind);
    children.push(bareClient);
    await reply<{ open: true }>(bareClient);
    return await sharedWindow(
      'echo',
      { connections: ECHO_COST.connections, payload: ECHO_COST.payloadBytes, duration: ECHO_COST.durationMs },
      url,
      server,
      bareClient,
    );
  } finally {
    killAll(children);
  }
}

/** A bare loop in its own process, with the V8 settings wsbench's client processes get: measured alike. */
function forkBareLoop(url: string, kind: BareKind): ChildProcess {
  return fork(SELF, ['--role', 'client', url, kind], { execArgv: loadGeneratorExecArgv() });
}

/** The bench's echo server, moved to its own CPU when the bench is pinned (before it listens). */
const forkServer = (cpu: number | null): ChildProcess => forkOnCpu(SELF, ['--role', 'server'], cpu);

/** Opens a bare loop's window and measures it: /proc from outside, as wsbench reads its own client. */
const runBareWindow = async (child: ChildProcess): Promise<ClientCost> => {
  const { messages, windowMs, cpuMs } = await measureBareWindow(child);
  return { messages, windowMs, cpuMs };
};

/** The uws adapter running echo's own server half, outside wsbench's server process. */
async function serveEcho(): Promise<void> {
  const params = {
    connections: ECHO_COST.connections,
    payload: ECHO_COST.payloadBytes,
    duration: ECHO_COST.durationMs,
  };
  const { url } = await serveScenario(echo, params);
  process.send!({ url });
}

/**
 * 50 connections, one 32-byte text message in flight on each: send, count the reply, send
 * again. Nothing else, unless `kind` is same-work (see BareKind).
 */
async function bareLoop(url: string, kind: BareKind): Promise<void> {
  const payload = 'x'.repeat(ECHO_COST.payloadBytes);
  const sockets = await Promise.all(
    Array.from(
      { length: ECHO_COST.connections },
      () =>
        new Promise<WebSocket>((ok, fail) => {
          const socket = new WebSocket(url, { perMessageDeflate: false });
          socket.once('open', () => ok(socket));
          socket.once('error', fail);
        }),
    ),
  );
  let messages = 0;
  let running = false;
  const rtt = new MetricsRegistry().histogram('rtt');
  // Encoded once, framed as text by ws: as wsbench's ws adapter sends a repeated string (same-work only).
  const payloadBytes = Buffer.from(payload);
  const asText = { binary: false };
  // Per socket, when its message in flight left (same-work only).
  const sentUs = new Float64Array(sockets.length);
  for (const [i, socket] of sockets.entries()) {
    if (kind === 'plain') {
      socket.on('message', () => {
        messages += 1;
        if (running) socket.send(payload);
      });
    } else {
      socket.on('message', (data: Buffer) => {
        const nowUs = monotonicUs();
        messages += 1;
        if (running) socket.send(payloadBytes, asText);
        rtt.recordUs(nowUs - sentUs[i]!);
        sentUs[i] = nowUs;
        if (data.byteLength !== ECHO_COST.payloadBytes)
          throw new Error(`a reply of ${data.byteLength} bytes, not ${ECHO_COST.payloadBytes}`);
      });
    }
  }
  process.send!({ open: true });
  process.once('message', () => {
    running = true;
    const startedMs = performance.now();
    for (const [i, socket] of sockets.entries()) {
      sentUs[i] = monotonicUs();
      if (kind === 'plain') socket.send(payload);
      else socket.send(payloadBytes, asText);
    }
    setTimeout(() => {
      running = false;
      const windowMs = performance.now() - startedMs;
      process.send!({ messages, windowMs }, undefined, {}, () => process.exit(0));
    }, ECHO_COST.durationMs);
  });
}

export function renderEchoCost({ rounds, control, againstSameWork, placement }: EchoCost): string {
  const bareUs = median(rounds.map((r) => usPerMessage(r.bare)));
  const wsbenchUs = median(rounds.map((r) => usPerMessage(r.wsbench)));
  const rate = (side: 'bare' | 'wsbench'): number =>
    median(rounds.map((r) => r[side].messages / (r[side].windowMs / 1000)));
  const ratios = rounds.map(roundRatio);
  return [
    `echo at full load, ${ECHO_COST.connections} connections x 1 in flight, ${ECHO_COST.payloadBytes} B, both clients at once on one uws server, ${rounds.length} rounds of ${ECHO_COST.durationMs / 1000} s (medians); ${placement}:`,
    `  bare ws loop (send, count, send)       ${bareUs.toFixed(2)} µs client CPU per message, ${Math.round(rate('bare'))} msg/s, ${Math.round(1e6 / bareUs)} msg per client CPU-second`,
    `  wsbench echo, ws client                ${wsbenchUs.toFixed(2)} µs client CPU per message, ${Math.round(rate('wsbench'))} msg/s, ${Math.round(1e6 / wsbenchUs)} msg per client CPU-second`,
    `  ratio ${median(ratios).toFixed(2)} (median of the rounds' wsbench CPU per message / bare, each round ${ratios.map((r) => r.toFixed(2)).join(' ')}; 1.05 = within 5 %)`,
    ...(control.length
      ? [
          `  control: two bare loops measured the same way, ratio ${median(control).toFixed(2)} (each round ${control.map((r) => r.toFixed(2)).join(' ')}): how far 1.00 reads off when nothing differs`,
        ]
      : []),
    ...(againstSameWork.length
      ? [
          `  against a bare loop doing wsbench's work per message (clock read, histogram record, text sent as bytes as its ws adapter sends it): ratio ${median(againstSameWork).toFixed(2)} (each round ${againstSameWork.map((r) => r.toFixed(2)).join(' ')}): what wsbench's own code adds`,
        ]
      : []),
  ].join('\n');
}

const role = process.argv[2] === '--role' ? process.argv[3] : null;
if (role) exitWithBench();
if (role === 'server') await serveEcho();
else if (role === 'client') await bareLoop(process.argv[4]!, process.argv[5] === 'same-work' ? 'same-work' : 'plain');
else if (process.argv[1] === SELF) {
  const profileAt = process.argv.indexOf('--profile');
  if (profileAt >= 0) {
    await profiledRound(SELF, process.argv[profileAt + 1] ?? 'wsbench-profiles', async (serverCpu) => {
      const round = await sharedRound('plain', serverCpu);
      return [
        {
          marker: 'client-process.js',
          label: `wsbench echo, ${ECHO_COST.connections} connections, uws server, ws client: ${describe(round.wsbench)}`,
        },
        { marker: 'bareLoop', label: `bare ws loop, the same window and server: ${describe(round.bare)}` },
      ];
    });
  } else {
    const cost = await echoCost(ECHO_COST.rounds, (line) => process.stderr.write(`${line}\n`));
    process.stdout.write(`${renderEchoCost(cost)}\n`);
  }
}

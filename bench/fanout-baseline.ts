/**
 * Fan-out at 10,000 clients: what one wsbench fanout client process delivers
 * against one bare `ws` client process (fanout-bare-client.ts) holding as many
 * connections to the same server code, a uws server running fanout's own server
 * half (wsbench measures it as a --target), ticking at fanout's interval.
 *
 * Rounds alternate (ABBA), each on a fresh server, rather than sharing one:
 * both clients at once would put 20,000 connections in the server process, past
 * the open-file limit a shared machine grants (20,000 here, and not raisable
 * without privileges). Where it can, the bench gives the server one CPU and the
 * client the other (cpu-pinning.ts), as the other comparisons do.
 *
 * Both are measured alike: messages received over the streaming time (ticks x
 * interval) as fanout's msg/s reads it, client CPU from /proc over the window
 * (window open to the last tick's arrival), and the one-way delay percentiles.
 *
 * This file is also its server child (`--role server`). Alone:
 * `node dist/bench/fanout-baseline.js` prints the comparison;
 * `node dist/bench/fanout-baseline.js --profile DIR` runs one round of each under
 * --cpu-prof and prints where each client's time went.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fanout from '../scenarios/fanout.js';
import { run } from '../src/parent/index.js';
import { loadGeneratorExecArgv } from '../src/parent/runtimes/load-generator-flags.js';
import { pinForFullLoad } from './cpu-pinning.js';
import {
  exited,
  exitWithBench,
  forkOnCpu,
  killAll,
  measureBareWindow,
  median,
  reply,
  usPerMessage,
  type ClientCost,
} from './bench-children.js';
import { profiledRound } from './profiled-round.js';
import { serveScenario } from './uws-scenario-server.js';

const SELF = fileURLToPath(import.meta.url);
const BARE_CLIENT = fileURLToPath(new URL('./fanout-bare-client.js', import.meta.url));
export const FANOUT_COST = {
  connections: 10_000,
  /** fanout's own default tick. */
  intervalMs: 100,
  durationMs: 5000,
  /** Fast enough that 10,000 connections open in 2 s; both clients pace alike. */
  connectRate: 5000,
  /** Per side; the order alternates (ABBA). Four: a p99 moves with one GC pause in a burst, two rounds' median was one round's luck. */
  rounds: 4,
  /** The goal: one wsbench client process delivers at least this share of a bare one's messages. */
  goalRatio: 0.95,
  /** ... at no more than this much of a bare one's client CPU per message, */
  cpuRatioTarget: 1.05,
  /** ... and a delay p99 no more than this much of a bare one's. */
  delayP99RatioTarget: 1.15,
};
const TICKS = Math.floor(FANOUT_COST.durationMs / FANOUT_COST.intervalMs);
const STREAM_SECONDS = (TICKS * FANOUT_COST.intervalMs) / 1000;

/** One client process over one round. */
export interface FanoutSide extends ClientCost {
  delayP50Ms: number | null;
  delayP99Ms: number | null;
}

export interface FanoutBaseline {
  wsbench: FanoutSide[];
  bare: FanoutSide[];
  placement: string;
}

/** Messages delivered per second of streaming, as fanout's msg/s metric counts them. */
export const deliveredPerSec = (side: FanoutSide): number => side.messages / STREAM_SECONDS;

export async function fanoutBaseline(
  rounds = FANOUT_COST.rounds,
  log: (line: string) => void = () => undefined,
): Promise<FanoutBaseline> {
  const pinning = pinForFullLoad();
  const placement =
    typeof pinning === 'string'
      ? `not pinned (${pinning})`
      : `server on CPU ${pinning.serverCpu}, the client on CPU ${pinning.clientCpu}`;
  const serverCpu = typeof pinning === 'string' ? null : pinning.serverCpu;
  const wsbench: FanoutSide[] = [];
  const bare: FanoutSide[] = [];
  const take = async (kind: 'wsbench' | 'bare', round: number): Promise<void> => {
    const side = kind === 'wsbench' ? await wsbenchRound(serverCpu) : await bareRound(serverCpu);
    (kind === 'wsbench' ? wsbench : bare).push(side);
    log(`round ${round + 1}/${rounds} ${kind}: ${describeSide(side)}`);
  };
  try {
    for (let round = 0; round < rounds; round++) {
      // ABBA: each side goes first as often.
      const order: Array<'wsbench' | 'bare'> = round % 2 === 0 ? ['wsbench', 'bare'] : ['bare', 'wsbench'];
      for (const kind of order) await take(kind, round);
    }
    return { wsbench, bare, placement };
  } finally {
    if (typeof pinning !== 'string') pinning.release();
  }
}

async function withServer<T>(
  serverCpu: number | null,
  body: (url: string, server: ChildProcess, children: ChildProcess[]) => Promise<T>,
): Promise<T> {
  const children: ChildProcess[] = [];
  try {
    const server = forkOnCpu(SELF, ['--role', 'server'], serverCpu);
    children.push(server);
    const { url } = await reply<{ url: string }>(server);
    return await body(url, server, children);
  } finally {
    killAll(children);
  }
}

function wsbenchRound(serverCpu: number | null): Promise<FanoutSide> {
  return withServer(serverCpu, async (url, server) => {
    const result = await run({
      scenario: 'fanout',
      targets: [{ name: 'bench-uws', url, pid: server.pid! }],
      clients: ['ws'],
      params: {
        connections: FANOUT_COST.connections,
        interval: FANOUT_COST.intervalMs,
        duration: FANOUT_COST.durationMs,
        connectRate: FANOUT_COST.connectRate,
      },
    });
    const [cell] = result.cells;
    if (cell?.status !== 'ok') throw new Error(`wsbench fanout cell ${cell?.status}: ${cell?.reason}`);
    const client = cell.resources.clients[0];
    if (!client || cell.resources.clients.length !== 1)
      throw new Error('wsbench fanout cell: not one measured client process');
    const windowMs = cell.measurements.windowMs;
    return {
      messages: cell.measurements.counters.received ?? 0,
      windowMs,
      cpuMs: (client.cpuPercent.mean / 100) * windowMs,
      delayP50Ms: cell.metrics.delayP50Ms ?? null,
      delayP99Ms: cell.metrics.delayP99Ms ?? null,
    };
  });
}

function bareRound(serverCpu: number | null): Promise<FanoutSide> {
  return withServer(serverCpu, async (url, _server, children) => {
    const args = [url, FANOUT_COST.connections, TICKS, FANOUT_COST.intervalMs, FANOUT_COST.connectRate].map(String);
    // The V8 settings of wsbench's client processes: measured alike.
    const client = forkOnCpu(BARE_CLIENT, args, null, { execArgv: loadGeneratorExecArgv() });
    children.push(client);
    await reply<{ open: true }>(client);
    const percentiles = new Promise<{ delayMs: { p50: number | null; p99: number | null } }>((resolve) => {
      client.once('message', () => client.once('message', (m) => resolve(m as never)));
    });
    const cost = await measureBareWindow(client);
    const { delayMs } = await percentiles;
    await exited(client);
    return {
      messages: cost.messages,
      windowMs: cost.windowMs,
      cpuMs: cost.cpuMs,
      delayP50Ms: delayMs.p50,
      delayP99Ms: delayMs.p99,
    };
  });
}

const ms = (value: number | null): string => (value === null ? 'no samples' : `${value.toFixed(1)} ms`);

function describeSide(side: FanoutSide): string {
  return `${Math.round(deliveredPerSec(side))} msg/s delivered, ${usPerMessage(side).toFixed(2)} µs client CPU per message at ${Math.round((side.cpuMs / side.windowMs) * 100)} % CPU, delay p50 ${ms(side.delayP50Ms)} p99 ${ms(side.delayP99Ms)}`;
}

export function renderFanoutBaseline({ wsbench, bare, placement }: FanoutBaseline): string {
  const m = (list: FanoutSide[], f: (s: FanoutSide) => number | null): number | null => {
    const values = list.map(f).filter((v): v is number => v !== null);
    return values.length ? median(values) : null;
  };
  const line = (label: string, list: FanoutSide[]): string =>
    `  ${label.padEnd(36)} ${Math.round(m(list, deliveredPerSec)!)} msg/s delivered, ${m(list, usPerMessage)!.toFixed(2)} µs client CPU per message, delay p50 ${ms(m(list, (s) => s.delayP50Ms))} p99 ${ms(m(list, (s) => s.delayP99Ms))}`;
  const delivered = m(wsbench, deliveredPerSec)! / m(bare, deliveredPerSec)!;
  const cpu = m(wsbench, usPerMessage)! / m(bare, usPerMessage)!;
  const p99Of = (list: FanoutSide[]): number | null => m(list, (s) => s.delayP99Ms);
  const wsbenchP99 = p99Of(wsbench);
  const bareP99 = p99Of(bare);
  const delayP99 = wsbenchP99 !== null && bareP99 !== null && bareP99 > 0 ? wsbenchP99 / bareP99 : null;
  const offered = (FANOUT_COST.connections * 1000) / FANOUT_COST.intervalMs;
  const verdict = (ratio: number | null, within: (r: number) => boolean): string =>
    ratio === null ? 'not measured (no samples)' : within(ratio) ? 'met' : 'NOT MET';
  // A verdict only beside its noise: when the bare client's own rounds differ by more than the target allows, say so.
  const noise = (f: (s: FanoutSide) => number | null, target: number): string => {
    const own = ownSpread(bare, f);
    return own !== null && own > target
      ? `; but the bare client's own rounds differ by ${own.toFixed(2)}x, more than the target allows: within the noise`
      : '';
  };
  return [
    `fan-out, ${FANOUT_COST.connections} connections in one client process, a uws server ticking every ${FANOUT_COST.intervalMs} ms (${offered} msg/s offered), ${TICKS} ticks, ${bare.length} alternating rounds each (medians); ${placement}:`,
    line('bare ws client process', bare),
    line('wsbench fanout, ws client', wsbench),
    `  delivered ratio ${delivered.toFixed(2)} (goal >= ${FANOUT_COST.goalRatio}: ${verdict(delivered, (r) => r >= FANOUT_COST.goalRatio)})`,
    `  client CPU per message ratio ${cpu.toFixed(2)} (wsbench / bare; target <= ${FANOUT_COST.cpuRatioTarget}: ${verdict(cpu, (r) => r <= FANOUT_COST.cpuRatioTarget)}${noise(usPerMessage, FANOUT_COST.cpuRatioTarget)})`,
    `  delay p99 ratio ${delayP99 === null ? '-' : delayP99.toFixed(2)} (wsbench / bare; target <= ${FANOUT_COST.delayP99RatioTarget}: ${verdict(delayP99, (r) => r <= FANOUT_COST.delayP99RatioTarget)}${noise((s) => s.delayP99Ms, FANOUT_COST.delayP99RatioTarget)})`,
    // The noise beside the verdicts: how far the same client moved between its own rounds.
    `  round to round, the same client: bare ${spread(bare, usPerMessage, 'µs')} CPU per message, p99 ${spread(bare, (s) => s.delayP99Ms, 'ms')}; wsbench ${spread(wsbench, usPerMessage, 'µs')}, p99 ${spread(wsbench, (s) => s.delayP99Ms, 'ms')}`,
  ].join('\n');
}

/** Highest over lowest of one side's rounds (1 when they agree); null without two values above 0. */
function ownSpread(list: FanoutSide[], f: (s: FanoutSide) => number | null): number | null {
  const values = list.map(f).filter((v): v is number => v !== null && v > 0);
  return values.length < 2 ? null : Math.max(...values) / Math.min(...values);
}

/** The lowest and highest of one side's rounds, e.g. `5.12-5.40 µs`. */
function spread(list: FanoutSide[], f: (s: FanoutSide) => number | null, unit: string): string {
  const values = list.map(f).filter((v): v is number => v !== null);
  if (values.length === 0) return 'no samples';
  const digits = unit === 'µs' ? 2 : 1;
  return `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)} ${unit}`;
}

/** The uws adapter running fanout's own server half, outside wsbench's server process. */
async function serveTicks(): Promise<void> {
  const params = {
    connections: FANOUT_COST.connections,
    interval: FANOUT_COST.intervalMs,
    duration: FANOUT_COST.durationMs,
    connectRate: FANOUT_COST.connectRate,
    connectTimeout: 10_000,
    sourceAddresses: 0,
  };
  const { url } = await serveScenario(fanout, params);
  process.send!({ url });
}

const role = process.argv[2] === '--role' ? process.argv[3] : null;
if (role) exitWithBench();
if (role === 'server') await serveTicks();
else if (process.argv[1] === SELF && process.argv.includes('--profile')) {
  await profiledRound(
    SELF,
    process.argv[process.argv.indexOf('--profile') + 1] ?? 'wsbench-profiles',
    async (serverCpu) => [
      // ws hands every message to its listener through receiverOnMessage: the streaming, in both clients.
      {
        marker: 'client-process.js',
        label: `wsbench fanout client: ${describeSide(await wsbenchRound(serverCpu))}`,
        window: 'receiverOnMessage',
      },
      {
        marker: 'fanout-bare-client.js',
        label: `bare client, the next round: ${describeSide(await bareRound(serverCpu))}`,
        window: 'receiverOnMessage',
      },
    ],
  );
} else if (process.argv[1] === SELF) {
  const result = await fanoutBaseline(FANOUT_COST.rounds, (line) => process.stderr.write(`fanout ${line}\n`));
  process.stdout.write(`${renderFanoutBaseline(result)}\n`);
}

/**
 * What every client-cost comparison of `npm run bench` does with its child
 * processes: forks them (a server on its own CPU when the bench is pinned),
 * waits for their replies with a deadline, and measures a bare client's window
 * from /proc, from outside, as wsbench measures its own client processes.
 */
import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { ProcSampler } from '../src/parent/measure/proc-sampler.js';
import { pinToCpu } from './cpu-pinning.js';

/** No child stays quiet longer than this: a window, a connect phase of 10,000 connections, a drain. */
const CHILD_TIMEOUT_MS = 60_000;

/** One client process over one window, measured alike whichever client it is. */
export interface ClientCost {
  messages: number;
  windowMs: number;
  /** Client process CPU time over the window, from /proc. */
  cpuMs: number;
}

/** CPU microseconds per message received. */
export const usPerMessage = (c: ClientCost): number => (c.cpuMs * 1000) / c.messages;
export const messagesPerSec = (c: ClientCost): number => c.messages / (c.windowMs / 1000);

/** Messages per second at percent of one core and CPU per message, for a progress line. */
export function describe(c: ClientCost): string {
  return `${Math.round(messagesPerSec(c))} msg/s at ${Math.round((c.cpuMs / c.windowMs) * 100)} % CPU, ${usPerMessage(c).toFixed(2)} µs/msg`;
}

/** The next message from a child; rejects when it exits first or stays quiet past the deadline. */
export function reply<T>(child: ChildProcess, timeoutMs = CHILD_TIMEOUT_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('bench child went quiet')), timeoutMs);
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`bench child exited with code ${code}`));
    };
    child.once('message', (message) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(message as T);
    });
    child.once('exit', onExit);
  });
}

/** A child moved to `cpu` right after it starts (before it listens), or left where the bench runs when `cpu` is null. */
export function forkOnCpu(module: string, args: string[], cpu: number | null, options: ForkOptions = {}): ChildProcess {
  const child = fork(module, args, options);
  if (cpu !== null && child.pid !== undefined && !pinToCpu(child.pid, cpu)) {
    child.kill();
    throw new Error(`taskset could not move a bench child to CPU ${cpu}`);
  }
  return child;
}

/**
 * Opens a bare client's window ("go") and measures it: the client replies
 * `{ messages, windowMs }` when its window ends; its CPU is read from /proc meanwhile.
 */
export async function measureBareWindow<R extends { messages: number; windowMs: number }>(
  child: ChildProcess,
): Promise<ClientCost & { reply: R }> {
  const sampler = new ProcSampler(child.pid!);
  sampler.start();
  const done = reply<R>(child);
  child.send('go');
  const result = await done;
  const stats = sampler.stop();
  if (!stats) throw new Error('bare client: /proc could not be read');
  return {
    messages: result.messages,
    windowMs: result.windowMs,
    cpuMs: (stats.cpuPercent.mean / 100) * result.windowMs,
    reply: result,
  };
}

/** Lets a child end by itself (a profiled one writes its profile then), within a bound. */
export function exited(child: ChildProcess): Promise<unknown> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done(null);
    child.once('exit', done);
    setTimeout(done, 3000).unref();
  });
}

/** Kills what a round started, whatever happened in it. */
export function killAll(children: ChildProcess[]): void {
  for (const child of children) child.kill();
}

/** The middle value; the mean of the two middle ones for an even count. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A bench child's own end: a child whose parent is gone has nobody to report to. */
export function exitWithBench(): void {
  process.on('disconnect', () => process.exit(0));
}

/** A comparison's control: two bare clients at once on one server, each measured as the compared pair's clients are. */
export async function twoBareClients<R>(
  startServer: () => ChildProcess,
  startClient: (url: string) => ChildProcess,
  measure: (client: ChildProcess) => Promise<R>,
): Promise<[R, R]> {
  const children: ChildProcess[] = [];
  try {
    const server = startServer();
    children.push(server);
    const { url } = await reply<{ url: string }>(server);
    const clients = [startClient(url), startClient(url)];
    children.push(...clients);
    await Promise.all(clients.map((client) => reply<{ open: true }>(client)));
    const [first, second] = await Promise.all(clients.map((client) => measure(client)));
    return [first!, second!];
  } finally {
    killAll(children);
  }
}

/**
 * Forks the server and client processes, routes their IPC messages, and makes
 * sure none of them outlives wsbench.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { FromChild, ProgressMessage, SiblingMessage, ToChild } from '../child/ipc.js';
import type { ProcessReport, Runtime } from '../shared/types/result-types.js';
import { childLaunch } from './runtimes/launch.js';
import { untilEvent } from './until-event.js';

const STDERR_TAIL_BYTES = 4096;
/** How long an exited child's IPC channel may take to hand over what is still in it. */
const CHANNEL_END_WAIT_MS = 2000;
const live = new Set<ChildProcess>();

// Last line of defence: whatever path the orchestrator leaves by, children die with it.
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/**
 * A child said it failed, died, or went quiet; `report` holds what it measured before,
 * `atEpochMs` when it happened (its exit, or its failure message), null when not known.
 */
export class ChildFailure extends Error {
  constructor(
    message: string,
    readonly report?: ProcessReport,
    readonly atEpochMs: number | null = null,
  ) {
    super(message);
  }
}

/**
 * One forked child with an inbox for its messages. Bun and Deno children are
 * forked too (execPath set to their binary): both speak Node's IPC protocol
 * with JSON serialization.
 */
export class ManagedChild {
  readonly process: ChildProcess;
  private stderrTail = '';
  private readonly inbox: Array<{ message: FromChild; atEpochMs: number }> = [];
  private readonly waiters = new Set<() => void>();
  private exitInfo: string | null = null;
  /** When the process exited (epoch ms); null while it runs. */
  exitedAtEpochMs: number | null = null;
  readonly exited: Promise<void>;
  /** Called for every progress message. */
  onProgress: ((message: ProgressMessage) => void) | null = null;
  /** Called when a client says its measurement window closed. */
  onWindowClosed: (() => void) | null = null;
  /** True while every connection of this client process is lost, as it last said. */
  connectionsAllLost = false;
  /** Called when a server process tells its siblings something (ctx.tellSiblings). */
  onSibling: ((message: SiblingMessage) => void) | null = null;

  /** `role` names the child in failure reasons ("client 2"); `kind` decides how it is launched. */
  constructor(
    readonly role: string,
    kind: 'server' | 'client',
    entry: string,
    runtime: Runtime = 'node',
  ) {
    const launch = childLaunch(runtime, kind);
    this.process = fork(entry, [], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
      env: { ...process.env, ...launch.env, WSBENCH_ROLE: role },
      ...(launch.execPath
        ? { execPath: launch.execPath, execArgv: launch.execArgv ?? [] }
        : launch.execArgv
          ? { execArgv: launch.execArgv }
          : {}),
    });
    live.add(this.process);
    // Without a listener a failed IPC write would crash wsbench instead of failing the cell.
    this.process.on('error', () => undefined);
    this.process.stdout?.resume(); // scenario console.log must not block the child
    this.process.stderr?.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_BYTES);
    });
    this.process.on('message', (message: FromChild) => {
      if (message.type === 'progress') {
        this.onProgress?.(message);
        return;
      }
      if (message.type === 'window-closed') {
        this.onWindowClosed?.();
        return;
      }
      if (message.type === 'connections') {
        this.connectionsAllLost = message.allLost;
        return;
      }
      if (message.type === 'sibling') {
        this.onSibling?.(message);
        return;
      }
      this.inbox.push({ message, atEpochMs: Date.now() });
      this.wake();
    });
    this.exited = new Promise((resolve) => {
      this.process.on('exit', (code, signal) => {
        live.delete(this.process);
        this.exitedAtEpochMs = Date.now();
        // A child sends its report and exits at once: the exit can be seen before the
        // report is read off the channel. The exit counts once the channel has ended.
        const channelEnded = this.process.connected
          ? untilEvent(this.process, 'disconnect', CHANNEL_END_WAIT_MS)
          : Promise.resolve();
        void channelEnded.then(() => {
          this.exitInfo = signal ? `killed by ${signal}` : `exited with code ${code}`;
          this.wake();
          resolve();
        });
      });
    });
  }

  /** A child that died between the check and the write makes send fail (EPIPE); its exit tells the story. */
  send(message: ToChild): void {
    if (this.process.connected) this.process.send(message, undefined, {}, () => undefined);
  }

  /** Last lines the child wrote to stderr, for failure reasons. */
  stderr(): string {
    return this.stderrTail.trim();
  }

  /**
   * Waits for a message of `type`. A `failed` message, the child's exit or the
   * timeout rejects with a reason fit for a cell.
   */
  async waitFor<T extends FromChild['type']>(
    type: T,
    timeoutMs: number,
    what: string,
    signal?: AbortSignal,
  ): Promise<Extract<FromChild, { type: T }>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (signal?.aborted) throw new ChildFailure('interrupted');
      const index = this.inbox.findIndex(({ message: m }) => m.type === type || m.type === 'failed');
      if (index >= 0) {
        const { message, atEpochMs } = this.inbox.splice(index, 1)[0]!;
        if (message.type === 'failed' && type !== 'failed')
          throw new ChildFailure(`${this.role}: ${message.reason}`, message.report, atEpochMs);
        return message as Extract<FromChild, { type: T }>;
      }
      if (this.exitInfo) {
        const tail = lastLine(this.stderr());
        throw new ChildFailure(
          `${this.role} ${this.exitInfo} before ${what}${tail ? `: ${tail}` : ''}`,
          undefined,
          this.exitedAtEpochMs,
        );
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new ChildFailure(`${this.role}: no ${what} within ${Math.round(timeoutMs / 1000)}s`);
      await this.nextEvent(remaining, signal);
    }
  }

  /** Resolves when a message arrives, the child exits or `signal` aborts, or after `ms`. */
  private nextEvent(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      // Beyond 2^31-1 ms Node fires at once; waitFor loops until its real deadline.
      const timer = setTimeout(done, Math.min(ms, 2 ** 31 - 1));
      this.waiters.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  /** Asks politely (disconnect makes the child exit), then SIGKILL after `graceMs`. */
  async stop(graceMs = 2000): Promise<void> {
    if (this.exitInfo) return;
    if (this.process.connected) this.process.disconnect();
    const timer = setTimeout(() => this.process.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/**
 * The line of a child's stderr that says what went wrong: the message line of a
 * printed error ("TypeError: x", "Error [ERR_X]: y"), not the source line above it
 * that happens to contain "Error"; else the last line.
 */
function lastLine(text: string): string {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const messageLine = [...lines].reverse().find((l) => /^[A-Za-z]*(Error|Exception)( \[[A-Z_]+\])?: /.test(l));
  return (messageLine ?? lines.at(-1) ?? '').slice(0, 300);
}

/** Other things to kill with the children (servers started by command: their groups and cgroups). */
const otherKillers = new Set<() => void>();

/** Adds `kill` to what killAllChildren() does; returns the function that removes it again. */
export function killWithChildren(kill: () => void): () => void {
  otherKillers.add(kill);
  return () => otherKillers.delete(kill);
}

/** Kills every child still alive, and every server started by command (a forced stop after an interrupt). */
export function killAllChildren(): void {
  for (const child of live) child.kill('SIGKILL');
  for (const kill of otherKillers) kill();
}

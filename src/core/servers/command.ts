/**
 * --server-cmd: a server wsbench starts for one cell by running a command, in
 * any language. It leads its own process group, so stopping it (SIGTERM, then
 * SIGKILL after a grace period) reaches every process it started; a watchdog
 * beside it kills the group if wsbench itself is SIGKILLed, and an exit hook
 * does so on every other way out. Its whole process tree is sampled for CPU
 * and RSS, the way wsbench's own servers are.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { watchParent } from '../parent-watchdog.js';
import { processTree } from '../proc-sampler.js';
import type { ParamValues } from '../../declaration-types.js';
import type { CellServer, CellTls, CommandSpec, ServerReport, StartedServer } from './types.js';
import { httpOriginOf, urlWithParams } from './foreign-url.js';
import { fillPlaceholders, plainArgv, printedPort } from './command-text.js';
import { ProbeFailure, probeServer } from './probe.js';
import { ForeignWindow } from './foreign-window.js';

const STOP_GRACE_MS = 3000;
const POLL_MS = 50;
const STDERR_TAIL_BYTES = 8192;

const live = new Set<ChildProcess>();
// Whatever way wsbench leaves (an error, process.exit), no command's group outlives it.
process.on('exit', () => {
  for (const child of live) killGroup(child.pid!, 'SIGKILL');
});

export interface CommandCell {
  host: string;
  scenario: string;
  params: ParamValues;
  /** The run's certificate files for {cert} and {key}, and what the probe and stats reader trust. */
  tls?: CellTls;
}

export class CommandServer implements CellServer {
  private child: ChildProcess | null = null;
  private exitInfo: string | null = null;
  private exited: Promise<void> = Promise.resolve();
  private stderrTail = '';
  private outputPort: number | null = null;
  private wake: () => void = () => undefined;
  private readonly window: ForeignWindow;
  private readonly extraNotes: string[] = [];

  constructor(private readonly spec: CommandSpec, private readonly cell: CommandCell) {
    this.window = new ForeignWindow(cell.scenario, cell.tls?.client);
  }

  async start(signal: AbortSignal): Promise<StartedServer> {
    const { host } = this.cell;
    const port = this.spec.port.from === 'placeholder' ? await freePort(host) : this.spec.port.from === 'command' ? this.spec.port.port : null;
    if (port !== null && this.spec.port.from === 'command' && !(await isFree(host, port))) {
      throw new Error(`${this.spec.name}: port ${port} is already in use on ${host}, by a process wsbench did not start`);
    }
    const text = fillPlaceholders(this.spec.command, { host, port, ...(this.cell.tls?.files ? { files: this.cell.tls.files } : {}) });
    this.spawn(text);
    const deadline = Date.now() + this.spec.startTimeoutMs;
    let where = port;
    for (;;) {
      if (signal.aborted) throw new Error('interrupted');
      if (this.exitInfo) {
        const line = this.lastLine();
        throw new Error(`${this.spec.name} ${this.exitInfo}${this.child?.pid === undefined ? '' : ` before listening${line ? `: ${line}` : ''}`}`);
      }
      where ??= this.outputPort;
      if (Date.now() >= deadline) {
        const line = this.lastLine();
        const what = where === null ? 'printed no port' : `was not listening on ${host}:${where}`;
        throw new Error(`${this.spec.name} ${what} within ${this.spec.startTimeoutMs / 1000}s; ${line ? `last line on stderr: ${line}` : 'it printed nothing on stderr'}`);
      }
      if (where !== null) {
        const url = urlWithParams(fillPlaceholders(this.spec.urlTemplate, { host, port: where }), this.cell.scenario, this.cell.params);
        try {
          const tls = this.cell.tls?.client ? { tls: this.cell.tls.client } : {};
          await probeServer(url, this.spec.protocol, { timeoutMs: Math.max(1, Math.min(5000, deadline - Date.now())), holdMs: 250, ...tls });
          const started = { url, httpUrl: httpOriginOf(url), pid: this.child!.pid!, tree: true };
          this.window.httpOrigin = started.httpUrl;
          return started;
        } catch (error) {
          if (!(error instanceof ProbeFailure) || !error.refused) {
            // A server that died while answering says why on stderr.
            if (this.exitInfo) continue;
            throw new Error(`${this.spec.name}: ${(error as Error).message}`);
          }
        }
      }
      await this.nextEvent(POLL_MS, signal);
    }
  }

  windowOpen(): Promise<void> {
    return this.window.open();
  }

  report(): Promise<ServerReport | null> {
    return this.window.report();
  }

  notes(): string[] {
    return [...this.extraNotes, ...this.window.notes];
  }

  /** SIGTERM to the group, SIGKILL after the grace period, then SIGKILL to whatever of the group is left. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    const members = processTree(child.pid);
    if (!this.exitInfo) {
      killGroup(child.pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), STOP_GRACE_MS);
      await this.exited;
      clearTimeout(timer);
    }
    // Members that ignored SIGTERM, or left the group's leader behind.
    killGroup(child.pid, 'SIGKILL');
    for (const pid of members) if (pid !== child.pid) killPid(pid);
    live.delete(child);
  }

  private spawn(text: string): void {
    const argv = plainArgv(text);
    if (!argv) this.extraNotes.push(`${this.spec.name} was started through /bin/sh (its command uses shell syntax): the shell's memory counts in the server's RSS`);
    // detached: its own process group (and session), so a terminal's Ctrl+C reaches wsbench alone and wsbench stops it in order.
    const child = argv
      ? spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn('/bin/sh', ['-c', text], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exitInfo ??= signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.wake();
        resolve();
      });
      child.once('error', (error: NodeJS.ErrnoException) => {
        this.exitInfo = `could not be started (${error.code === 'ENOENT' ? `${argv?.[0]}: command not found` : error.message})`;
        this.wake();
        resolve();
      });
    });
    if (child.pid === undefined) return;
    live.add(child);
    watchParent(child.pid, process.pid, true);
    let stdoutRest = '';
    let stderrRest = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdoutRest = this.scanLines(stdoutRest + chunk.toString())));
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-STDERR_TAIL_BYTES);
      stderrRest = this.scanLines(stderrRest + chunk.toString());
    });
  }

  /** Looks for the printed port in complete lines; returns the unfinished rest. */
  private scanLines(text: string): string {
    const lines = text.split('\n');
    const rest = lines.pop()!;
    if (this.spec.port.from === 'output' && this.outputPort === null) {
      for (const line of lines) {
        this.outputPort = printedPort(line);
        if (this.outputPort !== null) {
          this.wake();
          break;
        }
      }
    }
    return rest.slice(-STDERR_TAIL_BYTES);
  }

  private lastLine(): string {
    const lines = this.stderrTail.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    return (lines.at(-1) ?? '').slice(0, 300);
  }

  /** Resolves after `ms`, or sooner when the server exits, prints its port, or the cell is interrupted. */
  private nextEvent(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = () => undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/** A port nothing listens on right now: bind port 0 on `host`, read the port, close. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function isFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

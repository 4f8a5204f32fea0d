/**
 * --server-cmd: a server wsbench starts for one cell by running a command, in
 * any language. It leads its own process group, and runs in a cgroup of its
 * own where the machine allows one (server-cgroup.ts), so stopping it
 * (SIGTERM, then SIGKILL after a grace period) reaches every process it
 * started, even one that left the group (setsid, a double fork); without a
 * cgroup, such a process is found by the port it listens on. A watchdog
 * beside it kills all of it if wsbench itself is SIGKILLed, and an exit hook
 * does so on every other way out. All of it is sampled for CPU and RSS, the
 * way wsbench's own servers are.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { watchParent } from '../../child/parent-watchdog.js';
import { CLOCK_TICKS, processTree } from '../measure/proc-sampler.js';
import { ChildFailure, killWithChildren } from '../child-processes.js';
import { untilEvent } from '../until-event.js';
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { CellServer, CellTls, CommandSpec, ServerReport, StartedServer } from './types.js';
import { httpOriginOf, urlWithParams } from './foreign-url.js';
import { fillPlaceholders, plainArgv, printedPort } from './command-text.js';
import { ProbeFailure, probeServer } from './probe.js';
import { ForeignWindow } from './foreign-window.js';
import { ServerCgroup } from './server-cgroup.js';
import { groupOf, listenersOn, startTicks } from './port-listeners.js';
import { hostText } from '../../shared/listen-address.js';

const STOP_GRACE_MS = 3000;
const POLL_MS = 50;
const STDERR_TAIL_BYTES = 8192;
/** How long an exited command's stderr may take to hand over its last lines (a daemon it left keeps it open). */
const STDERR_END_WAIT_MS = 1000;
/**
 * A command that exits with this code before it listens says it cannot run here (a broker that is
 * not installed): its cell is n/a with the last line it printed, as an unavailable stack's is.
 * The code is the one automake's test harness reads as "skipped".
 */
const CANNOT_RUN_HERE_EXIT_CODE = 77;

/** A server command said it cannot run here (exit code 77 before listening); the cell is skipped with `message`. */
export class ServerUnavailable extends Error {}

const live = new Set<CommandServer>();
// Whatever way wsbench leaves (an error, process.exit), no command's group or cgroup outlives it.
process.on('exit', () => {
  for (const server of live) server.killAll();
});

interface CommandCell {
  host: string;
  scenario: string;
  params: ParamValues;
  /** The run's certificate files for {cert} and {key}, and what the probe and stats reader trust. */
  tls?: CellTls;
  /** Whether the scenario declares server-side metrics (the stats route's note is said only then). */
  serverMetrics?: boolean;
  /** The WebSocket subprotocols the cell's clients offer: the probe offers them too. */
  subprotocols?: string[];
}

export class CommandServer implements CellServer {
  private child: ChildProcess | null = null;
  private exitInfo: string | null = null;
  private exitCode: number | null = null;
  private exitedAtEpochMs: number | null = null;
  /** Null where none could be made (the note says why). */
  private cgroup: ServerCgroup | null = null;
  /** Without a cgroup: processes listening on the server's port outside its process tree (they left it). */
  private strays: number[] = [];
  private port: number | null = null;
  /** When its first process started (clock ticks after boot): a listener started later on its port is its own. */
  private startTicks: number | null = null;
  private cgroupMissing = '';
  private readonly watched = new Set<number>();
  private forgetKill: () => void = () => undefined;
  private exited: Promise<void> = Promise.resolve();
  private stderrTail = '';
  private outputPort: number | null = null;
  private wake: () => void = () => undefined;
  private readonly window: ForeignWindow;
  private readonly extraNotes: string[] = [];

  constructor(
    private readonly spec: CommandSpec,
    private readonly cell: CommandCell,
  ) {
    this.window = new ForeignWindow(cell.scenario, cell.tls?.client, cell.serverMetrics === false);
  }

  async start(signal: AbortSignal): Promise<StartedServer> {
    const { host } = this.cell;
    const port =
      this.spec.port.from === 'placeholder'
        ? await freePort(host)
        : this.spec.port.from === 'command'
          ? this.spec.port.port
          : null;
    if (port !== null && this.spec.port.from === 'command' && !(await isFree(host, port))) {
      throw new Error(
        `${this.spec.name}: port ${port} is already in use on ${host}, by a process wsbench did not start`,
      );
    }
    const text = fillPlaceholders(this.spec.command, {
      host,
      port,
      ...(this.cell.tls?.files ? { files: this.cell.tls.files } : {}),
    });
    this.spawn(text);
    const deadline = Date.now() + this.spec.startTimeoutMs;
    let where = port;
    for (;;) {
      if (signal.aborted) throw new Error('interrupted');
      where ??= this.outputPort;
      this.port = where;
      // A launcher that exits and leaves its server running (a daemon) has not failed: in its cgroup, or,
      // without one, on its port (exit code 0: a daemon may still be on its way there, until the deadline).
      if (this.exitInfo && !this.daemonRuns() && !(this.cgroup === null && this.exitCode === 0 && where !== null)) {
        const line = this.lastLine();
        if (this.exitCode === CANNOT_RUN_HERE_EXIT_CODE)
          throw new ServerUnavailable(
            `${this.spec.name}: ${line || `cannot run here (it exited with code ${CANNOT_RUN_HERE_EXIT_CODE})`}`,
          );
        throw new Error(
          `${this.spec.name} ${this.exitInfo}${this.child?.pid === undefined ? '' : ` before listening${line ? `: ${line}` : ''}`}`,
        );
      }
      if (Date.now() >= deadline) {
        const line = this.lastLine();
        const what =
          where === null
            ? 'printed no port'
            : `${this.exitInfo ? `${this.exitInfo}, and nothing ` : ''}was not listening on ${hostText(host)}:${where}`;
        throw new Error(
          `${this.spec.name} ${what} within ${this.spec.startTimeoutMs / 1000}s; ${line ? `last line on stderr: ${line}` : 'it printed nothing on stderr'}`,
        );
      }
      if (where !== null) {
        const url = urlWithParams(
          // In a URL an IPv6 address goes in brackets; the command gets it bare, as a server's --host takes it.
          fillPlaceholders(this.spec.urlTemplate, { host: hostText(host), port: where }),
          this.cell.scenario,
          this.cell.params,
        );
        try {
          const tls = this.cell.tls?.client ? { tls: this.cell.tls.client } : {};
          const { answeredAtUs } = await probeServer(url, this.spec.protocol, {
            timeoutMs: Math.max(1, Math.min(5000, deadline - Date.now())),
            holdMs: 250,
            signal,
            protocols: this.cell.subprotocols ?? [],
            ...tls,
          });
          const started = this.sampled(url);
          this.window.httpOrigin = started.httpUrl;
          // Serving since its first answered handshake: the probe's hold after it is a check, not start-up time.
          return { ...started, servingAtUs: answeredAtUs };
        } catch (error) {
          if (signal.aborted) throw new Error('interrupted');
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

  windowOpen(signal: AbortSignal): Promise<void> {
    return this.window.open(signal);
  }

  /** Rejects when the server died during the cell (its command exited, and no daemon of it runs on). */
  async report(): Promise<ServerReport | null> {
    const report = await this.window.report();
    if (this.gone()) throw new ChildFailure(`${this.spec.name} ${this.exitInfo}`, undefined, this.exitedAtEpochMs);
    return report;
  }

  /** Its command exited, and nothing it left behind (a daemon in its cgroup or on its port) runs on. */
  gone(): boolean {
    return this.exitInfo !== null && !this.daemonRuns();
  }

  notes(): string[] {
    return [...this.extraNotes, ...this.window.notes];
  }

  /**
   * SIGTERM to the group (and to every process of its cgroup), SIGKILL after the grace period, then
   * SIGKILL to whatever is left: the group, its cgroup, the tree it had, and what listens on its port.
   */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    const members = processTree(child.pid);
    if (!this.exitInfo || this.daemonRuns()) {
      killGroup(child.pid, 'SIGTERM');
      for (const pid of [...(this.cgroup?.members() ?? []), ...this.strays]) killPid(pid, 'SIGTERM');
      const timer = setTimeout(() => this.killAll(), STOP_GRACE_MS);
      await Promise.race([this.exited.then(() => this.daemonGone(STOP_GRACE_MS + 500)), delay(STOP_GRACE_MS + 500)]);
      clearTimeout(timer);
    }
    // Members that ignored SIGTERM, or left the group's leader behind.
    this.killAll();
    for (const pid of members) if (pid !== child.pid) killPid(pid);
    if (this.cgroup && !(await this.cgroup.remove()))
      this.extraNotes.push(`${this.spec.name}: its cgroup ${this.cgroup.path} could not be emptied`);
    else if (!this.cgroup) this.stopLeftListeners(child.pid);
    live.delete(this);
    this.forgetKill();
  }

  /** SIGKILL to the group, the cgroup and the processes found by the port. */
  killAll(): void {
    if (this.child?.pid) killGroup(this.child.pid, 'SIGKILL');
    this.cgroup?.kill();
    for (const pid of this.strays) killPid(pid);
  }

  /** True while processes it started run on after its own process exited (in its cgroup, or found by its port). */
  private daemonRuns(): boolean {
    if (this.cgroup) return this.cgroup.members().length > 0;
    this.strays = this.strays.filter((pid) => startTicks(pid) !== null);
    if (this.strays.length === 0) this.keepStrays(this.portStrays());
    return this.strays.length > 0;
  }

  /** Strays go with wsbench whatever way it leaves: each gets a watchdog of its own. */
  private keepStrays(pids: number[]): void {
    for (const pid of pids) if (!this.watched.has(pid)) watchParent(pid, process.pid, 'stray');
    pids.forEach((pid) => {
      this.watched.add(pid);
    });
    this.strays = pids;
  }

  /** Without a cgroup: processes on its port, started after it, that its process tree does not hold (they left it). */
  private portStrays(): number[] {
    if (this.port === null || !this.child?.pid) return [];
    const tree = new Set(this.exitInfo ? [] : processTree(this.child.pid));
    const since = this.startTicks ?? 0;
    return listenersOn(this.port).filter(
      (pid) => pid !== process.pid && !tree.has(pid) && (startTicks(pid) ?? -1) >= since,
    );
  }

  /** Resolves once nothing of it runs, or after `ms`. */
  private async daemonGone(ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    while (this.daemonRuns() && Date.now() < deadline) await delay(POLL_MS);
  }

  /**
   * What to sample once it listens: its cgroup (every process, exited ones' CPU included), else its
   * process tree, plus any process on its port that left the tree (setsid, a double fork), which is
   * noted and stopped with it.
   */
  private sampled(url: string): StartedServer {
    const httpUrl = httpOriginOf(url);
    const leader = this.child!.pid!;
    const cgroup = this.cgroup;
    if (cgroup) {
      const away = cgroup.members().filter((pid) => groupOf(pid) !== leader);
      if (this.exitInfo)
        this.extraNotes.push(
          `${this.spec.name}: its command ${this.exitInfo} and left ${cgroup.members().length} process(es) running (setsid or a double fork): those are the server, sampled and stopped through its cgroup`,
        );
      else if (away.length > 0)
        this.extraNotes.push(
          `${this.spec.name}: process ${away.join(', ')} left the command's process group (setsid or a double fork); its cgroup holds it: sampled and stopped with the rest`,
        );
      return { url, httpUrl, pid: leader, tree: true, read: () => cgroup.read(CLOCK_TICKS) };
    }
    this.keepStrays(this.portStrays());
    if (this.strays.length === 0) {
      const away = this.exitInfo ? [] : processTree(leader).filter((pid) => groupOf(pid) !== leader);
      if (away.length > 0)
        this.extraNotes.push(
          `${this.spec.name}: process ${away.join(', ')} left the command's process group (setsid or a double fork) but not its tree: sampled and stopped with it (${this.cgroupMissing})`,
        );
      return { url, httpUrl, pid: leader, tree: true };
    }
    this.extraNotes.push(
      `${this.spec.name}: process ${this.strays.join(', ')} listening on port ${this.port} left the command's process ${this.exitInfo ? `(which ${this.exitInfo})` : 'tree'} (setsid or a double fork); ` +
        `found by its port, sampled and stopped that way (${this.cgroupMissing})`,
    );
    const [first, ...rest] = this.strays as [number, ...number[]];
    // The launcher is sampled too while it runs; once it exits only the strays are read.
    return this.exitInfo
      ? { url, httpUrl, pid: first, siblingPids: rest, tree: true }
      : { url, httpUrl, pid: first, siblingPids: [...rest, leader], tree: true };
  }

  /** Without a cgroup: whatever still listens on its port, started after it, is a piece of it that got away. */
  private stopLeftListeners(leader: number): void {
    const left = this.portStrays();
    for (const pid of left) killPid(pid);
    if (left.length > 0 && !this.strays.some((pid) => left.includes(pid))) {
      this.extraNotes.push(
        `${this.spec.name}: process ${left.join(', ')} still listened on port ${this.port} after its group ${leader} was stopped; killed it`,
      );
    }
  }

  kill(): void {
    if (this.child?.pid && !this.exitInfo) killGroup(this.child.pid, 'SIGKILL');
  }

  private spawn(text: string): void {
    const argv = plainArgv(text);
    if (!argv)
      this.extraNotes.push(
        `${this.spec.name} was started through /bin/sh (its command uses shell syntax): the shell's memory counts in the server's RSS`,
      );
    const made = ServerCgroup.create();
    if ('unavailable' in made) this.cgroupMissing = `no cgroup here: ${made.unavailable}`;
    else this.cgroup = made;
    const command = argv ?? ['/bin/sh', '-c', text];
    const [file, ...args] = this.cgroup ? this.cgroup.wrap(command) : command;
    // detached: its own process group (and session), so a terminal's Ctrl+C reaches wsbench alone and wsbench stops it in order.
    const child = spawn(file!, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('exit', async (code, signal) => {
        this.exitedAtEpochMs = Date.now();
        this.exitCode = code;
        // What it printed before it exited can still be in the pipe: read it before the exit counts, so
        // the reason quotes its last line. A daemon it left holds the pipe open: then the deadline.
        if (child.stderr && !child.stderr.readableEnded) await untilEvent(child.stderr, 'end', STDERR_END_WAIT_MS);
        this.exitInfo ??= signal
          ? `was killed by ${signal}`
          : code === 126 && this.cgroup
            ? 'could not join its cgroup'
            : `exited with code ${code}`;
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
    live.add(this);
    this.forgetKill = killWithChildren(() => this.killAll());
    this.startTicks = startTicks(child.pid);
    watchParent(child.pid, process.pid, 'group', this.cgroup?.path);
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
    const lines = this.stderrTail
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

function killPid(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
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
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
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

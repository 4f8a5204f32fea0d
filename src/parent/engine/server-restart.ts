/**
 * The server restart a scenario asks for with `serverRestart` (a reconnect
 * storm): at the set time in the window wsbench kills the server with SIGKILL,
 * as a crash would (a polite stop would let a server say goodbye to its
 * clients, which a crash never does), waits out the downtime, and starts it
 * again on the same port by the same means: its own server child, or the
 * --server-cmd command. The clients hear when it was killed and when it served
 * again (ctx.serverRestart()); /proc sampling follows the new processes.
 *
 * The kill is no fault: the server dies on purpose. A server that does not
 * come back is, with the reason, and the window then closes at once, since
 * there is nothing left to measure.
 */
import type { AnyScenario, ServerRestartTimes } from '../../shared/types/scenario-types.js';
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { CellServer, ForeignServerSpec, ServerReport, StartedServer } from '../server-lifecycles/types.js';
import type { ManagedChild } from '../child-processes.js';
import type { WindowResources } from '../measure/window-resources.js';
import { monotonicUs } from '../../shared/measure/clock.js';
import { restartSchedule, type RestartSchedule } from './restart-schedule.js';

/** A killed server's processes must be gone by then, or the restart is a fault (a process stuck in the kernel). */
const KILLED_EXIT_TIMEOUT_MS = 5000;

/** Why a --target cannot take part: worded without its name, so the table folds every such pair into one line. */
const NOT_STARTED_BY_WSBENCH = 'wsbench cannot restart a server it did not start';

/** Why this foreign server cannot be restarted for the scenario; null when it can (or nothing asks for a restart). */
export function whyNoRestart(scenario: AnyScenario, foreign: ForeignServerSpec | undefined): string | null {
  if (!scenario.serverRestart || !foreign) return null;
  if (foreign.kind === 'target') return NOT_STARTED_BY_WSBENCH;
  if (foreign.port.from === 'output') {
    return 'a --server-cmd server that picks its own port cannot come back where its clients reconnect: put {port} in its command';
  }
  return null;
}

/** The same foreign server, bound to `port` (a restarted command starts where the first one listened). */
export function onPort(spec: ForeignServerSpec, port: number): ForeignServerSpec {
  return spec.kind === 'command' ? { ...spec, port: { from: 'command', port } } : spec;
}

/**
 * The cell's server, restarted as the scenario asks for these parameters; null when it asks for
 * no restart. `build` makes the server (on `port` when given); `pickPort`, when given, chooses
 * the first one's port too: a production server listens on a fixed port, and some stacks only
 * then let a new process bind it while the killed one's connections linger (uSockets sets
 * SO_REUSEADDR only on a port it is given).
 */
export function restartingServer(
  scenario: AnyScenario,
  params: ParamValues,
  build: (port?: number) => CellServer,
  pickPort: (() => Promise<number>) | null,
): RestartingServer | null {
  const schedule = restartSchedule(scenario, params);
  return schedule ? new RestartingServer(build, pickPort, schedule) : null;
}

/** A cell's server that is killed and started again once, mid-window; otherwise it passes every call to the server of the moment. */
export class RestartingServer implements CellServer {
  private current: CellServer | null = null;
  private readonly retired: CellServer[] = [];
  private port = 0;
  private timer: NodeJS.Timeout | null = null;
  private restarting: Promise<void> | null = null;
  /** From the kill until the new server serves (or gives up): the server is down on purpose. */
  private restartUnderWay = false;
  private failure: string | null = null;
  /** The kill and the new server's first serving (CLOCK_MONOTONIC µs), once each has happened. */
  private stoppedAtUs: number | null = null;
  private servingAtUs: number | null = null;
  private closedAtUs: number | null = null;
  private readonly ownNotes: string[] = [];
  /** Aborted by the cell's signal or by stop(): a restart under way gives up. */
  private readonly control = new AbortController();
  private unlisten: () => void = () => undefined;

  constructor(
    private readonly build: (port?: number) => CellServer,
    private readonly pickPort: (() => Promise<number>) | null,
    private readonly schedule: RestartSchedule,
  ) {}

  async start(signal: AbortSignal): Promise<StartedServer> {
    this.current = this.build(this.pickPort ? await this.pickPort() : undefined);
    const started = await this.current.start(signal);
    const url = new URL(started.httpUrl);
    this.port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    return started;
  }

  windowOpen(signal: AbortSignal): Promise<void> {
    return this.current!.windowOpen(signal);
  }

  /** The window is open: the restart is due `atMs` from now; `clients` hear of it, `resources` follow it. */
  arm(clients: readonly ManagedChild[], resources: WindowResources, signal: AbortSignal): void {
    if (!this.current?.kill) {
      this.failure = NOT_STARTED_BY_WSBENCH;
      return;
    }
    const abort = (): void => this.control.abort();
    signal.addEventListener('abort', abort, { once: true });
    // The run's signal outlives the cell: a listener left on it would pile up cell after cell.
    this.unlisten = () => signal.removeEventListener('abort', abort);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.restartUnderWay = true;
      this.restarting = this.restart(clients, resources).finally(() => {
        this.restartUnderWay = false;
      });
    }, this.schedule.atMs);
  }

  /** The window closes now: a server that serves again later served too late for it. */
  windowClosed(): void {
    this.closedAtUs = monotonicUs();
  }

  /**
   * The window closed: a restart not due yet will not happen; one under way is waited for.
   * Returns why the server did not come back, or null.
   */
  async settle(): Promise<string | null> {
    const closedAtUs = this.closedAtUs ?? monotonicUs();
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.ownNotes.push(
        `the window closed before the server restart was due (${this.schedule.atMs} ms after it opened)`,
      );
    }
    await this.restarting;
    // Served again, but only after the window closed: its clients had no server to come back to in it,
    // which the cell must say rather than leave to an empty histogram.
    if (!this.failure && this.stoppedAtUs !== null && this.servingAtUs !== null && this.servingAtUs > closedAtUs) {
      const ms = (us: number): number => Math.round((us - this.stoppedAtUs!) / 1000);
      this.failure =
        `the window closed ${ms(closedAtUs)} ms after the server was killed, before the restarted server served ` +
        `(${ms(this.servingAtUs)} ms after the kill): its clients had nothing to come back to; a longer duration gives them time`;
    }
    return this.failure;
  }

  report(): Promise<ServerReport | null> {
    return this.current!.report();
  }

  /** The server of the moment is dead, and not by the planned kill. */
  gone(): boolean {
    return !this.restartUnderWay && (this.current?.gone?.() ?? false);
  }

  async stop(): Promise<void> {
    this.unlisten();
    this.control.abort();
    if (this.timer) clearTimeout(this.timer);
    await this.restarting;
    await Promise.allSettled([...(this.current ? [this.current] : []), ...this.retired].map((server) => server.stop()));
  }

  notes(): string[] {
    return [
      ...new Set([...this.retired.flatMap((s) => s.notes()), ...(this.current?.notes() ?? []), ...this.ownNotes]),
    ];
  }

  private async restart(clients: readonly ManagedChild[], resources: WindowResources): Promise<void> {
    const signal = this.control.signal;
    const killed = this.current!;
    resources.serverStopping();
    const stoppedAtUs = monotonicUs();
    this.stoppedAtUs = stoppedAtUs;
    killed.kill!();
    for (const client of clients) client.send({ type: 'server-killed', stoppedAtUs });
    this.retired.push(killed);
    const tell = (times: ServerRestartTimes | null): void => {
      for (const client of clients) client.send({ type: 'server-restart', times });
    };
    try {
      await withDeadline(
        killed.stop(),
        KILLED_EXIT_TIMEOUT_MS,
        `the killed server was still running ${KILLED_EXIT_TIMEOUT_MS / 1000}s after SIGKILL`,
      );
      await pause(this.schedule.downtimeMs - (monotonicUs() - stoppedAtUs) / 1000, signal);
      if (signal.aborted) throw new Error('interrupted');
      this.current = this.build(this.port);
      const started = await this.current.start(signal);
      await this.current.windowOpen(signal);
      // When it was first seen serving, the same fact for every kind of server (server-lifecycles/types.ts).
      const servingAtUs = started.servingAtUs ?? monotonicUs();
      this.servingAtUs = servingAtUs;
      if (started.pid !== null) resources.serverRestarted([started.pid, ...(started.siblingPids ?? [])]);
      tell({ stoppedAtUs, servingAtUs });
      this.ownNotes.push(
        `server restarted: killed (SIGKILL) ${this.schedule.atMs} ms into the window, started again ${this.schedule.downtimeMs} ms later on the same port, ` +
          `serving ${Math.round((servingAtUs - stoppedAtUs) / 1000)} ms after the kill`,
      );
    } catch (error) {
      this.failure = `the server did not come back after its restart: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`;
      tell({ stoppedAtUs, servingAtUs: null });
      // Nothing is left to measure: the window closes now rather than at its end.
      for (const client of clients) client.send({ type: 'stop' });
    }
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Resolves after `ms` (at once when it is not positive) or when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

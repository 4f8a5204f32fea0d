/**
 * The live views of one command (the dashboard, the /metrics endpoint, or
 * both): one state fed by run()'s events, the servers that show it, and their
 * end. A fault in a view is reported once and silences the views; it never
 * reaches the engine, whose run goes on.
 */
import type { RunEvent } from '../engine/events.js';
import { LiveState } from './state.js';
import { DashboardServer } from './dashboard-server.js';
import { MetricsServer } from './metrics-server.js';
import { BindError } from './listen.js';
import type { ListenAddress } from '../../shared/listen-address.js';

/** Pages and scrapers still connected at the end get this long before their connections are dropped. */
const CLOSE_DEADLINE_MS = 2000;

/** Where LiveViews serves the live dashboard and the Prometheus metrics of a run. */
export interface LiveViewOptions {
  dashboard: ListenAddress | null;
  metrics: ListenAddress | null;
  /** After the run, how long /metrics waits for a scrape of the final values. */
  metricsLingerMs: number;
}

/** A bind that failed, with the option it belongs to. */
export class LiveBindError extends Error {
  constructor(
    readonly option: 'dashboard' | 'metrics',
    readonly problem: string,
  ) {
    super(`${option}: ${problem}`);
  }
}

/** The live views of a run: the dashboard page and the Prometheus endpoint, fed by run()'s events. */
export class LiveViews {
  readonly state = new LiveState();
  private dashboard: DashboardServer | null = null;
  private metrics: MetricsServer | null = null;
  private broken = false;

  constructor(
    private readonly options: LiveViewOptions,
    private readonly report: (line: string) => void,
  ) {}

  get enabled(): boolean {
    return this.options.dashboard !== null || this.options.metrics !== null;
  }

  get dashboardUrl(): string | null {
    return this.dashboard?.url ?? null;
  }

  get metricsUrl(): string | null {
    return this.metrics?.url ?? null;
  }

  /** What is listening, by option: the addresses bound (the port chosen when 0 was asked). */
  get bound(): Array<{ option: 'dashboard' | 'metrics'; address: ListenAddress }> {
    return [
      ...(this.dashboard ? [{ option: 'dashboard' as const, address: this.dashboard.address }] : []),
      ...(this.metrics ? [{ option: 'metrics' as const, address: this.metrics.address }] : []),
    ];
  }

  /** Binds what was asked for; on a failed bind, closes what was bound and throws LiveBindError. */
  async listen(): Promise<void> {
    try {
      if (this.options.dashboard)
        this.dashboard = await bindAs('dashboard', () => DashboardServer.start(this.state, this.options.dashboard!));
      if (this.options.metrics)
        this.metrics = await bindAs('metrics', () => MetricsServer.start(this.state, this.options.metrics!));
    } catch (error) {
      await this.closeServers();
      throw error;
    }
  }

  /** run()'s listener: never throws into the engine. */
  readonly onEvent = (event: RunEvent): void => {
    if (this.broken || !this.enabled) return;
    try {
      this.state.onEvent(event);
    } catch (error) {
      this.broken = true;
      this.report(`live views stopped updating: ${(error as Error).message.split('\n')[0]} (the run goes on)`);
    }
  };

  /**
   * Ends the views: after a run that was not interrupted, /metrics first waits (up to its linger, cut short
   * by SIGINT, SIGTERM or SIGHUP) for one scrape of the final values; then both servers close within their deadline.
   */
  async close(): Promise<void> {
    if (this.metrics && this.options.metricsLingerMs > 0 && this.state.ended?.interrupted !== true) {
      const stop = new AbortController();
      const onSignal = (): void => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      process.once('SIGHUP', onSignal);
      this.report(
        `metrics: waiting up to ${this.options.metricsLingerMs / 1000} s for a last scrape of ${this.metrics.url} (Ctrl+C skips)`,
      );
      try {
        await this.metrics.waitForScrape(this.options.metricsLingerMs, stop.signal);
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        process.off('SIGHUP', onSignal);
      }
    }
    await this.closeServers();
  }

  private async closeServers(): Promise<void> {
    await Promise.allSettled([this.dashboard?.close(CLOSE_DEADLINE_MS), this.metrics?.close(CLOSE_DEADLINE_MS)]);
    this.dashboard = this.metrics = null;
  }
}

async function bindAs<T>(option: 'dashboard' | 'metrics', start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (error instanceof BindError) throw new LiveBindError(option, error.message);
    throw error;
  }
}

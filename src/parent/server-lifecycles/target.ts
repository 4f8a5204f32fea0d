/**
 * --target: a server that is already running, anywhere. wsbench runs only the
 * clients; it samples the server's process tree for CPU and RSS only when told
 * which process that is (--target-pid), never another process's.
 */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { CellServer, CellTls, ServerReport, StartedServer, TargetSpec } from './types.js';
import { httpOriginOf, isLoopbackUrl, urlWithParams } from './foreign-url.js';
import { probeServer } from './probe.js';
import { ForeignWindow } from './foreign-window.js';
import { readProcess } from '../measure/proc-sampler.js';
import { ChildFailure } from '../child-processes.js';

const CONNECT_TIMEOUT_MS = 5000;

export class TargetServer implements CellServer {
  private readonly window: ForeignWindow;
  private readonly extraNotes: string[] = [];

  constructor(
    private readonly spec: TargetSpec,
    private readonly cell: {
      scenario: string;
      params: ParamValues;
      tls?: CellTls;
      serverMetrics?: boolean;
      subprotocols?: string[];
    },
  ) {
    this.window = new ForeignWindow(cell.scenario, cell.tls?.client, cell.serverMetrics === false);
  }

  private pid: number | null = null;

  async start(signal: AbortSignal): Promise<StartedServer> {
    const url = urlWithParams(this.spec.url, this.cell.scenario, this.cell.params);
    try {
      await probeServer(url, this.spec.protocol, {
        timeoutMs: CONNECT_TIMEOUT_MS,
        holdMs: 250,
        signal,
        protocols: this.cell.subprotocols ?? [],
        ...(this.cell.tls?.client ? { tls: this.cell.tls.client } : {}),
      });
    } catch (error) {
      throw new Error(`target ${this.spec.name}: ${(error as Error).message}`);
    }
    let pid = this.spec.pid ?? null;
    if (pid === null)
      this.extraNotes.push(`server resources not measured: target ${this.spec.name} was given no --target-pid`);
    else if (!readProcess(pid)) {
      this.extraNotes.push(`server resources not measured: process ${pid} of target ${this.spec.name} is gone`);
      pid = null;
    }
    if (!isLoopbackUrl(url)) {
      this.extraNotes.push(
        `target ${this.spec.name} is not on this host: one-way delays subtract two machines' monotonic clocks and mean nothing; round trips are valid`,
      );
    }
    const httpUrl = httpOriginOf(url);
    this.window.httpOrigin = httpUrl;
    this.pid = pid;
    return { url, httpUrl, pid, tree: true };
  }

  windowOpen(signal: AbortSignal): Promise<void> {
    return this.window.open(signal);
  }

  /** Rejects when the process given by --target-pid is gone: the server died, whatever its connections did. */
  async report(): Promise<ServerReport | null> {
    const report = await this.window.report();
    if (this.gone()) throw new ChildFailure(`target ${this.spec.name}: its process ${this.pid} is gone`);
    return report;
  }

  /** Known only with --target-pid: that process is gone. */
  gone(): boolean {
    return this.pid !== null && !readProcess(this.pid);
  }

  async stop(): Promise<void> {
    // Not ours to stop.
  }

  notes(): string[] {
    return [...this.extraNotes, ...this.window.notes];
  }
}

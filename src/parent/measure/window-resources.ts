/**
 * The window's CPU and memory of every process of a cell, sampled from /proc by
 * the orchestrator: the server from "go" until it is told to stop, each client
 * from "go" until its own window closes. Each process's event-loop utilisation,
 * which only it can see, comes with its report and is joined in here.
 */
import type { CellResources, ProcessReport, ProcessResources } from '../../shared/types/result-types.js';
import { ProcSampler, type ProcSource, type ProcStats } from './proc-sampler.js';
import type { ResourceSample } from './proc-sampler.js';

export class WindowResources {
  private readonly server: ProcSampler | null;
  private readonly clients: ProcSampler[];
  private serverStats: ProcStats | null = null;
  private readonly clientStats: Array<ProcStats | null | undefined>;

  /**
   * `serverPids`: the server's processes, taken as one (several when it runs as several processes), or a reading of its own (a cgroup);
   * `serverTree`: sample each one's whole process tree (a server started by command may fork workers);
   * `onSample`: hears each sample as it is taken (client `process` by index, the server as 0);
   * `clientTree`: sample each client's whole process tree (a browser client's load runs in the browser it starts).
   */
  constructor(
    serverPids: readonly number[] | ProcSource,
    clientPids: number[],
    serverTree = false,
    onSample?: (role: 'server' | 'client', process: number, sample: ResourceSample) => void,
    clientTree = false,
  ) {
    this.server =
      Array.isArray(serverPids) && serverPids.length === 0
        ? null
        : new ProcSampler(serverPids as ProcSource, serverTree);
    this.clients = clientPids.map((pid) => new ProcSampler(pid, clientTree));
    this.clientStats = clientPids.map(() => undefined);
    if (onSample && this.server) this.server.onSample = (sample) => onSample('server', 0, sample);
    if (onSample)
      this.clients.forEach((client, index) => {
        client.onSample = (sample) => onSample('client', index, sample);
      });
  }

  start(): void {
    this.server?.start();
    for (const client of this.clients) client.start();
  }

  /** The server is about to be killed on purpose: what it used up to now counts. */
  serverStopping(): void {
    this.server?.sampleNow();
  }

  /** The server runs again as other processes: sample those from now on. */
  serverRestarted(pids: readonly number[]): void {
    this.server?.follow(pids);
  }

  /** Client `index` closed its window: its cleanup is not the window's cost. */
  clientClosed(index: number): void {
    if (this.clientStats[index] === undefined) this.clientStats[index] = this.clients[index]?.stop() ?? null;
  }

  stopClients(): void {
    this.clients.forEach((_, index) => {
      this.clientClosed(index);
    });
  }

  /** Stops sampling the server; returns what it used in the window (null when it could not be read). */
  stopServer(): ProcStats | null {
    this.serverStats ??= this.server?.stop() ?? null;
    return this.serverStats;
  }

  /** Resources of the server and of the clients that reported (by process index). */
  build(serverLoop: LoopReport | null, clientLoops: Map<number, LoopReport>): CellResources {
    this.stopClients();
    this.stopServer();
    return {
      server: combine(this.serverStats, serverLoop),
      clients: [...clientLoops].flatMap(([index, loop]) => {
        const resources = combine(this.clientStats[index] ?? null, loop);
        return resources ? [resources] : [];
      }),
    };
  }
}

/** What a process measured of its own event loop. */
type LoopReport = Pick<ProcessReport, 'eventLoopUtilization' | 'timerLatenessMs'>;

function combine(stats: ProcStats | null, loop: LoopReport | null): ProcessResources | null {
  if (!stats) return null;
  return {
    cpuPercent: stats.cpuPercent,
    ...(stats.cpuDemandPercent ? { cpuDemandPercent: stats.cpuDemandPercent } : {}),
    rssBytes: stats.rssBytes,
    eventLoopUtilization: loop?.eventLoopUtilization ?? null,
    ...(loop?.timerLatenessMs !== undefined ? { timerLatenessMs: loop.timerLatenessMs } : {}),
    samples: stats.samples,
  };
}

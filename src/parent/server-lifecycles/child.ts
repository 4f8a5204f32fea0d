/**
 * wsbench's own server: child processes running one of its adapters and the
 * scenario's server half, driven over IPC (start, go, stop). Usually one; with
 * the `serverProcesses` parameter, several listening on one port (SO_REUSEPORT),
 * the first on a free port and the others joining it. They act as one server:
 * one URL, their CPU and RSS added up, their reports merged, and what one tells
 * its siblings (ctx.tellSiblings) relayed to the others.
 */
import type { ProcessReport, SampledStat } from '../../shared/types/result-types.js';
import type { ServerStartMessage } from '../../child/ipc.js';
import { mergeHistogramSets, sumCounterSets } from '../../shared/measure/metrics.js';
import type { ManagedChild } from '../child-processes.js';
import type { CellServer, ServerReport, StartedServer } from './types.js';
import { monotonicUs } from '../../shared/measure/clock.js';

const SERVER_START_TIMEOUT_MS = 15_000;
/**
 * A server that fell behind still owes its report once it has worked off its
 * backlog: it gets this long before its silence is judged (saturated or hung);
 * WSBENCH_SERVER_REPORT_TIMEOUT_MS sets another bound.
 */
const SERVER_REPORT_TIMEOUT_MS = 30_000;

type ServerStart = Omit<ServerStartMessage, 'processIndex' | 'processCount' | 'port'>;

export class ChildServer implements CellServer {
  /** `port`: listen there instead of on a free port (a restart comes back where its clients knew it). */
  constructor(
    private readonly children: ManagedChild[],
    private readonly start_: ServerStart,
    private readonly port?: number,
  ) {
    for (const child of children) {
      child.onSibling = (message) => {
        for (const other of children) if (other !== child) other.send(message);
      };
    }
  }

  async start(signal: AbortSignal): Promise<StartedServer> {
    const [first, ...rest] = this.children;
    const ready = await this.startOne(first!, 0, this.port, signal);
    const port = Number(new URL(ready.httpUrl!).port);
    const joined = await Promise.all(rest.map((child, i) => this.startOne(child, i + 1, port, signal)));
    const stray = joined.find((j) => j.url !== ready.url);
    if (stray) throw new Error(`server processes listen apart: ${ready.url} and ${stray.url}`);
    // Every process said it is ready: it serves from now.
    const servingAtUs = monotonicUs();
    const pids = this.children.map((c) => c.process.pid);
    // A process without a pid (its fork failed) cannot be sampled: then none is, rather than part of the server.
    if (pids.some((p) => p === undefined))
      return { url: ready.url!, httpUrl: ready.httpUrl!, pid: null, tree: false, servingAtUs };
    const [pid, ...siblingPids] = pids as number[];
    return {
      url: ready.url!,
      httpUrl: ready.httpUrl!,
      pid: pid!,
      ...(siblingPids.length ? { siblingPids } : {}),
      tree: false,
      servingAtUs,
    };
  }

  private async startOne(child: ManagedChild, processIndex: number, port: number | undefined, signal: AbortSignal) {
    child.send({
      ...this.start_,
      processIndex,
      processCount: this.children.length,
      ...(port === undefined ? {} : { port }),
    });
    return child.waitFor('ready', SERVER_START_TIMEOUT_MS, 'ready signal', signal);
  }

  async windowOpen(_signal: AbortSignal): Promise<void> {
    for (const child of this.children) child.send({ type: 'go' });
  }

  /** Rejects with the first process's reason when one crashed or went quiet. */
  async report(): Promise<ServerReport> {
    for (const child of this.children) child.send({ type: 'stop' });
    const timeoutMs = Number(process.env.WSBENCH_SERVER_REPORT_TIMEOUT_MS) || SERVER_REPORT_TIMEOUT_MS;
    const messages = await Promise.all(this.children.map((child) => child.waitFor('report', timeoutMs, 'report')));
    return {
      report: mergeServerReports(messages.map((m) => m.report)),
      stackDrops: messages.reduce((sum, m) => sum + (m.stackDrops ?? 0), 0),
      complete: true,
    };
  }

  /** One process of it exited: the server as the cell knows it is no more. */
  gone(): boolean {
    return this.children.some((child) => child.exitedAtEpochMs !== null);
  }

  async stop(): Promise<void> {
    await Promise.all(this.children.map((child) => child.stop()));
  }

  kill(): void {
    for (const child of this.children) child.process.kill('SIGKILL');
  }

  notes(): string[] {
    return [];
  }
}

/** One server's report from its processes': histograms merged, counters added, event loops averaged. */
function mergeServerReports(reports: ProcessReport[]): ProcessReport {
  if (reports.length === 1) return reports[0]!;
  return {
    histograms: mergeHistogramSets(reports.map((r) => r.histograms)),
    counters: sumCounterSets(reports.map((r) => r.counters)),
    eventLoopUtilization: averaged(reports.map((r) => r.eventLoopUtilization)),
    timerLatenessMs: averaged(reports.map((r) => r.timerLatenessMs ?? null)),
    windowMs: Math.max(...reports.map((r) => r.windowMs)),
    notes: [...new Set(reports.flatMap((r) => r.notes))],
  };
}

/** The processes' means averaged, the highest max; null unless every process measured it. */
function averaged(stats: Array<SampledStat | null>): SampledStat | null {
  if (!stats.every((s): s is SampledStat => s !== null)) return null;
  return { mean: stats.reduce((sum, s) => sum + s.mean, 0) / stats.length, max: Math.max(...stats.map((s) => s.max)) };
}

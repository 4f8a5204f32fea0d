/**
 * wsbench's own server: a child process running one of its Node adapters and
 * the scenario's server half, driven over IPC (start, go, stop).
 */
import type { ServerStartMessage } from '../ipc.js';
import type { ManagedChild } from '../processes.js';
import type { CellServer, ServerReport, StartedServer } from './types.js';

const SERVER_START_TIMEOUT_MS = 15_000;
/**
 * A server that fell behind still owes its report once it has worked off its
 * backlog: it gets this long before its silence is judged (saturated or hung);
 * WSBENCH_SERVER_REPORT_TIMEOUT_MS sets another bound.
 */
const SERVER_REPORT_TIMEOUT_MS = 30_000;

export class ChildServer implements CellServer {
  constructor(private readonly child: ManagedChild, private readonly start_: ServerStartMessage) {}

  async start(signal: AbortSignal): Promise<StartedServer> {
    this.child.send(this.start_);
    const ready = await this.child.waitFor('ready', SERVER_START_TIMEOUT_MS, 'ready signal', signal);
    return { url: ready.url!, httpUrl: ready.httpUrl!, pid: this.child.process.pid ?? null, tree: false };
  }

  async windowOpen(): Promise<void> {
    this.child.send({ type: 'go' });
  }

  /** Rejects with the child's reason when it crashed or went quiet. */
  async report(): Promise<ServerReport> {
    this.child.send({ type: 'stop' });
    const timeoutMs = Number(process.env.WSBENCH_SERVER_REPORT_TIMEOUT_MS) || SERVER_REPORT_TIMEOUT_MS;
    const message = await this.child.waitFor('report', timeoutMs, 'report');
    return { report: message.report, stackDrops: message.stackDrops ?? 0, complete: true };
  }

  stop(): Promise<void> {
    return this.child.stop();
  }

  notes(): string[] {
    return [];
  }
}

/**
 * The servers a cell can measure, behind one interface: wsbench's own child
 * running a Node adapter, a server that is already running (--target), or a
 * command wsbench starts for the cell (--server-cmd). The cell only starts,
 * opens the window, asks for a report, and stops.
 */
import type { ProcessReport, Protocol } from '../../shared/types/result-types.js';
import type { ProcReading } from '../measure/proc-sampler.js';
import type { ClientTls, ServerTls } from '../../shared/types/adapter-types.js';

/** What one cell's server and clients get of the run's TLS (see run-tls.ts); empty for a plain cell. */
export interface CellTls {
  /** For wsbench's own server: the certificate and its key. */
  server?: ServerTls;
  /** For a command that takes {cert} and {key}: the paths of the files. */
  files?: { certPath: string; keyPath: string };
  /** What the clients trust, and wsbench's own probe and stats reader with them; absent: their default trust. */
  client?: ClientTls;
}

/** Where a started server listens, and which process (if any) to sample from /proc. */
export interface StartedServer {
  /** What the clients connect to: ws(s)://host:port/path for WebSocket, http(s)://host:port/path for socket.io. */
  url: string;
  /** http(s)://host:port, for a scenario's REST routes. */
  httpUrl: string;
  /** Process to sample for CPU and RSS; null when there is none wsbench may measure. */
  pid: number | null;
  /** Further processes of the same server (serverProcesses above 1), sampled with `pid` as one server. */
  siblingPids?: number[];
  /** Sample the pid's whole process tree (a command may fork workers). */
  tree: boolean;
  /** A reading of the server's own that replaces the pids' (its cgroup: every process in it, exited ones' CPU included). */
  read?: () => ProcReading | null;
  /**
   * When wsbench first saw it serving (CLOCK_MONOTONIC, µs), the same fact for every kind of server:
   * the ready signal of its last process (wsbench's own), or the first handshake it answered (a command).
   * Absent where wsbench did not start it (a target).
   */
  servingAtUs?: number;
}

/** What the server said about the window, when it said anything. */
export interface ServerReport {
  report: ProcessReport;
  /** Messages the stack refused to queue; null when the server does not say. */
  stackDrops: number | null;
  /**
   * true: wsbench's own server, which reports every counter it has (absent = 0).
   * 'listed': a foreign server's stats: only the counters it listed were reported.
   */
  complete: boolean | 'listed';
}

export interface CellServer {
  /** Starts or reaches the server; rejects with a one-line reason fit for the cell. */
  start(signal: AbortSignal): Promise<StartedServer>;
  /** The window opens (every client is connected); `signal` (an interrupt) ends any wait at once. */
  windowOpen(signal: AbortSignal): Promise<void>;
  /**
   * The clients are done: ends the server's window and returns its report, or null when it gives none.
   * Rejects when the server died or went quiet (a ChildFailure says when it died, if known). Every
   * wait in it has its own deadline, short of the interrupt grace: an interrupted cell still gets it.
   */
  report(): Promise<ServerReport | null>;
  /**
   * True once the server is dead: none of its processes runs (nor one it left behind). Absent, or always
   * false, where wsbench cannot tell (a --target without --target-pid).
   */
  gone?(): boolean;
  /** Stops it (a no-op for a target); safe to call more than once and after a failed start. */
  stop(): Promise<void>;
  /** Kills it at once, as a crash would (SIGKILL to all of it); stop() still reaps it. Absent where wsbench may not (a target). */
  kill?(): void;
  /** Things the cell should say about this server (e.g. why its resources are not measured). */
  notes(): string[];
}

/** A server that is already running, given by URL. */
export interface TargetSpec {
  kind: 'target';
  name: string;
  protocol: Protocol;
  url: string;
  /** Process whose tree wsbench samples for CPU and RSS; absent: not measured. */
  pid?: number;
  /** Its URL is wss:// or https://: TLS is on in every cell of it, whatever the `tls` parameter. */
  tls: boolean;
}

/** A server wsbench starts for each cell by running a command. */
export interface CommandSpec {
  kind: 'command';
  name: string;
  protocol: Protocol;
  /** The command as given, {port} and {host} still in it. */
  command: string;
  /** URL template the clients use, {host} and {port} in it (default ws://{host}:{port}/). */
  urlTemplate: string;
  /** How the port is found: a free one wsbench substitutes, a fixed one in the command, or printed by the server (port 0). */
  port: { from: 'placeholder' } | { from: 'command'; port: number } | { from: 'output' };
  /** How long it may take to accept a WebSocket handshake. */
  startTimeoutMs: number;
  /** Its URL is wss:// or https://: TLS is on in every cell of it. */
  tls: boolean;
  /** The command takes {cert} or {key}: it serves the run's own certificate, which the clients then trust. */
  takesCertificate: boolean;
}

/** A server wsbench does not build from one of its own adapters. */
export type ForeignServerSpec = TargetSpec | CommandSpec;

/**
 * The contracts between the engine, the stack adapters and the scenarios.
 * Units live in the names: `Bytes`, `Ms`, `Us`, `PerSec`.
 */

import type { CellMeasurements, ProcessResources } from './result-types.js';

/** Which wire protocol a stack speaks; only stacks of the same protocol can be paired. */
export type Protocol = 'websocket' | 'socket.io';

/** A message as scenarios see it: text arrives as a string, binary as bytes. */
export type MessageData = string | Uint8Array;

/** Whether a stack can run on this machine, and which build of it would run. */
export type Availability =
  | { available: true; version: string; build?: StackBuild }
  | { available: false; version: string | null; reason: string };

/** Which build of a stack library is loaded, for stacks that ship native code. */
export interface StackBuild {
  /** Name in the package's own package.json (differs from the import name for npm aliases). */
  packageName: string;
  /**
   * True when the native binary loaded; false when a JavaScript fallback stands in
   * for it (uWS: the binding itself; ws: its optional bufferutil addon).
   */
  native: boolean;
  /** File name of the native binary that loaded, when one did. */
  binary?: string;
}

// ---------------------------------------------------------------- server side

/** One accepted connection on the server, whatever the stack. */
export interface ServerConnection {
  /** Dense id, unique within one server run. */
  readonly id: number;
  /** Queues a message; false when the stack dropped it (e.g. uWS backpressure limit). */
  send(data: MessageData): boolean;
  /**
   * Sends one message as several WebSocket frames of at most `fragmentBytes` payload each.
   * Absent when the stack cannot control framing (socket.io).
   */
  sendFragmented?(data: MessageData, fragmentBytes: number): boolean;
  /** Bytes queued by the stack but not yet written to the socket. */
  bufferedAmountBytes(): number;
  /** Closes the connection politely. */
  close(): void;
}

/** A plain HTTP request served by the same server process as the WebSockets. */
export interface HttpRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** Request body decoded as UTF-8 ('' for none). */
  body: string;
}

export interface HttpResponse {
  /** Defaults to 200. */
  status?: number;
  /** Defaults to application/json. */
  contentType?: string;
  body: string;
}

/** A route handler; `"GET /updates"` style keys select it. */
export type HttpHandler = (request: HttpRequest) => HttpResponse;

/** What a scenario's server half does with connections, messages and HTTP requests. */
export interface ServerLogic {
  onConnection?(connection: ServerConnection): void;
  /** `data` is only valid during the call when it is binary: copy it to keep it. */
  onMessage?(connection: ServerConnection, data: MessageData): void;
  onClose?(connection: ServerConnection): void;
  /** Keyed by `"METHOD /path"`, e.g. `"GET /updates"`. */
  routes?: Record<string, HttpHandler>;
  /** Called when the measurement window opens (all clients connected). */
  onMeasureStart?(): void;
  /** Called when the window closes; stop timers here. */
  onMeasureEnd?(): void;
}

/** The callbacks an adapter calls; built by the engine from a scenario's ServerLogic. */
export type ServerHandlers = Required<Pick<ServerLogic, 'onConnection' | 'onMessage' | 'onClose'>> &
  Pick<ServerLogic, 'routes'>;

export interface ServerStartOptions {
  /** Loopback address to bind, e.g. 127.0.0.1. */
  host: string;
  handlers: ServerHandlers;
}

/** A server that is listening. */
export interface RunningServer {
  /** ws://host:port/ for WebSocket stacks, http://host:port for socket.io. */
  url: string;
  /** http://host:port, for the scenario's REST routes. */
  httpUrl: string;
  /** Sends one message to every open connection, the stack's idiomatic way. */
  broadcast(data: MessageData): void;
  /** Messages the stack refused to queue (backpressure drops), since start. */
  droppedByStack(): number;
  close(): Promise<void>;
}

/** One server stack. Adding a stack = one file implementing this + one registry line. */
export interface ServerAdapter {
  /** Short name used on the command line (`ws`, `uws`, `socketio`). */
  name: string;
  protocol: Protocol;
  /** Whether it loads here, with version and build. */
  probe(): Promise<Availability>;
  start(options: ServerStartOptions): Promise<RunningServer>;
}

// ---------------------------------------------------------------- client side

/** One open client connection. */
export interface ClientConnection {
  send(data: MessageData): void;
  /** Bytes queued by the client but not yet written. */
  bufferedAmountBytes(): number;
  /** Resolves once the connection is closed. */
  close(): Promise<void>;
}

export interface ClientConnectOptions {
  /** Called for every message; binary data may be a view valid only during the call. */
  onMessage(data: MessageData): void;
  /** Called once if the connection closes without the client asking (server gone, error). */
  onUnexpectedClose(reason: string): void;
  /** Local (source) address, to spread many connections over 127.x addresses. */
  localAddress?: string;
  /**
   * When set, the adapter hands over every chunk of raw bytes the TCP socket
   * receives (frames and all), so a scenario can read framing off the wire.
   * Adapters that cannot reach their socket reject connect() with a reason.
   */
  onWireData?(chunk: Uint8Array): void;
}

/** One client stack. */
export interface ClientAdapter {
  name: string;
  protocol: Protocol;
  probe(): Promise<Availability>;
  /** Resolves once the connection is open; rejects with the reason when it cannot open. */
  connect(url: string, options: ClientConnectOptions): Promise<ClientConnection>;
}

// ---------------------------------------------------------------- scenarios

/** How a parameter's text is read. */
export type ParameterKind = 'integer' | 'number' | 'duration' | 'size' | 'boolean' | 'string';

/** Declares one scenario parameter. Durations are held in ms, sizes in bytes. */
export interface ParameterSpec {
  kind: ParameterKind;
  description: string;
  default: number | boolean | string;
  /** Smallest allowed value (ms for durations, bytes for sizes). */
  min?: number;
  max?: number;
  /** Allowed values for strings. */
  choices?: readonly string[];
  /** May take a comma list on the command line; each value becomes its own cell. */
  sweepable?: boolean;
}

/** Parameter values after validation: durations in ms, sizes in bytes. */
export type ParamValues = Record<string, number | boolean | string>;

/** Monotonic clock readings, shared by every process of one host. */
export interface Clock {
  /** CLOCK_MONOTONIC in microseconds (fractional). Comparable across processes on one host. */
  nowUs(): number;
}

/** Records values into a named HDR histogram of this process. */
export interface Recorder {
  /** Records one value in microseconds. */
  recordUs(valueUs: number): void;
  /**
   * Records a value measured from an intended time on a fixed schedule:
   * backfills the samples a stall would have hidden (coordinated omission).
   */
  recordUsWithInterval(valueUs: number, expectedIntervalUs: number): void;
}

/** Records sizes into a named histogram of this process. */
export interface SizeRecorder {
  recordBytes(bytes: number): void;
}

export interface Counter {
  add(amount?: number): void;
  value(): number;
}

/** What every process running scenario code gets, server or client. */
export interface MetricsApi {
  /** A latency histogram, 1 µs .. 1 h, 3 significant digits. */
  histogram(name: string): Recorder;
  /** A histogram of sizes in bytes (e.g. message sizes), 3 significant digits. */
  sizeHistogram(name: string): SizeRecorder;
  counter(name: string): Counter;
}

/** The server half's view of its process. */
export interface ServerScenarioContext<P extends ParamValues = ParamValues> extends MetricsApi, Clock {
  params: P;
  /** Valid once the server listens (before any connection arrives). */
  broadcast(data: MessageData): void;
  /** Open connections right now. */
  connections(): ReadonlySet<ServerConnection>;
}

/** An HTTP client bound to the server's httpUrl, with keep-alive. */
export interface HttpClient {
  request(method: 'GET' | 'POST', path: string, body?: string): Promise<{ status: number; body: string }>;
  /** Bytes its TCP sockets have carried so far, headers included. */
  wireBytes(): { sentBytes: number; receivedBytes: number };
}

/** A client process's view. Each client process runs `client(ctx)` once. */
export interface ClientScenarioContext<P extends ParamValues = ParamValues> extends MetricsApi, Clock {
  params: P;
  /** 0-based index of this client process and how many there are. */
  processIndex: number;
  processCount: number;
  /** This process's share of `total` (e.g. connections), spread evenly over processes. */
  share(total: number): number;
  /** Opens one connection to the server with this cell's client stack. */
  connect(options: ClientConnectOptions): Promise<ClientConnection>;
  /** The server's plain HTTP address (http://127.0.0.1:port), for the scenario's REST routes. */
  httpUrl: string;
  /** A shared HTTP client (one keep-alive connection) to httpUrl. */
  http: HttpClient;
  /** A separate HTTP client with its own connections and byte counts; closed by wsbench at the end. */
  newHttpClient(): HttpClient;
  /**
   * Say "connected, ready to measure" and wait for the window to open.
   * Every process waits for every other, so windows line up.
   */
  ready(): Promise<void>;
  /** Aborted when the measurement window closes (duration over, or interrupted). */
  signal: AbortSignal;
  /**
   * Closes this process's window early, for scenarios that end by themselves:
   * call it when the measured work is over, before closing connections, so that
   * cleanup counts in neither the rates nor the resources.
   */
  done(): void;
  /** Free-form notes that end up in the cell (first 20 kept). */
  note(text: string): void;
}

/** What else summarize() may use besides the measurements. */
export interface SummaryContext {
  /** Resources of the server and of each client process during the window. */
  resources: { server: ProcessResources | null; clients: ProcessResources[] };
  /** Messages the server stack refused to queue. */
  serverStackDrops: number;
  /** Client processes that generated load. */
  clientProcesses: number;
}

/** A column of the terminal table: a key of CellResult.metrics and its header. */
export interface ColumnSpec {
  key: string;
  header: string;
}

/** One workload. Lives in its own file under scenarios/ (or the user's). */
export interface Scenario<P extends ParamValues = ParamValues> {
  name: string;
  description: string;
  /** Protocol-specific needs, e.g. fragment control; pairs lacking them are skipped. */
  requires?: { fragmentControl?: boolean };
  parameters: Record<string, ParameterSpec>;
  /** Named parameter sets, e.g. `seed` (reproduces the published experiment) and `ci`. */
  presets?: Record<string, Record<string, string>>;
  /**
   * Checks a parameter set beyond each parameter's own range (e.g. against the
   * open-file limit); returns the problem as one line, or null. Runs before anything starts.
   */
  validate?(params: P): string | null;
  /** How long the orchestrator keeps the window open; undefined = until clients finish. */
  windowMs?(params: P): number | undefined;
  server(ctx: ServerScenarioContext<P>): ServerLogic;
  client(ctx: ClientScenarioContext<P>): Promise<void>;
  /** Turns merged measurements into the cell's metrics (flat numbers, units in keys). */
  summarize(cell: CellMeasurements, params: P, context: SummaryContext): Record<string, number | null>;
  /** Metrics shown in the terminal table, in order. */
  columns: ColumnSpec[];
}

/**
 * The contract of a scenario: what it declares (parameters, metrics, charts)
 * and the two halves it runs (server, client, or a client half per connection),
 * with the contexts the engine hands them. A scenario is made with
 * defineScenario() (src/shared/scenario-kit/define.ts).
 */
import type {
  ClientConnectOptions,
  ClientConnection,
  HttpHandler,
  MessageData,
  SendQueueLimit,
  ServerConnection,
} from './adapter-types.js';
import type {
  ChartRequest,
  CustomSource,
  DurationOverride,
  MetricInfo,
  ParamInputs,
  ParameterDeclarations,
  ParamsOf,
  ParamValues,
} from './declaration-types.js';
import type { COMMON_PARAMETERS } from './common-parameters.js';
import type { CellMeasurements, CellResources, LoadModelInfo } from './result-types.js';
import type {
  MetricsApi,
  RecorderDeclarations,
  RecorderKeys,
  DeclaredHistograms,
  RecordersOf,
} from './recorder-types.js';
import type { LoadPlan, ScenarioConnection } from './connection-types.js';

/** What crosses between processes as JSON (IPC uses JSON serialization, for Bun and Deno children too). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

// ---------------------------------------------------------------- recording

/** Monotonic clock readings, shared by every process of one host. */
export interface Clock {
  /** CLOCK_MONOTONIC in microseconds (fractional). Comparable across processes on one host. */
  nowUs(): number;
}

export type { Recorder, SizeRecorder, Counter, MetricsApi } from './recorder-types.js';

// ---------------------------------------------------------------- server half

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
  /** What another process of the same server sent with ctx.tellSiblings (multiProcessServer scenarios). */
  onSiblingMessage?(data: JsonValue): void;
}

/** The server half's view of its process. */
export interface ServerScenarioContext<P extends ParamValues = ParamValues> extends MetricsApi, Clock {
  params: P;
  /** Valid once the server listens (before any connection arrives). */
  broadcast(data: MessageData): void;
  /**
   * Sends `data` to every connection of this process subscribed to `topic` (connection.subscribe),
   * through the stack's own pub/sub: uWS and Bun topics, socket.io rooms, a topic map on ws and Deno.
   */
  publish(topic: string, data: MessageData): void;
  /** Open connections right now (this process's, when the server runs as several). */
  connections(): ReadonlySet<ServerConnection>;
  /** 0-based index of this server process and how many serve the cell (the `serverProcesses` parameter). */
  processIndex: number;
  processCount: number;
  /**
   * Hands `data` to onSiblingMessage in every other process of this server (through wsbench,
   * in order, not to the sender); does nothing when the server is one process.
   */
  tellSiblings(data: JsonValue): void;
}

// ---------------------------------------------------------------- client half

/**
 * What a scenario passes to ctx.connect(). `onUnexpectedClose` is optional: wsbench counts every
 * close the client did not ask for in the counter `connectionsLost` (and notes its reason in the
 * cell) whether or not the scenario handles it; declare `total('connectionsLost', 'lost',
 * { role: 'errors' })` to show and compare it. Connections lost or that could not open also set
 * the cell's status (`errors`, or `failed` when every one was lost). `deflate` is the engine's
 * (the cell's parameter).
 */
export type ScenarioConnectOptions = Omit<ClientConnectOptions, 'onUnexpectedClose' | 'deflate'> & {
  /** Called once if the connection closes without the client asking (server gone, error), after wsbench counted it. */
  onUnexpectedClose?(reason: string): void;
  /**
   * The handshake's overall deadline in ms (default 30 s): a connection not open by then rejects
   * with ETIMEDOUT, counts as one that could not open, and is closed if it opens later.
   */
  timeoutMs?: number;
};

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
  /** Index, over all processes, of this process's first item when `total` is spread as share() spreads it. */
  firstOfShare(total: number): number;
  /** Opens one connection to the server with this cell's client stack. */
  connect(options: ScenarioConnectOptions): Promise<ClientConnection>;
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
  /**
   * For a scenario that declares `serverRestart`: resolves once wsbench has killed the server
   * and seen it serve again, with both times on this process's clock. When the window closes
   * (or the restart fails) after the kill but before the new server served, `servingAtUs` is
   * null: the kill still explains the connections it dropped. Null when the window closes
   * before the kill, and at once in a scenario without the declaration.
   */
  serverRestart(): Promise<ServerRestartTimes | null>;
}

/** When the engine restarted the server mid-window: CLOCK_MONOTONIC µs, the clock of ctx.nowUs(). */
export interface ServerRestartTimes {
  /** Right before wsbench killed the server (SIGKILL): the moment its clients start to be lost. */
  stoppedAtUs: number;
  /**
   * When wsbench first saw the new server serving (its own: the ready signal; a command's: its first handshake
   * answered, the probe's hold after it not counted); null when it did not serve within the window.
   */
  servingAtUs: number | null;
}

// ---------------------------------------------------------------- metrics

/** What a custom metric's function may read: the cell's merged numbers. */
export interface MetricInput<P extends ParamValues = ParamValues> {
  measurements: CellMeasurements;
  params: P;
  resources: CellResources;
  /** Messages the server stack refused to queue; null when the server did not say. */
  stackDrops: number | null;
  /** Client processes that generated load. */
  clientProcesses: number;
}

/**
 * A computed value with the resolution of what it was read from: how far the measurement's own noise
 * alone could move it, either way, in the metric's unit. For quantities above 0 by nature; one not told
 * apart from 0 is recorded as below its resolution, never as a value (result's `resolution`).
 */
export interface ValueWithResolution {
  estimate: number;
  resolution: number;
}

/** A metric computed by the scenario: the function runs in wsbench, its result goes into the JSON. */
export interface ComputedSource<P extends ParamValues = ParamValues> extends CustomSource {
  compute(input: MetricInput<P>): number | null | ValueWithResolution;
}

/** One metric as a scenario declares it: its meaning, and where its value comes from. */
export type MetricDefinition<P extends ParamValues = ParamValues> = Omit<MetricInfo, 'source'> & {
  source: Exclude<MetricInfo['source'], CustomSource> | ComputedSource<P>;
};

/** A problem with a parameter set, naming the parameter it is about (the CLI turns that into its flag). */
export interface ParameterProblem {
  parameter: string;
  message: string;
}

// ---------------------------------------------------------------- the scenario

/** A scenario's parameter values as its code receives them: its own, and the common ones (duration, deflate, serverProcesses). */
export type ScenarioParams<D extends ParameterDeclarations> = ParamsOf<WithCommon<D>>;

/** Preset values: any of the scenario's own parameters and the common ones. */
export type ScenarioInputs<D extends ParameterDeclarations> = ParamInputs<WithCommon<D>>;

/** A scenario's declarations and the common ones it does not declare itself (it may declare its own `duration`). */
type WithCommon<D extends ParameterDeclarations> = D & Omit<typeof COMMON_PARAMETERS, keyof D>;

/**
 * What defineScenario() takes. `D` is inferred from `parameters` alone and `M` from
 * `metrics` alone (NoInfer elsewhere), so a scenario built by spreading another
 * one and adding parameters gets the new parameter types.
 */
export interface ScenarioDefinition<
  D extends ParameterDeclarations = ParameterDeclarations,
  M extends Record<string, MetricDefinition<ScenarioParams<D>>> = Record<string, MetricDefinition<ScenarioParams<D>>>,
  // biome-ignore lint/complexity/noBannedTypes: {} is the empty set of recorders, the identity of the intersection
  R extends RecorderDeclarations = {},
  S = unknown,
> {
  name: string;
  description: string;
  /**
   * Stack features the scenario cannot do without; pairs lacking one are skipped:
   * `fragmentControl` (server sendFragmented), `httpRoutes` (server serves routes),
   * `wireTap` (client onWireData), `pauseReading` (client throttleReading), `httpClient` (the client half calls
   * the server's HTTP routes through ctx.http). `wsbenchServer`: the scenario runs only against
   * wsbench's own servers (its server half is no documented wire protocol a --target
   * or --server-cmd server could speak); the text says why, and such cells are skipped.
   */
  requires?: {
    fragmentControl?: boolean;
    httpRoutes?: boolean;
    wireTap?: boolean;
    pauseReading?: boolean;
    httpClient?: boolean;
    wsbenchServer?: string;
  };
  /**
   * Why this parameter set cannot run on wsbench's own server stacks (they host the server half),
   * or null: pubsub's `broker=nats` speaks a protocol only a --server-cmd or --target broker
   * speaks. Those cells are skipped with the reason.
   */
  builtInServerSkip?(params: NoInfer<ScenarioParams<D>>): string | null;
  /**
   * The WebSocket subprotocols this parameter set's connections offer (ctx.connect's `protocols`):
   * wsbench's probe of a --target or --server-cmd server offers them too, since a broker may
   * refuse a handshake without its own (graphql-ws, RabbitMQ's Web-MQTT). Default none.
   */
  subprotocols?(params: NoInfer<ScenarioParams<D>>): string[];
  /**
   * The server half still works as several processes sharing one port (the common
   * `serverProcesses` parameter): each process serves only the connections the kernel
   * hands it, and what the processes must agree on travels by ctx.tellSiblings. Without
   * it, serverProcesses above 1 skips the cell: a chat room split over processes is
   * no longer one room.
   */
  multiProcessServer?: boolean;
  parameters: D;
  /**
   * The common `duration` parameter (the window's length), worded and bounded for this scenario
   * where it differs from wsbench's: "measurement window", default 10s, at least 100ms.
   */
  duration?: DurationOverride;
  /** Named parameter sets, e.g. `seed` (reproduces the published experiment) and `ci`. */
  presets?: Record<string, ScenarioInputs<NoInfer<D>>>;
  /**
   * Checks a parameter set beyond each parameter's own range (e.g. against the
   * open-file limit); returns the problem, or null. Runs before anything starts.
   */
  validate?(params: NoInfer<ScenarioParams<D>>): ParameterProblem | null;
  /**
   * How long the orchestrator keeps the window open, when that is not the `duration` parameter;
   * undefined = until the clients finish (they call ctx.done()).
   */
  windowMs?(params: NoInfer<ScenarioParams<D>>): number | undefined;
  /**
   * How a parameter set offers its load, for the table and the JSON (`load` of each cell): the open model
   * (messages on a schedule, timed from when each was due) or the closed loop (each connection waits for its
   * replies: a stall counts once per connection). The kit's loadModelInfo() words it from OPEN_MODEL_PARAMETERS.
   */
  loadModel?(params: NoInfer<ScenarioParams<D>>): LoadModelInfo;
  /**
   * How long every client process may take to connect and call ready(), in ms.
   * Default 15 s; at most 10 minutes. Declare it when the connect phase grows with
   * the parameters (e.g. connections at a connect rate).
   */
  readyTimeoutMs?(params: NoInfer<ScenarioParams<D>>): number;
  /**
   * Ask the engine to kill the server mid-window and start it again on the same port:
   * `atMs` after the window opens, `downtimeMs` from the kill to the new start (both in ms,
   * inside the window). A --target is skipped (wsbench cannot restart a server it did not
   * start); the clients learn the times from ctx.serverRestart().
   */
  serverRestart?: {
    atMs(params: NoInfer<ScenarioParams<D>>): number;
    downtimeMs(params: NoInfer<ScenarioParams<D>>): number;
  };
  /**
   * Connections that could not open or were lost make a cell `errors` (or `failed` when every
   * one was lost): they are faults. A scenario whose subject is exactly that (handshakes refused
   * under churn, clients dropped by a restart, slow consumers a stack closes) declares
   * `connectionFaults: 'measured'`: the engine's connection ledger then does not judge the cell,
   * and the scenario counts them in its own metrics instead, with role 'errors' for those that
   * are faults. Either way, any metric of role 'errors' above zero makes the cell `errors`.
   * Default 'fault'.
   */
  connectionFaults?: 'fault' | 'measured';
  /**
   * The per-connection send-queue limit this parameter set asks of server stacks that have one
   * (uWS maxBackpressure, Bun backpressureLimit), in place of the one wsbench pins; undefined: the
   * pinned one. Stacks without a limit buffer without limit whatever this says.
   */
  sendQueueLimit?(params: NoInfer<ScenarioParams<D>>): SendQueueLimit | undefined;
  /**
   * The server half, run by wsbench's own server stacks. Leave it out for a client-only scenario
   * (your own protocol, measured against --target and --server-cmd servers): built-in server
   * stacks then skip the scenario with the reason "the scenario has no server half".
   */
  server?(ctx: WithRecorders<ServerScenarioContext<NoInfer<ScenarioParams<D>>>, R, 'server'>): ServerLogic;
  /**
   * The client half, run once in every client process: it opens its connections with ctx.connect,
   * says ctx.ready(), works until ctx.signal, drains and closes. Give this or `connection`.
   */
  client?(ctx: WithRecorders<ClientScenarioContext<NoInfer<ScenarioParams<D>>>, R, 'client'>): Promise<void>;
  /**
   * The per-connection form: called once per connection when the window opens, with the connection
   * open. wsbench opens the connections (spread over client processes and source addresses, at the
   * `connect` plan's rate), waits for every process, closes the window, drains, closes, and counts
   * connect failures by reason and lost connections. Return when the connection's work is over.
   */
  connection?(
    conn: ScenarioConnection,
    ctx: ConnectionContext<NoInfer<ScenarioParams<D>>, R>,
    shared: S,
  ): Promise<void> | void;
  /** The per-connection form: what every connection of a client process shares, made once per process before they open. */
  setup?(ctx: ConnectionContext<NoInfer<ScenarioParams<D>>, R>): S;
  /** The per-connection form: how many connections and how wsbench opens them; every field has a default. */
  connect?: ConnectPlan<NoInfer<ScenarioParams<D>>>;
  /**
   * Histograms and counters, each with what it reports: `{ rtt: histogram({ stats: ['p50', 'p99'] }),
   * wrong: counter() }`. Their metrics (`rttP50Ms`, `rttP99Ms`, `wrong`) join `metrics`; the code
   * records through `ctx.recorders.rtt`.
   */
  recorders?: R;
  /** Metrics beyond those the recorders declare (computed ones, resources, engine counters), by key. */
  metrics?: M;
  /** Metrics the terminal table and the HTML show, in order. */
  table: ReadonlyArray<NoInfer<MetricKeysOf<M, R>>>;
  /** Charts to draw; without any, the percentile curve of each primary latency and the server's resources. */
  charts?: Array<
    ChartRequest<
      NoInfer<MetricKeysOf<M, R>>,
      NoInfer<HistogramNamesOf<M, R>>,
      NoInfer<keyof ScenarioParams<D> & string>
    >
  >;
}

/** A half's ctx with the recorders declared for its side. */
export type WithRecorders<C, R, Side extends 'client' | 'server'> = C & { readonly recorders: RecordersOf<R, Side> };

/**
 * Every metric key of a scenario: its own and those its recorders derive. Without `metrics`, TypeScript
 * infers M as its constraint (any string key): with recorders, that means none of its own.
 */
export type MetricKeysOf<M, R> = [keyof R] extends [never]
  ? keyof M & string
  : // Through `infer`, so that a compile error lists the keys rather than the types they come from.
    (string extends keyof M ? never : keyof M & string) | RecorderKeys<R> extends infer K
    ? K & string
    : never;

type HistogramOfSource<Src> = Src extends { histogram: infer H extends string } ? H : never;
/** Every histogram a scenario's metrics read: any string when a metric names one as a plain string. */
export type HistogramNamesOf<M, R> = [keyof R] extends [never]
  ? OwnHistograms<M>
  : (string extends keyof M ? never : OwnHistograms<M>) | DeclaredHistograms<R>;
type OwnHistograms<M> = {
  [K in keyof M]: M[K] extends { source: infer Src } ? HistogramOfSource<Src> : never;
}[keyof M];

/** The ctx of `connection(conn, ctx)` and `setup(ctx)`: the client half's, less what wsbench now does itself. */
// biome-ignore lint/complexity/noBannedTypes: {} is the empty set of recorders, the identity of the intersection
export interface ConnectionContext<P extends ParamValues = ParamValues, R = {}>
  extends Omit<ClientScenarioContext<P>, 'share' | 'firstOfShare' | 'connect' | 'ready'> {
  /** The recorders declared for the client side, by name. */
  readonly recorders: RecordersOf<R, 'client'>;
  /** Aborted when the drain after the window is over: stop waiting for replies then. */
  drained: AbortSignal;
  /**
   * How the cell offers its load, from the kit's OPEN_MODEL_PARAMETERS (the closed loop for a scenario
   * without them): conn.iterate() follows it; a scenario that paces itself reads it.
   */
  readonly load: LoadPlan;
}

/** How wsbench opens the connections of the per-connection form. */
export interface ConnectPlan<P extends ParamValues = ParamValues> {
  /** Connections over the whole cell; default the `connections` parameter. */
  count?(params: P): number;
  /** Connections opened per second over all client processes; default none: 100 handshakes at a time, as fast as they finish. */
  ratePerSec?(params: P): number;
  /** A connection not open after this many ms counts as failed (ETIMEDOUT); default 10 s. */
  timeoutMs?(params: P): number;
  /** Loopback source addresses 127.0.0.2.. to spread connections over; default 0: one per 1000 connections above 1000. */
  sourceAddresses?(params: P): number;
  /** How long, after the window, replies in flight may still come (ms); default 1000. */
  drainMs?(params: P): number;
  /** Hand text over as its UTF-8 bytes (ctx.connect's `textAsBytes`), for scenarios that check only sizes. */
  textAsBytes?: boolean;
}

/** Marks objects made by defineScenario(), so a module's exports can be told apart. */
export const SCENARIO_BRAND: unique symbol = Symbol.for('wsbench.scenario');

/**
 * A scenario, as defineScenario() returns it: its metrics are all of them (the recorders'
 * included), and its client half is one function whatever form it was written in.
 */
export interface Scenario<
  D extends ParameterDeclarations = ParameterDeclarations,
  M extends Record<string, MetricDefinition<ScenarioParams<D>>> = Record<string, MetricDefinition<ScenarioParams<D>>>,
> extends Omit<
    ScenarioDefinition<D, M>,
    'server' | 'client' | 'connection' | 'setup' | 'connect' | 'recorders' | 'metrics'
  > {
  server?(ctx: ServerScenarioContext<NoInfer<ScenarioParams<D>>>): ServerLogic;
  client(ctx: ClientScenarioContext<NoInfer<ScenarioParams<D>>>): Promise<void>;
  metrics: M;
  /** The recorders declared, as declared. */
  readonly recorders?: RecorderDeclarations;
  readonly [SCENARIO_BRAND]: true;
  /** file:// URL of the module that defined it: child processes import the scenario from there. */
  readonly moduleUrl: string | null;
}

/** Any scenario, whatever its parameters and metrics. */
// biome-ignore lint/suspicious/noExplicitAny: any scenario, whatever its parameter and metric types
export type AnyScenario = Scenario<any, any>;

/** True for objects made by defineScenario(). */
export function isScenario(value: unknown): value is Scenario {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SCENARIO_BRAND] === true;
}

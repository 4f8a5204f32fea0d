/**
 * The result JSON: the one source of truth every reporter reads.
 * Bump SCHEMA_VERSION on any change a reader of an older file would misread
 * (src/parent/results/result-upgrade.ts turns older files into this shape).
 * schema/result.schema.json is generated from these types and their JSDoc tags:
 * run `npm run schema:update` after changing one (docs/result-format.md).
 */
import type { ChartRequest, MetricInfo, ParameterInfo, ParamValues } from './declaration-types.js';
import type { MergeInfo, ShardInfo } from './shard-types.js';
import type { CapacitySection, SloClause } from './capacity-types.js';

/** The version of the result JSON's shape this wsbench writes (schema/ holds each version's schema). */
export const SCHEMA_VERSION = 3;

/** Which wire protocol a stack speaks; only stacks of the same protocol can be paired. */
export type Protocol = 'websocket' | 'socket.io';

/** The JavaScript runtime a stack's child process runs under. */
export type Runtime = 'node' | 'bun' | 'deno';

/** A runtime as this machine has it. */
export interface RuntimeInfo {
  name: Runtime;
  available: boolean;
  /** As the binary reports it (`bun --version`), without a leading v; null when it could not run. */
  version: string | null;
  /** The binary; null when none was found. */
  path: string | null;
  /** Where it came from: an environment variable (`WSBENCH_BUN=...`), the pinned npm package, PATH (`bun on PATH`), or the running Node. */
  source: string;
  /** Why it is unavailable. */
  reason?: string;
}

/**
 * Settings that change the numbers, set explicitly by the adapter rather than
 * left to the stack's defaults (sizes in bytes, times in seconds or ms as named).
 */
export type StackSettings = Readonly<Record<string, string | number | boolean>>;

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

/** Latency statistics of one histogram that holds samples, in milliseconds. */
export interface LatencySummary {
  /** Samples recorded (always > 0: an empty histogram has no summary). */
  count: number;
  minMs: number;
  meanMs: number;
  stdevMs: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  p999Ms: number;
  maxMs: number;
}

/** Size statistics of one histogram that holds samples, in bytes. */
export interface SizeSummary {
  count: number;
  minBytes: number;
  meanBytes: number;
  p50Bytes: number;
  p99Bytes: number;
  maxBytes: number;
}

/** A histogram as it crosses process boundaries: HdrHistogram compressed base64. */
export interface EncodedHistogram {
  /** Unit of the recorded values: microseconds (latencies) or bytes (sizes). */
  unit: 'us' | 'bytes';
  /** HdrHistogram V2 compressed, base64 (readable by any HdrHistogram implementation). */
  hdrBase64: string;
}

/** mean / max of a resource sampled every ~250 ms during the window. */
export interface SampledStat {
  mean: number;
  max: number;
}

/**
 * One process's resource use during the measurement window. CPU and RSS are read
 * from /proc by wsbench (the whole process tree for a server started by command),
 * the same way for every runtime and language.
 */
export interface ProcessResources {
  /** CPU time over wall time, in percent of one core (200 = both cores of a 2-core box). */
  cpuPercent: SampledStat;
  /**
   * Time its main thread spent on a CPU plus waiting on a run queue for one, over wall time, in percent
   * of one core (/proc/<pid>/schedstat): the CPU its event loop wanted. On a shared machine a spinning
   * process gets less than a core but still wants one; saturation is judged on this where present.
   * Absent where the kernel keeps no schedstat, for a server read through its cgroup, and in older files.
   */
  cpuDemandPercent?: SampledStat;
  /** Resident set size. */
  rssBytes: SampledStat;
  /** Share of time the event loop was busy, 0..1, as the process itself reported it; null where the runtime does not. */
  eventLoopUtilization: SampledStat | null;
  /**
   * How late a 50 ms timer of the process fired, in ms, as the process itself measured it: how long
   * work waited for its event loop. Absent in files older than schema 3.
   */
  timerLatenessMs?: SampledStat | null;
  /** /proc readings taken: one as the window opened, one every 250 ms, one as it closed. */
  samples: number;
}

/** Resources of the server and of each client process during the window. */
export interface CellResources {
  /** Null when the server was not measured (it reported nothing). */
  server: ProcessResources | null;
  /** One entry per client process. */
  clients: ProcessResources[];
}

/** What one process measured, shipped once at the end of the window. */
export interface ProcessReport {
  histograms: Record<string, EncodedHistogram>;
  counters: Record<string, number>;
  /** Event-loop utilisation as the process saw it; null where the runtime cannot say. */
  eventLoopUtilization: SampledStat | null;
  /** How late its 50 ms timer fired during the window, in ms; null when it never ran. */
  timerLatenessMs?: SampledStat | null;
  /**
   * Wall time from window open to close, as this process saw it; when every connection it had
   * was lost before the close, up to that loss (the time its traffic ran).
   */
  windowMs: number;
  /** What happened to the connections of a client process (absent for servers). */
  connections?: ConnectionLedger;
  notes: string[];
}

/**
 * The connections of a client process (or, summed, of a cell), as the engine saw them: every
 * connect() of the scenario counts here, whatever the scenario does with the outcome.
 */
export interface ConnectionLedger {
  /** Connections that opened. */
  opened: number;
  /** Connections that could not open: refused, timed out, or the handshake failed. */
  failed: number;
  /** Open connections that closed without the client asking (the server closed them, or they broke). */
  lost: number;
  /** When the first connection failed or was lost, in ms from the window's opening (negative: while connecting); null when none did. */
  firstFaultMs: number | null;
  /** Why it failed or was lost, as the client stack said. */
  firstFault: string | null;
  /** When the last open connection was lost, leaving none (in ms from the window's opening); null while any stayed open. */
  allLostMs: number | null;
}

/** Everything measured in one cell, merged over client processes (and rounds). */
export interface CellMeasurements {
  /** Client histograms merged over processes. */
  histograms: Record<string, EncodedHistogram>;
  /** Summaries of the latency histograms (unit us) that hold samples; an empty one is absent. */
  latency: Record<string, LatencySummary>;
  /** Summaries of the size histograms (unit bytes) that hold samples. */
  sizes: Record<string, SizeSummary>;
  /** Client counters summed over processes. */
  counters: Record<string, number>;
  /** Server-side histograms (e.g. server-measured delays). */
  serverHistograms: Record<string, EncodedHistogram>;
  serverLatency: Record<string, LatencySummary>;
  serverCounters: Record<string, number>;
  /** Longest client window, the denominator of every rate (summed over rounds). */
  windowMs: number;
  /** When the window opened (epoch ms, the orchestrator's clock), so shards can find their common window. */
  windowOpenedAtEpochMs?: number;
  /** The window interval by interval, its last point at the window's end (absent when no client ticked). */
  timeSeries?: TimeSeries;
}

/** Latency of the samples recorded within one interval only. */
export interface IntervalLatency {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Absent in files older than the field. */
  meanMs?: number;
  p90Ms?: number;
  p999Ms?: number;
}

export interface TimeSeriesPoint {
  /** End of the interval, counted from the window's opening. */
  tMs: number;
  /** Client counters summed over processes, cumulative since the window opened. */
  counters: Record<string, number>;
  /** Per client histogram with samples in the interval, merged over processes. */
  latency: Record<string, IntervalLatency>;
}

export interface TimeSeries {
  /** Length of a point's interval (100 ms under 10 s windows, 1 s above, longer when folded); the last may be shorter: use tMs differences. */
  intervalMs: number;
  points: TimeSeriesPoint[];
}

/**
 * ok: measured to the end, no fault. errors: measured to the end, but connections were lost or
 * could not open (the numbers cover the connections that ran). failed: the cell stopped early or
 * never ran as planned (a process died, the server went away, every connection was lost, no samples).
 * skipped: the pair could not run here.
 */
export type CellStatus = 'ok' | 'errors' | 'failed' | 'skipped';

/**
 * The metric values of a cell, by key: every metric the scenario declares, null where there was
 * nothing to measure. run() of a scenario it knows the type of narrows it to that scenario's keys.
 */
export type MetricValueMap = Record<string, number | null>;

/** Which cell: one scenario x server x client x parameter-set combination. `P`: its parameters' type (run() of a known scenario narrows it). */
export interface CellIdentity<P extends ParamValues = ParamValues> {
  scenario: string;
  server: string;
  client: string;
  /** Validated parameters: durations in ms, sizes in bytes. */
  params: P;
  /** How the cell offered its load (open model or closed loop), where the scenario says; absent otherwise. */
  load?: LoadModelInfo;
  /** Wall time the cell took, including startup and teardown (all rounds). */
  elapsedMs: number;
}

/**
 * How a cell offered its load (docs/load-models.md). `open`: messages went out on a schedule whatever came
 * back, each timed from its due time. `closed`: each connection waited for its replies before sending again,
 * so the load was whatever the server let through, and a stall counted once per connection (coordinated
 * omission), not once for every message that would have waited.
 */
export interface LoadModelInfo {
  model: 'open' | 'closed';
  /**
   * The rate offered over the whole cell, msg/s, when it was one rate throughout (no stages).
   * @minimum 0
   */
  offeredPerSec?: number;
  /** In words, for the table: "open model, 5000/s", "closed loop, 1 conn x 1 in flight". */
  text: string;
  /** The parameters `text` says all there is to say of (the table leaves them off its `every cell` line). */
  says?: string[];
}

/** The numbers of a cell that measured something. `V`: its metric values' type (run() of a known scenario narrows it). */
export interface Measured<V extends MetricValueMap = MetricValueMap> {
  /** The scenario's declared metrics; null where there was nothing to measure (see `missing`). */
  metrics: V;
  /** Why each null metric is null, e.g. "no samples in the window". */
  missing: Record<string, string>;
  /**
   * The metrics measured with a resolution of their own (a scenario's computed metric that says how far
   * its noise alone could move it, e.g. server memory per connection read off RSS samples), by key.
   * One that is not told apart from 0 is null in `metrics`, "below its resolution" in `missing`, and
   * its estimate is here, never in `metrics`. Absent when no metric has one.
   */
  resolution?: Record<string, MetricResolution>;
  measurements: CellMeasurements;
  resources: CellResources;
  /** Messages the server stack refused to queue (backpressure drops); null when not reported. */
  stackDrops: number | null;
  notes: string[];
  /**
   * Set when the server fell behind: it used a whole core and could not report in
   * time. The evidence, in words; the clients' numbers are complete, server-side ones null.
   */
  saturation?: string;
  /** Set when a load-generating (client) process was saturated or starved of CPU: its latencies include its own queueing. */
  loadSaturation?: LoadSaturation;
  /** Set on an `errors` or `failed` cell: when the fault happened and what it did to the connections. */
  fault?: CellFault;
  /**
   * What the clients' TLS handshakes negotiated, by outcome, most connections first; absent when
   * the cell made no TLS connection. A stack that cannot tell gives null ones and its reason.
   */
  tls?: TlsOutcome[];
  /**
   * With --repeat: each round as measured. The cell's own numbers pool every round:
   * histograms merged, counters and windows added, metrics computed once from that.
   */
  rounds?: RoundResult<V>[];
  /**
   * The confidence interval of each key number (every primary-latency and primary-rate metric with a
   * better direction), by metric key; absent in files older than the field (wsbench reads them in).
   */
  intervals?: Record<string, ValueInterval>;
  /** Why a key number has no interval ("the window has 3 intervals; an interval needs 5"), by metric key. */
  noInterval?: Record<string, string>;
  /** Set when the rounds disagree far more than their own spread (a machine switching speeds), in words. */
  unstable?: string;
  /** The verdict of `run --slo` on this cell. */
  slo?: CellSloVerdict;
  /**
   * A cell run in stages (the load changed within its window): each stage on its own, all rounds pooled.
   * The cell's own numbers are the whole window's. Absent without stages.
   */
  stages?: StageResult<V>[];
}

/**
 * One stage of a cell: the client side's numbers over it (server-side ones are the whole window's only:
 * null here, with that reason), the CPU and memory sampled while it ran, and its own judgement.
 */
export interface StageResult<V extends MetricValueMap = MetricValueMap> {
  /**
   * 0-based, in the order they ran.
   * @integer
   * @minimum 0
   */
  index: number;
  /**
   * Bounds in the window, ms from its opening.
   * @minimum 0
   */
  startMs: number;
  /** @minimum 0 */
  endMs: number;
  /**
   * Where the stage took the load (the rate, or the active connections: the scenario's unit).
   * @minimum 0
   */
  target: number;
  /** errors: a metric of role errors counted above 0 in this stage (`reason` names them). */
  status: 'ok' | 'errors';
  reason?: string;
  metrics: V;
  missing: Record<string, string>;
  /** Client side only: histograms, counters and window of the stage. */
  measurements: CellMeasurements;
  resources: CellResources;
  loadSaturation?: LoadSaturation;
}

/**
 * A confidence interval of one number (docs/reading-results.md says how each method works): the value
 * times / divided by exp(t x standardError / value), on the log scale. `rounds`: the standard error of
 * a round's value, from the spread of the cell's rounds (--repeat 3 or more). `window`: batch means over
 * the window's own intervals (about ten consecutive batches after the warm-up, widened for the
 * correlation of neighbouring batches), for a cell measured once.
 */
export interface ValueInterval {
  /** Bounds, in the metric's unit; above 0 for a value above 0 (every key number is a latency or a rate). */
  low: number;
  high: number;
  /**
   * Confidence level, 0..1 (0.95).
   * @minimum 0
   * @maximum 1
   */
  level: number;
  method: 'rounds' | 'window';
  /**
   * Standard error of the value, in its unit: what a comparison of two cells combines.
   * @minimum 0
   */
  standardError: number;
  /**
   * Degrees of freedom of the t quantile (rounds - 1, or batches - 1).
   * @exclusiveMinimum 0
   */
  degreesOfFreedom: number;
  /**
   * Rounds, or batches of the window, the spread was read from.
   * @minimum 1
   */
  samples: number;
}

/** `run --slo`: each clause judged against the interval of the value it names. */
export interface CellSloVerdict {
  /** fail when any clause fails; else inconclusive when any is; else pass. */
  verdict: SloVerdict;
  clauses: SloClauseVerdict[];
}

/** pass: the whole interval keeps the bound; fail: none of it does; inconclusive: the interval straddles the bound. */
export type SloVerdict = 'pass' | 'fail' | 'inconclusive';

export interface SloClauseVerdict {
  /** The clause as written, spaces removed: "p99<10ms". */
  clause: string;
  verdict: SloVerdict;
  /** The value judged (a sum for `errors`); null when the cell does not have it (the clause fails). */
  value: number | null;
  /** Its interval when it has one; the clause is judged on the value alone when it has none (counts are exact). */
  low?: number;
  high?: number;
  /** For people: "p99 0.21 ms [0.18, 0.25] < 10 ms", "p99 not measured: no samples". */
  why: string;
}

/**
 * A load generator that could not keep up: a client process used a whole core
 * (saturated) or had work waiting for a core most of the window (starved, the
 * machine was full). Either way what it timed includes its own queueing.
 */
export interface LoadSaturation {
  /**
   * Client processes (1-based) that used a whole core.
   * @integer
   * @minimum 1
   */
  saturated: number[];
  /**
   * Client processes (1-based) whose event loop was busy nearly all the window while on CPU less: other processes held the cores.
   * @integer
   * @minimum 1
   */
  starved: number[];
  /**
   * Set when the generator fell behind the schedule of the open model (measure/send-schedule.ts): messages due
   * never went out, or went out far late. Absent otherwise and in older files.
   */
  behindSchedule?: boolean;
  /** The evidence (CPU, event-loop utilisation, timer lateness of each process) and what to do, in words. */
  evidence: string;
}

/** What went wrong with the server or the connections of a cell, and when. */
export interface CellFault {
  /** When it first happened, in ms from the window's opening (negative: while connecting); null when not known. */
  atMs: number | null;
  /** Connections that opened, could not open, and were lost without the client asking, over all client processes. */
  connections: {
    /** @integer @minimum 0 */
    opened: number;
    /** @integer @minimum 0 */
    failed: number;
    /** @integer @minimum 0 */
    lost: number;
  };
  /**
   * Set when the traffic stopped before the window's end (every connection lost): the rates are over this many ms.
   * @minimum 0
   */
  trafficMs?: number;
}

/** One TLS outcome of a cell's client connections. */
export interface TlsOutcome {
  /** As OpenSSL names it (`TLSv1.3`); null when the client stack does not say. */
  protocol: string | null;
  /** The IANA name of the cipher (`TLS_AES_256_GCM_SHA384`); null when the client stack does not say. */
  cipher: string | null;
  /** Why protocol and cipher are null. */
  reason?: string;
  /** Client connections with this outcome. */
  connections: number;
}

/**
 * A cell whose every process reported: all its numbers are there. The cell types take the type of
 * their metric values (`V`) and parameters (`P`); the defaults are any scenario's.
 */
export interface OkCell<V extends MetricValueMap = MetricValueMap, P extends ParamValues = ParamValues>
  extends CellIdentity<P>,
    Measured<V> {
  status: 'ok';
}

/** A cell measured to the end whose connections were lost or could not open: its numbers cover the connections that ran. */
export interface ErrorsCell<V extends MetricValueMap = MetricValueMap, P extends ParamValues = ParamValues>
  extends CellIdentity<P>,
    Measured<V> {
  status: 'errors';
  reason: string;
}

/** A cell that failed part-way and kept what it measured until then. */
export interface FailedMeasuredCell<V extends MetricValueMap = MetricValueMap, P extends ParamValues = ParamValues>
  extends CellIdentity<P>,
    Measured<V> {
  status: 'failed';
  reason: string;
}

/** A cell that failed before anything was measured. */
export interface FailedEmptyCell<P extends ParamValues = ParamValues> extends CellIdentity<P> {
  status: 'failed';
  reason: string;
  measurements?: undefined;
}

export interface SkippedCell<P extends ParamValues = ParamValues> extends CellIdentity<P> {
  status: 'skipped';
  /** Why the pair cannot run (incompatible protocols, stack unavailable, missing feature). */
  reason: string;
  measurements?: undefined;
}

export type FailedCell<V extends MetricValueMap = MetricValueMap, P extends ParamValues = ParamValues> =
  | FailedMeasuredCell<V, P>
  | FailedEmptyCell<P>;
/**
 * One cell of a run (a server, a client, a parameter set), a union by `status`: measured (`ok`, `errors`, `failed`) or
 * not. A failed cell has `measurements` when it measured something before failing.
 * @discriminator status
 */
export type CellResult<V extends MetricValueMap = MetricValueMap, P extends ParamValues = ParamValues> =
  | OkCell<V, P>
  | ErrorsCell<V, P>
  | FailedCell<V, P>
  | SkippedCell<P>;
/** Any cell with numbers: ok, with errors, or failed part-way. */
export type MeasuredCell<V extends MetricValueMap = MetricValueMap, P extends ParamValues = ParamValues> =
  | OkCell<V, P>
  | ErrorsCell<V, P>
  | FailedMeasuredCell<V, P>;

/** True for a cell with numbers (ok, with errors, or failed after measuring something); a typed cell stays typed. */
export function isMeasured<V extends MetricValueMap, P extends ParamValues>(
  cell: CellResult<V, P>,
): cell is MeasuredCell<V, P> {
  return cell.measurements !== undefined;
}

/** One round of a repeated cell. */
export interface RoundResult<V extends MetricValueMap = MetricValueMap> {
  status: CellStatus;
  reason?: string;
  metrics?: V;
  /** This round's metrics measured with a resolution of their own, as the cell's `resolution` says. */
  resolution?: Record<string, MetricResolution>;
  resources?: CellResources;
  elapsedMs: number;
  /** The interval of each key number within this round's own window (method `window`): how far the round alone could be off. */
  intervals?: Record<string, ValueInterval>;
}

/**
 * A value measured with a resolution of its own, for a quantity that is above 0 by nature (memory per
 * connection). `resolved`: estimate - resolution > 0, and the metric holds the estimate. Otherwise the
 * quantity is below the resolution: the metric is null and the quantity is at most
 * max(estimate, 0) + resolution (`atMost`). Never read `estimate` as a measurement when not resolved.
 */
export interface MetricResolution {
  /** What the computation gave, in the metric's unit; at or below 0 is possible when not resolved. */
  estimate: number;
  /**
   * How far the measurement's own noise alone could move the estimate, either way, in the metric's unit.
   * @minimum 0
   */
  resolution: number;
  resolved: boolean;
  /**
   * The most the quantity can be: max(estimate, 0) + resolution.
   * @minimum 0
   */
  atMost: number;
}

/** One stack as it was on the machine that ran. */
export interface StackInfo {
  name: string;
  role: 'server' | 'client';
  protocol: Protocol;
  availability: Availability;
  /** The runtime its child process runs under (absent in files older than the field: node). */
  runtime?: Runtime;
  /** What it can do beyond plain messages (fragmentControl, httpRoutes, wireTap, deflate); pairs a scenario cannot use are skipped. */
  capabilities?: Readonly<Record<string, boolean>>;
  /** Its pinned settings; permessage-deflate follows the cell's `deflate` parameter, and cells record what was negotiated. */
  settings?: StackSettings;
}

/** The machine and software that produced the numbers. */
export interface Environment {
  node: string;
  v8: string;
  platform: string;
  osRelease: string;
  /** Kernel build string (uname -v), e.g. "#1 SMP PREEMPT_DYNAMIC Debian 6.1.…". */
  kernelVersion?: string;
  /** e.g. "Debian GNU/Linux 12 (bookworm)" when /etc/os-release says so. */
  osName: string | null;
  arch: string;
  cpuModel: string;
  /** Logical cores the OS reports. */
  cpuCores: number;
  /** Cores this process may run on (CPU affinity / cgroup limits). */
  availableParallelism?: number;
  totalMemoryBytes: number;
  /** Open-file limit of the wsbench process (caps connections per process). */
  openFileLimit: number | null;
  stacks: StackInfo[];
  /** Node, Bun and Deno as found on the machine (absent in older files). */
  runtimes?: RuntimeInfo[];
  /** Servers named by --target or --server-cmd (absent when there were none); cells name them in `server`. */
  foreignServers?: ForeignServerInfo[];
  /** How one-way delays were measured. */
  clock: string;
}

/**
 * A server wsbench did not build from its own adapters: one already running
 * (`target`, reached at `url`) or one it started per cell (`command`).
 */
export interface ForeignServerInfo {
  name: string;
  kind: 'target' | 'command';
  /** ws:// and wss:// URLs speak WebSocket, http(s):// socket.io. */
  protocol: Protocol;
  /** The target's URL, or the command's URL template ({host}, {port}). */
  url: string;
  /** The command as given ({port}, {host} unfilled). */
  command?: string;
  /** The target process whose tree was sampled for CPU and RSS (--target-pid). */
  pid?: number;
}

/** A scenario's declarations, as the run saw them: reporters read meaning only from here. */
export interface ScenarioInfo {
  name: string;
  description: string;
  parameters: Record<string, ParameterInfo>;
  metrics: Record<string, MetricInfo>;
  /** Metric keys the terminal table and the HTML show, in order. */
  table: string[];
  /** Charts the scenario asks for. */
  charts: ChartRequest[];
  /**
   * `measured` when connections that fail to open or are lost are the scenario's subject (churn, a restart,
   * slow consumers closed): its own metrics count them, and only those of role errors are faults, so an ok
   * cell may have lost connections. Absent otherwise (every such connection is a fault), and in older files.
   */
  connectionFaults?: 'measured';
}

/**
 * A run's result. `V` and `P`: the type of its cells' metric values and parameters, narrowed by
 * run() of a scenario it knows the type of (ResultOf); the defaults are any scenario's.
 */
export interface BenchResult<V extends MetricValueMap = MetricValueMap, P extends ParamValues = ParamValues> {
  /**
   * The version of the file's shape: SCHEMA_VERSION.
   * @const SCHEMA_VERSION
   */
  schemaVersion: number;
  tool: { name: 'wsbench'; version: string };
  /** The command line that produced the file, as wsbench received it (after `wsbench`); absent when run() was called from code. */
  argv?: string[];
  /** The loopback address the servers bound (absent in files older than schema 3). */
  host?: string;
  /** ISO time the run started. */
  startedAt: string;
  /** Wall time of the whole run. */
  elapsedMs: number;
  /** True when the run was cut short by SIGINT/SIGTERM. */
  interrupted: boolean;
  environment: Environment;
  /**
   * How many client processes generated load per cell.
   * @integer
   * @minimum 1
   */
  clientProcesses: number;
  /**
   * Rounds each cell was measured in (--repeat); 1 when not repeated.
   * @integer
   * @minimum 1
   */
  repeat: number;
  scenarios: ScenarioInfo[];
  cells: CellResult<V, P>[];
  /** Set when this result is one shard of a sharded run (`--shard i/N`). */
  shard?: ShardInfo;
  /** Set when this result was merged from shards (`wsbench merge`). */
  merge?: MergeInfo;
  /** Set when this result was rebuilt from the run's journal after wsbench stopped without writing it (`wsbench recover`). */
  recovered?: RecoveryInfo;
  /** What the run did that its numbers do not show and a reader must know, e.g. certificates not verified (--insecure); shown under the table. */
  warnings?: string[];
  /** Set when this result is a capacity search (`wsbench capacity`): its cells are the search's steps. */
  capacity?: CapacitySection;
  /** `run --slo`: the objective every cell was judged against (each cell's `slo` holds its verdict). */
  slo?: { text: string; clauses: SloClause[] };
  /** `run --control`: one pair measured twice, interleaved with the rest: how far two identical cells read apart here. */
  control?: ControlSection;
  /** `run --until-decided`: the looks at the data, and why the rounds stopped. */
  decision?: DecisionSection;
  /** How busy the machine was: its 1-minute load average as the run started and as it ended (absent in older files). */
  machineLoad?: MachineLoad;
  /** The test plan the run was given (`--config`), as it ran: absent without one. */
  plan?: TestPlanInfo;
}

/** A test plan file as it ran: enough to run it again as it was. */
export interface TestPlanInfo {
  /** The plan file, as the command line named it. */
  path: string;
  /** Its keys (a flag's name without its dashes, a scenario parameter, `scenario`) with the values that ran: the command line's where it gave one. */
  contents: Record<string, unknown>;
  /** The keys the command line gave, over the file's or beside them. */
  commandLine: string[];
}

/** The noise control: the same pair as two cells, the first and the last of every round. */
export interface ControlSection {
  server: string;
  client: string;
  /** The two measurements of the pair, as cells (their identity is the pair's). */
  cells: [CellResult, CellResult];
  /** The second over the first for each key number, with its interval; null where either has no value. */
  ratios: Record<string, RatioInterval | null>;
}

/** The machine's 1-minute load average (runnable processes, as `uptime` says) around a run, beside its cores. */
export interface MachineLoad {
  /** @minimum 0 */
  atStart: number;
  /** @minimum 0 */
  atEnd: number;
  /**
   * Cores the run could use (the OS's available parallelism).
   * @minimum 1
   */
  cores: number;
}

/**
 * `run --until-decided`: rounds were added until every ranking and verdict asked for was decided, or
 * the budget ran out, by an alpha-spending rule (src/parent/stats/sequential.ts): each look stated its intervals
 * at its share of the 5 %, so that all looks together hold each statement at 95 %.
 */
export interface DecisionSection {
  /**
   * The time budget (--budget), ms.
   * @exclusiveMinimum 0
   */
  budgetMs: number;
  /**
   * The most rounds the budget allowed at the first rounds' pace, fixed before the first look.
   * @minimum 1
   */
  maxRounds: number;
  /**
   * The rounds each look was planned at (the last is maxRounds).
   * @minimum 1
   */
  plannedLooks: number[];
  /** The rule, in words. */
  rule: string;
  /** Every look made, in order; the cells' intervals are stated at the last one's level. */
  looks: DecisionLook[];
  /** decided: nothing was left undecided; budget: no room for another look; interrupted: a signal stopped the run. */
  stopped: 'decided' | 'budget' | 'interrupted';
}

/** One look at the data of a run --until-decided. */
export interface DecisionLook {
  /**
   * Rounds every cell had measured.
   * @minimum 1
   */
  rounds: number;
  /**
   * Wall time since the run started.
   * @minimum 0
   */
  elapsedMs: number;
  /**
   * The level its intervals were stated at: 1 - its share of the 5 %.
   * @minimum 0
   * @maximum 1
   */
  level: number;
  /**
   * The rankings and verdicts asked for.
   * @minimum 0
   */
  asked: number;
  /** Those still undecided, in words ("echo servers on p99 ms: not decided between uws, ws"); empty when none. */
  undecided: string[];
}

/** A ratio of two values with its confidence interval. */
export interface RatioInterval {
  /** The estimate: a ratio of the values, or with rounds the geometric mean of the rounds' ratios. */
  ratio: number;
  low: number;
  high: number;
  /**
   * Confidence level, 0..1 (0.95).
   * @minimum 0
   * @maximum 1
   */
  level: number;
  /**
   * `paired rounds`: round by round (rounds interleaved); `independent`: the two values' own intervals combined;
   * `separate runs`: two runs' rounds, each side's level known to within how far a next run could land (src/parent/stats/separate-runs.ts).
   */
  method: 'paired rounds' | 'independent' | 'separate runs';
  /**
   * Degrees of freedom of the t quantile (Welch-Satterthwaite when independent).
   * @exclusiveMinimum 0
   */
  degreesOfFreedom: number;
}

/**
 * Where a rebuilt result came from (`wsbench recover`, or `report` and `compare` reading a journal), and what
 * the rebuild could not know.
 */
export interface RecoveryInfo {
  /** The journal it was rebuilt from, as named to `wsbench recover`. */
  journal: string;
  /** ISO time of the last record that reached the journal: wsbench stopped after it. */
  stoppedAt: string;
  /** In words: "recovered from journal after wsbench stopped at ..."; also the reason of the cell it stopped in. */
  reason: string;
  /** What the rebuild noticed or could not rebuild (a torn last line, what a cell cut short lacks). */
  notes: string[];
}

/** The result of a capacity search. */
export type CapacityResult = BenchResult & { capacity: CapacitySection };

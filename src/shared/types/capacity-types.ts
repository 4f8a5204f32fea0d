/**
 * The capacity section of a result file (`wsbench capacity`): the SLO, how the
 * search ran, and per server stack its capacity, what broke and every step.
 * The steps' cells are the result's ordinary `cells`, so `report` and
 * `compare` read a capacity result like any run's. Plain data; imports only
 * the declaration types.
 */
import type { MetricUnit, ParamValues } from './declaration-types.js';

export type SloOperator = '<' | '<=' | '=' | '>=' | '>';

/** What a clause is about, which is also what "broke" when it fails. */
export type SloKind = 'latency' | 'errors' | 'metric';

export interface SloClause {
  /** As written, spaces removed: "p99<500ms". */
  text: string;
  kind: SloKind;
  /** Metric keys whose values are added up: one key, or every errors-role metric for `errors`. */
  metrics: string[];
  operator: SloOperator;
  /** The bound, in the metric's unit (ms for latencies). */
  limit: number;
  unit: MetricUnit;
  /** Short name for tables: "p99", "errors", "delayP999Ms". */
  label: string;
}

/**
 * How a server's search ended:
 * - bracketed: capacity and brokeAt are within the resolution;
 * - max: every step up to `max` held;
 * - cannot-tell: the load generator saturated with every client process allowed;
 * - interrupted: the search was stopped.
 */
export type SearchEnd = 'bracketed' | 'max' | 'cannot-tell' | 'interrupted';

/** Why a step broke: a failed SLO clause's kind, a cell that failed, or a count that could not be run. */
export type BreakCause = SloKind | 'failed' | 'refused';

/** One step of a server's search: one cell at one count, judged against the SLO. */
export interface CapacityStep {
  /**
   * The varied parameter's value.
   * @integer
   * @minimum 0
   */
  count: number;
  /** @integer @minimum 1 */
  clientProcesses: number;
  /** ramp, bisect, confirm (an end of the bracket tried again), or retry (the same count with more client processes). */
  phase: 'ramp' | 'bisect' | 'confirm' | 'retry';
  /**
   * within: the SLO held; broken: it did not; refused: the count cannot be run here (the reason says why);
   * interrupted: the search was stopped (Ctrl+C) while the step ran, so its numbers say neither.
   */
  verdict: 'within' | 'broken' | 'refused' | 'interrupted';
  /** The verdict, or invalid when the load generator saturated (the step does not count). */
  outcome: 'within' | 'broken' | 'refused' | 'invalid' | 'interrupted';
  /** The cell's status (ok, errors, failed or skipped); null for a refused count (nothing ran). */
  cellStatus: 'ok' | 'errors' | 'failed' | 'skipped' | null;
  /** Why the cell failed, has errors or was skipped, or why the count was refused. */
  reason: string | null;
  /** The value each SLO clause compared, in the order of `slo.clauses` (a sum for `errors`); null where the cell lacked it. */
  sloValues: Array<number | null>;
  /** The latency the SLO names (or the primary p99), in ms. */
  latencyMs: number | null;
  /** Sum of every errors-role metric. */
  errors: number | null;
  serverCpuPercent: number | null;
  /**
   * Server CPU demand mean (on a CPU plus waiting in a run queue for one, /proc schedstat), in % of one
   * core: what `serverSaturated` was judged on where /proc has it (a server on a crowded machine wants
   * more than it gets). Null where it was not read (no schedstat, a server read through its cgroup).
   * Files older than the field get it from the step's cell when read (result-upgrade.ts).
   */
  serverCpuDemandPercent?: number | null;
  /** Server event-loop utilisation mean, 0..1; null where the runtime does not report it. */
  serverEventLoop: number | null;
  serverRssBytes: number | null;
  /** CPU mean of each client process, in % of one core. */
  clientCpuPercent: number[];
  /**
   * CPU demand mean of each client process (on a CPU plus waiting for one), in % of one core; null where /proc
   * did not give it. What `clientSaturated` was judged on where it is a number, the CPU otherwise. Absent in
   * files older than the field.
   */
  clientCpuDemandPercent?: Array<number | null>;
  /** A client process was (near) saturated: the numbers may be the load generator's, not the server's. */
  clientSaturated: boolean;
  serverSaturated: boolean;
  /** The server's event loop was busy but it was on CPU much less: the cores were busy elsewhere. */
  serverStarved: boolean;
  /** Event-loop utilisation mean of each client process, 0..1 (null where not reported). */
  clientEventLoop: Array<number | null>;
  /** A client process was starved the same way: its latency includes waiting for a core. */
  clientStarved: boolean;
  /** What failed, empty when the SLO held. */
  causes: BreakCause[];
  /** Each failed clause in words: "p99 812 ms not < 500 ms". */
  breaches: string[];
  elapsedMs: number;
}

export interface CapacitySettings {
  /** The parameter the search varies (the scenario's connection count). */
  vary: string;
  /** @integer @minimum 1 */
  start: number;
  /** @integer @minimum 1 */
  max: number;
  /**
   * Bisection stops when the bracket is within this share of the capacity.
   * @exclusiveMinimum 0
   * @exclusiveMaximum 1
   */
  resolution: number;
  /**
   * Tries more of each end of the bracket once found (absent in files older than the field: none).
   * @integer
   * @minimum 0
   */
  confirm?: number;
  /**
   * Client processes of each server's first step, and the most any step may use.
   * @integer
   * @minimum 1
   */
  clientProcesses: number;
  /** @integer @minimum 1 */
  maxClientProcesses: number;
  /** A --server-cmd server is started once per server and kept for every step (--keep-server), not started afresh for each. */
  keepServer: boolean;
  /** Every other parameter of every step (the varied one at its default). */
  params: ParamValues;
  /** How saturation is decided, as numbers (see src/parent/capacity/judge.ts). */
  thresholds: { clientCpuPercent: number; serverCpuPercent: number; starvedEventLoop: number };
}

/** One server stack's search. */
export interface ServerCapacity {
  server: string;
  /** The client stack that loaded it. */
  client: string;
  /**
   * skipped: the pair cannot run here; failed: its kept server did not start; not-reached: the search
   * stopped (interrupted) before this server's turn, so nothing of it was measured. The reason says why.
   */
  status: 'measured' | 'skipped' | 'failed' | 'not-reached';
  reason: string | null;
  /**
   * fresh: every step started its own server (built-in stacks, --server-cmd);
   * kept: one server served every step (a --target, or --server-cmd with --keep-server),
   * so what a step leaves behind (memory, caches, connections still closing) carries into the next.
   */
  serverPerStep: 'fresh' | 'kept';
  /**
   * Largest count within the SLO with a load generator that was not saturated; 0 when none held.
   * @integer
   * @minimum 0
   */
  capacity: number;
  /**
   * Smallest count that broke the SLO (or could not run); null when none did.
   * @integer
   */
  brokeAt: number | null;
  end: SearchEnd | null;
  /** What broke at brokeAt, in words; null when nothing did. */
  broke: string | null;
  /** When the load generator saturated even with every client process allowed: where, and the CPU it showed. */
  cannotTell: string | null;
  /**
   * Client processes the last step used.
   * @integer
   * @minimum 0
   */
  clientProcesses: number;
  /** Every step in the order it ran, invalid ones included. */
  steps: CapacityStep[];
  /**
   * The answer with its uncertainty: the highest count that held and the lowest that broke, each with its
   * valid tries and how many held (null where there is none). Absent in files older than the field.
   */
  bracket?: { held: CountTries | null; broke: CountTries | null };
  /** Counts that held above a count that broke, each with the highest count below it that broke. */
  nonMonotonic?: Array<{ held: number; brokeBelow: number }>;
}

/** One count's valid tries in a capacity search, and how many held the SLO. */
export interface CountTries {
  count: number;
  /** @integer @minimum 1 */
  tries: number;
  /** @integer @minimum 0 */
  held: number;
}

/** Present in the result of `wsbench capacity`: its cells are the steps (the last measured at each count). */
export interface CapacitySection {
  slo: { text: string; clauses: SloClause[] };
  /** Metric key of the latency each step reports (the SLO's, else the primary p99); null when there is none. */
  latencyMetric: string | null;
  settings: CapacitySettings;
  servers: ServerCapacity[];
}

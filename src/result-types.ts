/**
 * The result JSON: the one source of truth every reporter reads.
 * Bump SCHEMA_VERSION on any change a reader of an older file would misread.
 */
import type { Availability, ColumnSpec, ParamValues, Protocol } from './types.js';

export const SCHEMA_VERSION = 1;

/** Latency statistics of one histogram, in milliseconds. */
export interface LatencySummary {
  /** Samples recorded. */
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

/** Size statistics of one histogram, in bytes. */
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

/** min / mean / max of a resource sampled every ~250 ms during the window. */
export interface SampledStat {
  mean: number;
  max: number;
}

/** One process's resource use during the measurement window. */
export interface ProcessResources {
  /** CPU time over wall time, in percent of one core (200 = both cores of a 2-core box). */
  cpuPercent: SampledStat;
  /** Resident set size. */
  rssBytes: SampledStat;
  /** Share of time the event loop was busy, 0..1. */
  eventLoopUtilization: SampledStat;
  /** Samples taken. */
  samples: number;
}

/** What one process measured, shipped once at the end of the window. */
export interface ProcessReport {
  histograms: Record<string, EncodedHistogram>;
  counters: Record<string, number>;
  resources: ProcessResources;
  /** Wall time from window open to close, as this process saw it. */
  windowMs: number;
  notes: string[];
}

/** Everything measured in one cell, merged over client processes; input to Scenario.summarize. */
export interface CellMeasurements {
  /** Client histograms merged over processes. */
  histograms: Record<string, EncodedHistogram>;
  /** Summaries of those histograms that hold latencies (unit us). */
  latency: Record<string, LatencySummary>;
  /** Summaries of those that hold sizes (unit bytes). */
  sizes?: Record<string, SizeSummary>;
  /** Client counters summed over processes. */
  counters: Record<string, number>;
  /** Server-side histograms (e.g. server-measured delays). */
  serverHistograms: Record<string, EncodedHistogram>;
  serverLatency: Record<string, LatencySummary>;
  serverCounters: Record<string, number>;
  /** Longest client window, the denominator of every rate. */
  windowMs: number;
  /** The window second by second (absent when it lasted under one interval). */
  timeSeries?: TimeSeries;
}

/** Latency of the samples recorded within one interval only. */
export interface IntervalLatency {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface TimeSeriesPoint {
  /** End of the interval, counted from the window's opening. */
  tMs: number;
  /** Client counters summed over processes, cumulative since the window opened. */
  counters: Record<string, number>;
  /** Per client histogram, merged over processes. */
  latency: Record<string, IntervalLatency>;
}

export interface TimeSeries {
  /** Length of one point's interval (1000 ms, longer when a long run was folded). */
  intervalMs: number;
  points: TimeSeriesPoint[];
}

export type CellStatus = 'ok' | 'failed' | 'skipped';

/** One scenario x server x client x parameter-set combination. */
export interface CellResult {
  scenario: string;
  server: string;
  client: string;
  /** Validated parameters: durations in ms, sizes in bytes. */
  params: ParamValues;
  status: CellStatus;
  /** Why the cell failed or was skipped; absent when ok. */
  reason?: string;
  /** Scenario-defined flat metrics, units in the keys (present when anything was measured). */
  metrics?: Record<string, number | null>;
  measurements?: CellMeasurements;
  resources?: {
    server: ProcessResources | null;
    /** One entry per client process. */
    clients: ProcessResources[];
  };
  /** Messages the server stack refused to queue (backpressure drops). */
  serverStackDrops?: number;
  notes?: string[];
  /**
   * With --repeat: each round as measured. The cell's metrics are then per-key
   * medians over these rounds, its histograms pool all their samples, its counters
   * and window add up, and its time series and resources are one round's.
   */
  rounds?: RoundResult[];
  /** Wall time the cell took, including startup and teardown (all rounds). */
  elapsedMs: number;
}

/** One round of a repeated cell. */
export interface RoundResult {
  status: CellStatus;
  reason?: string;
  metrics?: Record<string, number | null>;
  resources?: CellResult['resources'];
  elapsedMs: number;
}

/** One stack as it was on the machine that ran. */
export interface StackInfo {
  name: string;
  role: 'server' | 'client';
  protocol: Protocol;
  availability: Availability;
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
  /** How one-way delays were measured. */
  clock: string;
}

export interface ScenarioInfo {
  name: string;
  description: string;
  columns: ColumnSpec[];
}

export interface BenchResult {
  schemaVersion: number;
  tool: { name: 'wsbench'; version: string };
  /** ISO time the run started. */
  startedAt: string;
  /** Wall time of the whole run. */
  elapsedMs: number;
  /** True when the run was cut short by SIGINT/SIGTERM. */
  interrupted: boolean;
  environment: Environment;
  /** How many client processes generated load per cell. */
  clientProcesses: number;
  /** Rounds each cell was measured in (--repeat); absent means 1. */
  repeat?: number;
  scenarios: ScenarioInfo[];
  cells: CellResult[];
}

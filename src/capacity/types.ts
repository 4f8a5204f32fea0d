/**
 * The capacity JSON: the SLO, the search settings, and per server stack the
 * capacity, what broke and every step. The steps' cells themselves go into an
 * ordinary result file beside it (`<name>-steps.json`), which `wsbench report`
 * and `wsbench compare` read like any run's.
 */
import type { ParamValues } from '../declaration-types.js';
import type { Environment, ScenarioInfo } from '../result-types.js';
import type { CapacityStep } from './judge.js';
import type { SearchEnd } from './search.js';
import type { SloClause } from './slo.js';

export const CAPACITY_FORMAT = 'wsbench-capacity';
export const CAPACITY_VERSION = 1;

export interface CapacitySettings {
  /** The parameter the search varies (the scenario's connection count). */
  vary: string;
  start: number;
  max: number;
  /** Bisection stops when the bracket is within this share of the capacity. */
  resolution: number;
  /** Client processes of each server's first step, and the most any step may use. */
  clientProcesses: number;
  maxClientProcesses: number;
  /** Every other parameter of every step (the varied one at its default). */
  params: ParamValues;
  /** How saturation is decided, as numbers (see src/capacity/judge.ts). */
  thresholds: { clientCpuPercent: number; serverCpuPercent: number; starvedEventLoop: number };
}

/** One server stack's search. */
export interface ServerCapacity {
  server: string;
  /** The client stack that loaded it. */
  client: string;
  /** skipped: the pair could not run at all (the reason says why). */
  status: 'measured' | 'skipped';
  reason: string | null;
  /** Largest count within the SLO with a load generator that was not saturated; 0 when none held. */
  capacity: number;
  /** Smallest count that broke the SLO (or could not run); null when none did. */
  brokeAt: number | null;
  end: SearchEnd | null;
  /** What broke at brokeAt, in words; null when nothing did. */
  broke: string | null;
  /** When the load generator saturated even with every client process allowed: where, and the CPU it showed. */
  cannotTell: string | null;
  /** Client processes the last step used. */
  clientProcesses: number;
  /** Every step in the order it ran, invalid ones included. */
  steps: CapacityStep[];
}

export interface CapacityResult {
  format: typeof CAPACITY_FORMAT;
  version: typeof CAPACITY_VERSION;
  tool: { name: 'wsbench'; version: string };
  startedAt: string;
  elapsedMs: number;
  interrupted: boolean;
  environment: Environment;
  scenario: ScenarioInfo;
  slo: { text: string; clauses: SloClause[] };
  /** Metric key of the latency each step reports (the SLO's, else the primary p99); null when there is none. */
  latencyMetric: string | null;
  settings: CapacitySettings;
  servers: ServerCapacity[];
}

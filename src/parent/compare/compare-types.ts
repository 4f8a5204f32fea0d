/**
 * What a comparison of two result files is made of: per-cell deltas with a
 * verdict each, and the cells only one file has. Plain data, shared by the
 * cell comparison (compare.ts), the capacity comparison and every renderer.
 */
import type { MetricRole } from '../../shared/types/declaration-types.js';
import type { CellResult, CellStatus } from '../../shared/types/result-types.js';
import type { ChangeInterval, ChangeVerdict } from '../stats/verdict.js';

/** src/parent/stats/verdict.ts says how a change and its interval make each; n/a where nothing could be compared. */
export type Verdict = ChangeVerdict | 'n/a';
export type { ChangeInterval } from '../stats/verdict.js';

/** One metric of one cell in both results: both values, the change in % with its interval, and its verdict. */
export interface MetricDelta {
  /** The metric's key in the scenario's declarations; `status`, `serverCpuPercent`, `serverRssMiB`, `capacity` for the rows compare adds. */
  key: string;
  /** What is compared, as headed in the table: "p99 ms", "msg/s", "srv CPU %", "srv RSS MiB", "status". */
  metric: string;
  /** The declared role; `status`, `resources` and `capacity` (a capacity search's result) for the rows compare adds. */
  role:
    | Extract<MetricRole, 'primary-latency' | 'primary-rate' | 'cost' | 'errors'>
    | 'status'
    | 'resources'
    | 'capacity';
  base: number | null;
  next: number | null;
  /** (next - base) / base in percent; null when either side is missing or base is 0. */
  changePct: number | null;
  /**
   * The run-to-run band of the rules of thumb in compare-noise.ts, in the metric's unit: the change's interval
   * when the data give none, and its floor when a side was measured in one window (which cannot see how far
   * two runs differ). Null where there is none.
   */
  noise: number | null;
  /**
   * The change with its interval, in percent of base; null where none could be made (a status, an errors count, a
   * missing value, a side whose noise was not measured: `noiseUnmeasured`).
   */
  change: ChangeInterval | null;
  /**
   * Set on a rate or the server's CPU when a side measured no run-to-run noise (fewer than 3 rounds, each window
   * under 2.5 s: too short for per-interval rates), saying so in a few words ("window too short to measure its
   * noise (0.3 s, 1 round)"). The verdict is then inconclusive whatever the change, and `change` null.
   */
  noiseUnmeasured?: string;
  /** Which way is better. */
  better: 'lower' | 'higher';
  verdict: Verdict;
}

/** One cell present in both results: each shared metric's change, and the cell's verdict. */
export interface CellComparison {
  /** "scenario server x client" plus the parameters that vary between the files' cells, as the table prints them. */
  label: string;
  scenario: string;
  server: string;
  client: string;
  params: CellResult['params'];
  baseStatus: CellStatus;
  nextStatus: CellStatus;
  /** Why the new cell did not end ok (its recorded reason); null when it did. */
  nextReason: string | null;
  deltas: MetricDelta[];
}

/** A cell only one of the two files has. */
export interface UnmatchedCell {
  label: string;
  scenario: string;
  server: string;
  client: string;
  params: CellResult['params'];
  /** Its status in the file that has it. */
  status: CellStatus;
  reason: string | null;
}

/**
 * Two results compared cell by cell: what compareResults() and compareServers() return, and what gate() and the
 * renderers read.
 */
export interface Comparison {
  /** Cells both files have. */
  cells: CellComparison[];
  /** Labels of cells only one of the files has, with their status when not ok. */
  onlyInBase: string[];
  onlyInNext: string[];
  /** Cells only the base has: each fails a gate, unless it was skipped in the base too. */
  missingInNext: UnmatchedCell[];
  /** Cells only the new file has: listed, never gated (there is nothing to compare them with). */
  newInNext: UnmatchedCell[];
  /** Set when the two files come from different machines or Node versions. */
  environmentNote: string | null;
  /** Reasons to trust the verdicts less, e.g. a side measured in one round of short windows. */
  warnings: string[];
  /** The margin in percent: a change smaller than this is never regressed or improved (the gate's threshold, else DEFAULT_MARGIN_PCT). */
  marginPct: number;
  /**
   * The level of each change's interval: 95 % shared out over the changes judged on an interval
   * (Bonferroni: 1 - 0.05 / changes), so the comparison as a whole holds at 95 %.
   */
  intervalLevel: number;
  /** How many changes that level was shared out over. */
  intervalTests: number;
  /** Set when two servers of one file were compared (`compare FILE --servers base,new`): their names. */
  servers?: { base: string; next: string };
}

/** The `status` row of a comparison, with its verdict. */
export function statusChange(verdict: Verdict): MetricDelta {
  return {
    key: 'status',
    metric: 'status',
    role: 'status',
    base: null,
    next: null,
    changePct: null,
    noise: null,
    change: null,
    better: 'higher',
    verdict,
  };
}

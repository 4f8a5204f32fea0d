/** The verdict a CI gate draws from a comparison: what regressed beyond the threshold, and the exit code. */
import type { Comparison, MetricDelta } from './compare.js';

/** Regressions a CI gate fails on: beyond `pct` percent, and any regressed status or error count whatever its size. */
export function regressionsBeyond(comparison: Comparison, pct: number): Array<{ cell: string; delta: MetricDelta }> {
  return comparison.cells.flatMap((cell) =>
    cell.deltas.filter((d) => beyond(d, pct)).map((delta) => ({ cell: cell.label, delta })),
  );
}

function beyond(d: MetricDelta, pct: number): boolean {
  if (d.verdict !== 'regressed') return false;
  return d.changePct === null || d.role === 'status' || d.role === 'errors' || Math.abs(d.changePct) > pct;
}

export interface GateRegression {
  /** The cell's label, as the comparison shows it. */
  cell: string;
  /** The delta's metric, as headed ("p99 ms", "status") ... */
  metric: string;
  /** ... and its key in the declarations ("rttP99Ms", "status"). */
  key: string;
  changePct: number | null;
  /** The values compared; the cell's statuses for a `status` regression. */
  base: number | string | null;
  next: number | string | null;
}

/** The verdict of `compare --fail-on-regression PCT`, as `compare --json` carries it. */
export interface Gate {
  thresholdPct: number;
  regressions: GateRegression[];
  /** 1 when anything regressed beyond the threshold, else 0. */
  exitCode: 0 | 1;
}

export function gate(comparison: Comparison, pct: number): Gate {
  const regressions = comparison.cells.flatMap((cell) =>
    cell.deltas
      .filter((d) => beyond(d, pct))
      .map((d): GateRegression => ({
        cell: cell.label,
        metric: d.metric,
        key: d.key,
        changePct: d.changePct,
        base: d.role === 'status' ? cell.baseStatus : d.base,
        next: d.role === 'status' ? cell.nextStatus : d.next,
      })),
  );
  return { thresholdPct: pct, regressions, exitCode: regressions.length > 0 ? 1 : 0 };
}


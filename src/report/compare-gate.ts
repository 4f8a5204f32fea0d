/**
 * The verdict a CI gate draws from a comparison: what regressed beyond the
 * threshold, every cell of the base accounted for, and the lines that say so.
 */
import { statusChange, type CellComparison, type Comparison, type MetricDelta, type UnmatchedCell } from './compare.js';

/** Said of a cell the base has and the new file does not. */
export const MISSING_REASON = 'not in the new file';

/** A change the gate weighs, with the cell it belongs to. */
interface Weighed {
  cell: string;
  delta: MetricDelta;
  base: string;
  next: string;
  reason: string | null;
}

/**
 * Every change the gate weighs: each delta of the cells both files have, and a
 * `status` regression for each cell the new file lacks (unless the base skipped
 * it too: it never ran, so nothing went missing).
 */
function weighed(comparison: Comparison): Weighed[] {
  const matched = comparison.cells.flatMap((cell: CellComparison) =>
    cell.deltas.map((delta): Weighed => ({ cell: cell.label, delta, base: cell.baseStatus, next: cell.nextStatus, reason: cell.nextReason })),
  );
  const missing = comparison.missingInNext.map((cell: UnmatchedCell): Weighed => ({
    cell: cell.label,
    delta: statusChange(cell.status === 'skipped' ? 'n/a' : 'regressed'),
    base: cell.status,
    next: 'missing',
    reason: MISSING_REASON,
  }));
  return [...matched, ...missing];
}

/** True when the gate at `pct` counts this delta: beyond `pct` percent, or any regressed status or error count whatever its size. */
export function countedByGate(d: MetricDelta, pct: number): boolean {
  if (d.verdict !== 'regressed') return false;
  return d.changePct === null || d.role === 'status' || d.role === 'errors' || Math.abs(d.changePct) > pct;
}

/** Regressions a CI gate fails on (see countedByGate), missing cells included. */
export function regressionsBeyond(comparison: Comparison, pct: number): Array<{ cell: string; delta: MetricDelta }> {
  return weighed(comparison).filter((w) => countedByGate(w.delta, pct)).map(({ cell, delta }) => ({ cell, delta }));
}

export interface GateRegression {
  /** The cell's label, as the comparison shows it. */
  cell: string;
  /** The delta's metric, as headed ("p99 ms", "status") ... */
  metric: string;
  /** ... and its key in the declarations ("rttP99Ms", "status"). */
  key: string;
  changePct: number | null;
  /** The values compared; the cell's statuses for a `status` regression (`missing` for a cell the new file lacks). */
  base: number | string | null;
  next: number | string | null;
  /** For a `status` regression: why the new cell is not ok, as it records it, or that it is not in the new file. */
  reason: string | null;
}

/** The verdict of `compare --fail-on-regression PCT`, as `compare --json` carries it. */
export interface Gate {
  thresholdPct: number;
  regressions: GateRegression[];
  /** 1 when anything regressed beyond the threshold, else 0. */
  exitCode: 0 | 1;
  /** The one line that says whether the gate passed, and against what threshold. */
  summary: string;
}

export function gate(comparison: Comparison, pct: number): Gate {
  const regressions = weighed(comparison)
    .filter((w) => countedByGate(w.delta, pct))
    .map(({ cell, delta: d, base, next, reason }): GateRegression => ({
      cell,
      metric: d.metric,
      key: d.key,
      changePct: d.changePct,
      base: d.role === 'status' ? base : d.base,
      next: d.role === 'status' ? next : d.next,
      reason: d.role === 'status' ? reason : null,
    }));
  return { thresholdPct: pct, regressions, exitCode: regressions.length > 0 ? 1 : 0, summary: summaryLine(comparison, pct, regressions.length) };
}

function summaryLine(comparison: Comparison, pct: number, regressions: number): string {
  const at = `at --fail-on-regression ${pct}%`;
  const compared = `${count(comparison.cells.length, 'cell')} compared`;
  if (regressions > 0) {
    return `gate failed ${at}: ${count(regressions, 'regression')} in ${compared}` +
      ' (a cell failed, skipped or missing in the new file, and any rise in errors, fail whatever the threshold)';
  }
  const skippedBoth = comparison.cells.filter((c) => c.baseStatus === 'skipped' && c.nextStatus === 'skipped').length;
  const notes = [
    ...(skippedBoth ? [`${count(skippedBoth, 'cell')} skipped in both files`] : []),
    ...(comparison.newInNext.length ? [`${count(comparison.newInNext.length, 'cell')} only in the new file, not gated`] : []),
  ];
  return `gate passed ${at}: ${compared}, none regressed beyond the noise by more than ${pct}%, none failed, skipped or missing` +
    notes.map((n) => `; ${n}`).join('');
}

/** The gate's lines for a log: one per regression, then the summary. */
export function gateLines(verdict: Gate): string[] {
  const lines = verdict.regressions.map((r) => {
    if (r.key === 'status') return `regression: ${r.cell}: status ${r.base} -> ${r.next}${r.reason ? ` (${r.reason})` : ''}`;
    const change = r.changePct === null ? `${r.metric} ${r.base} -> ${r.next}` : `${r.metric} ${formatChange(r.changePct)}`;
    return `regression beyond ${verdict.thresholdPct}%: ${r.cell}: ${change}`;
  });
  return [...lines, verdict.summary];
}

/** `+12.3%`, `-4.0%`; '' when there is no change to show. */
export function formatChange(pct: number | null): string {
  if (pct === null) return '';
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

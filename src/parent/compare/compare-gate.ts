/**
 * The verdict a CI gate draws from a comparison: what regressed (significantly,
 * and by more than the threshold), what the data could not decide
 * (inconclusive: failing the gate only with --inconclusive fail), every cell of
 * the base accounted for, and the lines that say so.
 *
 * Exit codes: 0 passed; 1 a regression; 3 nothing regressed but something was
 * inconclusive and the gate was told to fail on that.
 */
import { statusChange, type CellComparison, type Comparison, type MetricDelta, type UnmatchedCell } from './compare.js';

/** Said of a cell the base has and the new file does not. */
const MISSING_REASON = 'not in the new file';

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
    cell.deltas.map(
      (delta): Weighed => ({
        cell: cell.label,
        delta,
        base: cell.baseStatus,
        next: cell.nextStatus,
        reason: cell.nextReason,
      }),
    ),
  );
  const missing = comparison.missingInNext.map(
    (cell: UnmatchedCell): Weighed => ({
      cell: cell.label,
      delta: statusChange(cell.status === 'skipped' ? 'n/a' : 'regressed'),
      base: cell.status,
      next: 'missing',
      reason: MISSING_REASON,
    }),
  );
  return [...matched, ...missing];
}

/**
 * True when the gate at `pct` counts this delta: a regressed verdict (significant, and its estimate
 * beyond `pct` percent: the comparison was judged with that margin), or any regressed status or
 * error count whatever its size.
 */
export function countedByGate(d: MetricDelta, pct: number): boolean {
  if (d.verdict !== 'regressed') return false;
  if (d.role === 'status' || d.role === 'errors') return true;
  const estimate = d.change?.estimatePct ?? d.changePct;
  return estimate === null || Math.abs(estimate) > pct;
}

/** What the gate does with an inconclusive change: let it pass (the default), or fail with exit code 3. */
export type InconclusivePolicy = 'pass' | 'fail';
export const INCONCLUSIVE_POLICIES: readonly InconclusivePolicy[] = ['pass', 'fail'];
/** The exit code of a gate that failed on inconclusive changes alone (--inconclusive fail). */
export const INCONCLUSIVE_EXIT_CODE = 3;

/** Regressions a CI gate fails on (see countedByGate), missing cells included. */
export function regressionsBeyond(comparison: Comparison, pct: number): Array<{ cell: string; delta: MetricDelta }> {
  return weighed(comparison)
    .filter((w) => countedByGate(w.delta, pct))
    .map(({ cell, delta }) => ({ cell, delta }));
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
  /** Changes the data could not decide (their interval reaches beyond the threshold and holds 0, or ...): see src/parent/stats/verdict.ts. */
  inconclusive: GateRegression[];
  /** --inconclusive: whether those fail the gate. */
  inconclusivePolicy: InconclusivePolicy;
  /** 1 when anything regressed beyond the threshold; else 3 when something was inconclusive under --inconclusive fail; else 0. */
  exitCode: 0 | 1 | 3;
  /** The one line that says whether the gate passed, and against what threshold. */
  summary: string;
}

/**
 * The CI gate of a comparison: fails on a regression beyond `pct` %, on a cell it cannot compare, and on an
 * inconclusive change when asked.
 */
export function gate(comparison: Comparison, pct: number, inconclusivePolicy: InconclusivePolicy = 'pass'): Gate {
  const entry = ({ cell, delta: d, base, next, reason }: Weighed): GateRegression => ({
    cell,
    metric: d.metric,
    key: d.key,
    changePct: d.change?.estimatePct ?? d.changePct,
    base: d.role === 'status' ? base : d.base,
    next: d.role === 'status' ? next : d.next,
    reason: d.role === 'status' ? reason : null,
  });
  const all = weighed(comparison);
  const regressions = all.filter((w) => countedByGate(w.delta, pct)).map(entry);
  const inconclusive = all.filter((w) => w.delta.verdict === 'inconclusive').map(entry);
  const exitCode =
    regressions.length > 0 ? 1 : inconclusive.length > 0 && inconclusivePolicy === 'fail' ? INCONCLUSIVE_EXIT_CODE : 0;
  return {
    thresholdPct: pct,
    regressions,
    inconclusive,
    inconclusivePolicy,
    exitCode,
    summary: summaryLine(comparison, pct, regressions.length, inconclusive.length, inconclusivePolicy),
  };
}

/**
 * What would narrow an inconclusive change's interval. Between two servers of one run, more rounds;
 * between two files, more rounds only down to how far two runs of one build land apart
 * (src/parent/stats/separate-runs.ts), so the words point to measuring both in one run.
 */
export function whatNarrowsIt(comparison: Pick<Comparison, 'servers'>): string {
  return comparison.servers
    ? 'more rounds, --repeat, narrow it'
    : 'more rounds, --repeat, narrow it down to how far two runs of one build land apart; both builds in one run, compare FILE --servers base,new, narrow it further';
}

function summaryLine(
  comparison: Comparison,
  pct: number,
  regressions: number,
  inconclusive: number,
  policy: InconclusivePolicy,
): string {
  const at = `at --fail-on-regression ${pct}%`;
  const compared = `${count(comparison.cells.length, 'cell')} compared`;
  const undecided =
    inconclusive > 0
      ? `; ${count(inconclusive, 'change')} inconclusive (the data cannot tell: ${whatNarrowsIt(comparison)})`
      : '';
  if (regressions > 0) {
    return (
      `gate failed ${at}: ${count(regressions, 'regression')} in ${compared}` +
      ' (a cell failed, skipped or missing in the new file, and any rise in errors, fail whatever the threshold)' +
      undecided
    );
  }
  if (inconclusive > 0 && policy === 'fail') {
    return (
      `gate failed ${at} with --inconclusive fail: none regressed, but ${count(inconclusive, 'change')} in ${compared} inconclusive` +
      ` (the interval reaches beyond the threshold; ${whatNarrowsIt(comparison)})`
    );
  }
  const skippedBoth = comparison.cells.filter((c) => c.baseStatus === 'skipped' && c.nextStatus === 'skipped').length;
  const notes = [
    ...(skippedBoth ? [`${count(skippedBoth, 'cell')} skipped in both files`] : []),
    ...(comparison.newInNext.length
      ? [`${count(comparison.newInNext.length, 'cell')} only in the new file, not gated`]
      : []),
  ];
  return (
    `gate passed ${at}: ${compared}, none regressed significantly by more than ${pct}%, none failed, skipped or missing` +
    notes.map((n) => `; ${n}`).join('') +
    undecided
  );
}

/** The gate's lines for a log: one per regression, then the summary. */
export function gateLines(verdict: Gate): string[] {
  const lines = verdict.regressions.map((r) => {
    if (r.key === 'status')
      return `regression: ${r.cell}: status ${r.base} -> ${r.next}${r.reason ? ` (${r.reason})` : ''}`;
    const change =
      r.changePct === null ? `${r.metric} ${r.base} -> ${r.next}` : `${r.metric} ${formatChange(r.changePct)}`;
    return `regression beyond ${verdict.thresholdPct}%: ${r.cell}: ${change}`;
  });
  const undecided =
    verdict.inconclusivePolicy === 'fail'
      ? verdict.inconclusive.map(
          (r) =>
            `inconclusive: ${r.cell}: ${r.changePct === null ? r.metric : `${r.metric} ${formatChange(r.changePct)}`}`,
        )
      : [];
  return [...lines, ...undecided, verdict.summary];
}

/** `+12.3%`, `-4.0%`; '' when there is no change to show. */
export function formatChange(pct: number | null): string {
  if (pct === null) return '';
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

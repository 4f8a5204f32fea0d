/**
 * One metric's change between two cells: the pooled change the base and new columns show, its
 * interval by the comparison's one test (src/parent/stats/two-cells.ts), widened to the run-to-run
 * band where the data give only a window's, and the verdict the interval supports. A count (errors)
 * compares exactly. What each metric's noise is comes from cell-deltas.ts.
 */
import type { Side } from '../stats/ratio.js';
import { twoCellTest } from '../stats/two-cells.js';
import { judgeChange, type ChangeInterval } from '../stats/verdict.js';
import type { MeasuredCell } from '../../shared/types/result-types.js';
import type { MetricDelta, Verdict } from './compare-types.js';

/** What decides how a metric's change is judged. */
export interface Judging {
  marginPct: number;
  paired: boolean;
  /** The level of each change's interval: the comparison's family of changes holds at 95 % together. */
  level: number;
}

/** One side of a metric's comparison: the value, and its interval and rounds where the cell has them. */
export type SideValue = Omit<Side, 'value'> & { value: number | null };

export function metricSide(cell: MeasuredCell, key: string): SideValue {
  const interval = cell.intervals?.[key];
  return {
    value: metricOf(cell, key),
    ...(interval ? { interval } : {}),
    ...(cell.rounds ? { rounds: cell.rounds.map((r) => r.metrics?.[key]) } : {}),
  };
}

/** A count compares exactly: any rise in errors regresses whatever the threshold. */
export function countDelta(key: string, metric: string, base: number | null, next: number | null): MetricDelta {
  const changePct = base !== null && next !== null && base !== 0 ? ((next - base) / Math.abs(base)) * 100 : null;
  const verdict: Verdict =
    base === null || next === null ? 'n/a' : next > base ? 'regressed' : next < base ? 'improved' : 'unchanged';
  return { key, metric, role: 'errors', base, next, changePct, noise: 0, change: null, better: 'lower', verdict };
}

export function delta(
  key: string,
  metric: string,
  role: MetricDelta['role'],
  b: SideValue,
  n: SideValue,
  noise: number | null,
  better: 'lower' | 'higher',
  judge: Judging,
  unmeasured: string | null = null,
): MetricDelta {
  const base = b.value;
  const next = n.value;
  const changePct = base !== null && next !== null && base !== 0 ? ((next - base) / Math.abs(base)) * 100 : null;
  const bandPct = noise !== null && base !== null && base !== 0 ? (noise / Math.abs(base)) * 100 : null;
  const change =
    base !== null && next !== null
      ? changeInterval({ ...b, value: base }, { ...n, value: next }, changePct, bandPct, judge)
      : null;
  // With no measured noise on a side, any interval would rest on the rule of thumb alone: no interval, no decision.
  if (change && unmeasured !== null) {
    return {
      key,
      metric,
      role,
      base,
      next,
      changePct,
      noise,
      change: null,
      better,
      verdict: 'inconclusive',
      noiseUnmeasured: unmeasured,
    };
  }
  const verdict: Verdict = change ? judgeChange(change, better, judge.marginPct) : 'n/a';
  return { key, metric, role, base, next, changePct, noise, change, better, verdict };
}

/**
 * The change of next over base in percent, with its interval, by the one test of src/parent/stats/two-cells.ts:
 * the pooled change (what the base and new columns show), with the interval of the design's test (paired
 * by round within one run, with the unpaired one beside it and the paired estimate; between two files,
 * Welch's with the run-to-run spread of src/parent/stats/separate-runs.ts). A window cannot see how far two runs
 * differ, so a change measured from one is never given an interval narrower than the run-to-run band
 * (`bandPct`); with no interval at all the band alone makes it.
 */
function changeInterval(
  b: Side,
  n: Side,
  changePct: number | null,
  bandPct: number | null,
  { paired, level }: Judging,
): ChangeInterval | null {
  const test = twoCellTest(n, b, { paired, level, separateRuns: !paired });
  if (test) {
    const pct = (ratio: number): number => (ratio - 1) * 100;
    // The columns' own change, to the last digit (the ratio's exp(log) may differ from it in the 15th).
    const estimatePct = changePct ?? pct(test.ratio.ratio);
    const fromRounds = test.basis === 'rounds';
    const name =
      test.ratio.method === 'paired rounds'
        ? 'paired rounds'
        : test.ratio.method === 'separate runs'
          ? "two runs, Welch's t"
          : fromRounds
            ? "rounds, Welch's t"
            : 'window intervals';
    const beside = {
      ...(test.pairedEstimate !== undefined ? { pairedEstimatePct: pct(test.pairedEstimate) } : {}),
      ...(test.unpaired ? { unpaired: { lowPct: pct(test.unpaired.low), highPct: pct(test.unpaired.high) } } : {}),
      ...(test.outcome === 'split' ? { disagreement: test.disagreement! } : {}),
    };
    const paired =
      test.pairedEstimate !== undefined
        ? `; paired estimate ${formatPct(beside.pairedEstimatePct!)}, unpaired [${formatPct(beside.unpaired!.lowPct)}, ${formatPct(beside.unpaired!.highPct)}]`
        : '';
    const split = test.outcome === 'split' ? '; the two tests disagree' : '';
    const method = `${name}, t(${formatDf(test.ratio.degreesOfFreedom)})${paired}${split}`;
    const interval = { estimatePct, lowPct: pct(test.ratio.low), highPct: pct(test.ratio.high), level, ...beside };
    if (fromRounds || bandPct === null) return { ...interval, method };
    return {
      ...interval,
      lowPct: Math.min(interval.lowPct, estimatePct - bandPct),
      highPct: Math.max(interval.highPct, estimatePct + bandPct),
      method: `${method}, widened to the run-to-run band ±${bandPct.toFixed(1)}%`,
    };
  }
  if (changePct === null || bandPct === null) return null;
  return {
    estimatePct: changePct,
    lowPct: changePct - bandPct,
    highPct: changePct + bandPct,
    level: null,
    method: `run-to-run band ±${bandPct.toFixed(1)}% (no interval in the data)`,
  };
}

/** `+4.1%`. */
function formatPct(pct: number): string {
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

function formatDf(df: number): string {
  return Number.isInteger(df) ? String(df) : df.toFixed(1);
}

export function metricOf(cell: MeasuredCell, key: string): number | null {
  const value = cell.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

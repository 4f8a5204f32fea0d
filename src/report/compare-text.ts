/**
 * The comparison for a terminal or a CI log: one block per cell, one line per
 * metric, the cells the new file lacks, and, with a gate, the gate's lines.
 * With a gate, REGRESSED means what the gate counts, so the table and the exit
 * code never disagree.
 */
import { RATE_NOISE_FRACTION, type Comparison, type MetricDelta } from './compare.js';
import { countedByGate, formatChange, gateLines, type Gate } from './compare-gate.js';
import { formatNumber } from './table.js';
import { terminalText } from '../escape/terminal.js';

/** The verdict column: REGRESSED only for what the gate (if any) counts. */
export function verdictText(d: MetricDelta, gate: Pick<Gate, 'thresholdPct'> | null): string {
  if (d.verdict !== 'regressed') return d.verdict;
  if (gate === null || countedByGate(d, gate.thresholdPct)) return 'REGRESSED';
  return `regressed, under ${gate.thresholdPct}%`;
}

/** What the verdicts mean, and which threshold judged them. */
export function verdictLegend(gate: Pick<Gate, 'thresholdPct'> | null): string {
  if (gate === null) return 'verdict: REGRESSED = worse beyond the noise (no gate: --fail-on-regression not given)';
  const pct = `${gate.thresholdPct}%`;
  return `verdict: REGRESSED = worse beyond the noise and by more than the gate's ${pct} (a status change for the worse, a missing cell or a rise in errors: at any size);` +
    ` "regressed, under ${pct}" = worse beyond the noise, by less than the gate counts`;
}

/** One line on how each metric's noise band is read (and a capacity's, when `comparison` holds one). */
export function noiseLegend(comparison?: Comparison): string {
  const capacity = comparison?.cells.some((c) => c.deltas.some((d) => d.role === 'capacity'))
    ? ' Capacities: the wider of the two searches\' brackets (capacity up to broke at); a capacity moved only when the brackets do not overlap.'
    : '';
  const pct = `${RATE_NOISE_FRACTION * 100}%`;
  return 'noise: latencies, half the spread of the source histogram half a nine either side of the percentile read' +
    ' (mean and std as p50, max as p99.9, min as p1; larger of the two cells);' +
    ` rates, the larger of ${pct} of base and the standard deviation of the per-interval rates of the source counter;` +
    ' errors, none (any increase regresses); with --repeat (3+ rounds), never less than the spread between rounds;' +
    ` RSS, ${pct} of base; CPU, the larger of ${pct} and the window's max-over-mean.${capacity}`;
}

/** The delta table; with `gate`, judged by its threshold and followed by its lines. */
export function renderComparison(comparison: Comparison, names: { base: string; next: string }, gate: Gate | null = null): string {
  const header = ['cell', 'metric', 'base', 'new', 'change', 'noise ±', 'verdict'];
  const rows: string[][] = [];
  for (const cell of comparison.cells) {
    const label = cell.label;
    if (cell.deltas.length === 0) {
      rows.push([label, 'status', cell.baseStatus, cell.nextStatus, '', '', 'n/a']);
      continue;
    }
    cell.deltas.forEach((d, i) => {
      const values = d.role === 'status' ? [cell.baseStatus, cell.nextStatus] : [formatNumber(d.base), formatNumber(d.next)];
      const noise = d.noise === null ? '' : formatNumber(d.noise);
      rows.push([i === 0 ? label : '', d.metric, ...values, formatChange(d.changePct), noise, verdictText(d, gate)]);
    });
  }
  for (const cell of comparison.missingInNext) {
    rows.push([cell.label, 'status', cell.status, 'missing', '', '', cell.status === 'skipped' ? 'n/a' : 'REGRESSED']);
  }
  const shown = rows.map((row) => row.map(terminalText));
  const widths = header.map((h, i) => Math.max(h.length, ...shown.map((r) => r[i]!.length)));
  const line = (row: string[]): string => row.map((v, i) => (i >= 2 && i <= 5 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [
    `base: ${terminalText(names.base)}`,
    `new:  ${terminalText(names.next)}`,
    ...(comparison.environmentNote ? [`note: ${terminalText(comparison.environmentNote)}`] : []),
    ...comparison.warnings.map((w) => `warning: ${terminalText(w)}`),
    '',
    line(header),
    ...shown.map(line),
    '',
    noiseLegend(comparison),
    verdictLegend(gate),
    ...(comparison.onlyInBase.length ? [`only in base (${comparison.onlyInBase.length}): ${terminalText(comparison.onlyInBase.join('; '))}`] : []),
    ...(comparison.onlyInNext.length ? [`only in new (${comparison.onlyInNext.length}): ${terminalText(comparison.onlyInNext.join('; '))}`] : []),
    ...(gate ? ['', ...gateLines(gate).map(terminalText)] : []),
  ].join('\n');
}

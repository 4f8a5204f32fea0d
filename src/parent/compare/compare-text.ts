/**
 * The comparison for a terminal or a CI log: one block per cell, one line per
 * metric with its change, the change's 95 % interval, the test behind it and
 * the verdict, the cells the new file lacks, and, with a gate, the gate's
 * lines. REGRESSED is what the gate counts, so the table and the exit code
 * never disagree.
 */
import { RATE_NOISE_FRACTION } from './cell-deltas.js';
import type { Comparison, MetricDelta } from './compare.js';
import { MIN_NOISE_WINDOW_MS } from './compare-noise.js';
import { MIN_ROUNDS } from '../stats/round-spread.js';
import { RUN_SPREAD } from '../stats/separate-runs.js';
import { countedByGate, formatChange, gateLines, whatNarrowsIt, type Gate } from './compare-gate.js';
import { formatNumber } from '../report/run/table.js';
import { terminalText } from '../escape/terminal.js';

/** The verdict column: REGRESSED (what the gate counts), improved, unchanged, inconclusive, n/a. */
export function verdictText(d: MetricDelta, gate: Pick<Gate, 'thresholdPct'> | null): string {
  if (d.verdict !== 'regressed') return d.verdict;
  if (gate === null || countedByGate(d, gate.thresholdPct)) return 'REGRESSED';
  return 'regressed';
}

/**
 * What the verdicts mean, and which margin judged them; with `comparison`, also why some changes are
 * inconclusive whatever their size, when any is (a side whose noise was not measured).
 */
export function verdictLegend(
  gate: Pick<Gate, 'thresholdPct'> | null,
  marginPct: number,
  comparison?: Comparison,
): string {
  const m = `${marginPct}%`;
  const source =
    gate === null
      ? `the default margin (no gate: --fail-on-regression not given)`
      : `the gate's --fail-on-regression ${m}`;
  return (
    `verdict (margin ${m}, ${source}): REGRESSED = the whole interval on the worse side of 0 and the change worse by more than ${m}` +
    ' (a status change for the worse, a missing cell or a rise in errors: at any size); improved = the same on the better side;' +
    ` unchanged = the whole interval within ±${m}; inconclusive = the data cannot tell (the interval holds 0 and reaches beyond ±${m}, or the change may be smaller than ${m}): ${whatNarrowsIt(comparison ?? {})}` +
    (comparison?.cells.some((c) => c.deltas.some((d) => d.noiseUnmeasured !== undefined && d.role !== 'cost'))
      ? `; a rate, srv CPU % or srv RSS measured in fewer than ${MIN_ROUNDS} rounds of windows under ${MIN_NOISE_WINDOW_MS / 1000} s is inconclusive at any size` +
        ` ("window too short to measure its noise": too short for per-second rates, so nothing shows how far two runs differ): --repeat ${MIN_ROUNDS} or longer windows measure it`
      : '') +
    (comparison?.cells.some((c) => c.deltas.some((d) => d.noiseUnmeasured !== undefined && d.role === 'cost'))
      ? `; a cost (CPU per message, memory per connection) with fewer than ${MIN_ROUNDS} rounds on a side is inconclusive at any size: one window gives it no spread (--repeat ${MIN_ROUNDS})`
      : '')
  );
}

/** One line on how each change's interval is made (and a capacity's, when `comparison` holds one). */
export function noiseLegend(comparison?: Comparison): string {
  const capacity = comparison?.cells.some((c) => c.deltas.some((d) => d.role === 'capacity'))
    ? " Capacities: a capacity moved only when the two searches' brackets (capacity up to broke at) do not overlap."
    : '';
  const pct = `${RATE_NOISE_FRACTION * 100}%`;
  const level =
    comparison && comparison.intervalTests > 1
      ? `the ${levelText(comparison.intervalLevel)} confidence interval of the change (new / base - 1; 95 % shared out over the ${comparison.intervalTests} changes judged, and over the looks of a run --until-decided, so that together they hold at 95 %)`
      : 'the 95 % confidence interval of the change (new / base - 1)';
  return (
    `interval: ${level}, on the log scale, around the change of the pooled numbers the base and new columns show: with 3+ rounds on both sides its width comes from the rounds` +
    ` (paired round by round for two servers of one run, with the paired estimate and the unpaired interval beside it: where one of the two tests finds a change and the other does not, the verdict is inconclusive; between two files, Welch's t with each side's level known only to within how far a next run of the same build lands: its rounds' own spread plus ${(RUN_SPREAD * 100).toFixed(1)} %, which more rounds do not narrow: compare --servers base,new measures both in one run and is free of it); otherwise from each cell's interval of its window,` +
    ' never narrower than the run-to-run band a single window cannot see (latencies: half the spread of the source histogram half a nine either side' +
    ` of the percentile; rates: the larger of ${pct} and the spread of the per-interval rates; RSS ${pct}; CPU the larger of ${pct} and the window's max over mean);` +
    ` errors compare exactly (any rise regresses). docs/reading-results.md says more.${capacity}`
  );
}

/** A line per change whose paired and unpaired tests disagree: what each found. */
function disagreementLines(comparison: Comparison): string[] {
  const lines = comparison.cells.flatMap((cell) =>
    cell.deltas.flatMap((d) =>
      d.change?.disagreement
        ? [`  ${terminalText(cell.label)}: ${d.metric}: ${terminalText(d.change.disagreement)}`]
        : [],
    ),
  );
  return lines.length
    ? [
        '',
        'the paired and the unpaired tests disagree (inconclusive until more rounds make them agree: run --until-decided):',
        ...lines,
      ]
    : [];
}

/** `99.6%`: a level as a header says it, to the first digit that is not 9. */
export function levelText(level: number): string {
  for (let digits = 0; digits < 4; digits++) {
    const text = (level * 100).toFixed(digits);
    if (Number(text) < 100) return `${text}%`;
  }
  return `${(level * 100).toFixed(4)}%`;
}

/** `+4.1% [-2.0%, +10.3%]`; '' without an interval. */
export function intervalText(d: MetricDelta): string {
  if (!d.change) return '';
  return `[${formatChange(d.change.lowPct)}, ${formatChange(d.change.highPct)}]`;
}

/** The delta table; with `gate`, judged by its threshold and followed by its lines. */
export function renderComparison(
  comparison: Comparison,
  names: { base: string; next: string },
  gate: Gate | null = null,
): string {
  const header = [
    'cell',
    'metric',
    'base',
    'new',
    'change',
    `${levelText(comparison.intervalLevel)} interval`,
    'test',
    'verdict',
  ];
  const rows: string[][] = [];
  for (const cell of comparison.cells) {
    const label = cell.label;
    if (cell.deltas.length === 0) {
      rows.push([label, 'status', cell.baseStatus, cell.nextStatus, '', '', '', 'n/a']);
      continue;
    }
    cell.deltas.forEach((d, i) => {
      const values =
        d.role === 'status' ? [cell.baseStatus, cell.nextStatus] : [formatNumber(d.base), formatNumber(d.next)];
      const test =
        d.change?.method ??
        d.noiseUnmeasured ??
        (d.role === 'errors'
          ? 'exact count'
          : d.role === 'capacity'
            ? `brackets${d.noise === null ? ', one open' : ` ±${formatNumber(d.noise)}`}`
            : '');
      rows.push([
        i === 0 ? label : '',
        d.metric,
        ...values,
        formatChange(d.change?.estimatePct ?? d.changePct),
        intervalText(d),
        test,
        verdictText(d, gate),
      ]);
    });
  }
  for (const cell of comparison.missingInNext) {
    rows.push([
      cell.label,
      'status',
      cell.status,
      'missing',
      '',
      '',
      '',
      cell.status === 'skipped' ? 'n/a' : 'REGRESSED',
    ]);
  }
  const shown = rows.map((row) => row.map(terminalText));
  const widths = header.map((h, i) => Math.max(h.length, ...shown.map((r) => r[i]!.length)));
  const line = (row: string[]): string =>
    row
      .map((v, i) => (i >= 2 && i <= 5 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [
    `base: ${terminalText(names.base)}`,
    `new:  ${terminalText(names.next)}`,
    ...(comparison.environmentNote ? [`note: ${terminalText(comparison.environmentNote)}`] : []),
    ...comparison.warnings.map((w) => `warning: ${terminalText(w)}`),
    '',
    line(header),
    ...shown.map(line),
    ...disagreementLines(comparison),
    '',
    noiseLegend(comparison),
    verdictLegend(gate, comparison.marginPct, comparison),
    ...(comparison.onlyInBase.length
      ? [`only in base (${comparison.onlyInBase.length}): ${terminalText(comparison.onlyInBase.join('; '))}`]
      : []),
    ...(comparison.onlyInNext.length
      ? [`only in new (${comparison.onlyInNext.length}): ${terminalText(comparison.onlyInNext.join('; '))}`]
      : []),
    ...(gate ? ['', ...gateLines(gate).map(terminalText)] : []),
  ].join('\n');
}

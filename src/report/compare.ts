/**
 * Per-cell deltas between two result files, and whether each change is bigger
 * than the noise the data itself shows. Pure functions; the CLI prints.
 */
import { sampleStandardDeviation } from 'simple-statistics';
import { decodeHistogram } from '../core/metrics.js';
import type { BenchResult, CellResult } from '../result-types.js';
import { formatNumber } from './table.js';

type Histogram = ReturnType<typeof decodeHistogram>;

/**
 * Memory comes with no distribution in the file, so its noise is a fixed share
 * of the base value: 5% is about what two identical runs on a quiet machine
 * differ by. Rates use it as a floor; see rateNoise for what they add.
 */
export const RATE_NOISE_FRACTION = 0.05;
/** Fewer per-second rates than this say nothing about their spread. */
const MIN_INTERVALS = 3;
/** Likewise for rounds of a repeated cell. */
const MIN_ROUNDS = 3;

export type Verdict = 'regressed' | 'improved' | 'within noise' | 'n/a';

export interface MetricDelta {
  /** What is compared, unit included: "rtt p99 ms", "msg/s", "srv CPU %", "srv RSS MiB", "status". */
  metric: string;
  base: number | null;
  next: number | null;
  /** (next - base) / base in percent; null when either side is missing or base is 0. */
  changePct: number | null;
  /** Smallest change in the metric's unit that counts as real (see noise rules below). */
  noise: number | null;
  /** Which way is better. */
  better: 'lower' | 'higher';
  verdict: Verdict;
}

export interface CellComparison {
  /** "scenario server x client" plus the parameters that vary between the files' cells. */
  label: string;
  scenario: string;
  server: string;
  client: string;
  params: CellResult['params'];
  baseStatus: CellResult['status'];
  nextStatus: CellResult['status'];
  deltas: MetricDelta[];
}

export interface Comparison {
  cells: CellComparison[];
  /** Labels of cells only one of the files has. */
  onlyInBase: string[];
  onlyInNext: string[];
  /** Set when the two files come from different machines or Node versions. */
  environmentNote: string | null;
}

/** Cells match on scenario, server, client and every parameter. */
export function cellKey(cell: CellResult): string {
  const params = Object.keys(cell.params).sort().map((k) => [k, cell.params[k]]);
  return JSON.stringify([cell.scenario, cell.server, cell.client, params]);
}

export function compareResults(base: BenchResult, next: BenchResult): Comparison {
  const nextByKey = new Map(next.cells.map((c) => [cellKey(c), c]));
  const baseKeys = new Set(base.cells.map(cellKey));
  const label = labeller([...base.cells, ...next.cells]);
  const cells: CellComparison[] = [];
  for (const b of base.cells) {
    const n = nextByKey.get(cellKey(b));
    if (!n) continue;
    cells.push({ label: label(b), scenario: b.scenario, server: b.server, client: b.client, params: b.params, baseStatus: b.status, nextStatus: n.status, deltas: compareCell(b, n, base, next) });
  }
  return {
    cells,
    onlyInBase: base.cells.filter((c) => !nextByKey.has(cellKey(c))).map((c) => label(c) + statusSuffix(c)),
    onlyInNext: next.cells.filter((c) => !baseKeys.has(cellKey(c))).map((c) => label(c) + statusSuffix(c)),
    environmentNote: environmentNote(base, next),
  };
}

function compareCell(b: CellResult, n: CellResult, base: BenchResult, next: BenchResult): MetricDelta[] {
  if (b.status === 'skipped' && n.status === 'skipped') return [];
  if (b.status === 'ok' && n.status === 'failed') {
    return [{ metric: 'status', base: null, next: null, changePct: null, noise: null, better: 'higher', verdict: 'regressed' }];
  }
  const deltas: MetricDelta[] = [];
  const histogram = primaryHistogramName(b, base) ?? primaryHistogramName(n, next);
  if (histogram) {
    const hb = histogramOf(b, histogram);
    const hn = histogramOf(n, histogram);
    for (const percentile of [50, 99]) {
      const valueB = hb ? hb.getValueAtPercentile(percentile) / 1000 : null;
      const valueN = hn ? hn.getValueAtPercentile(percentile) / 1000 : null;
      const roundsNoise = Math.max(roundSpread(b, `${histogram}P${percentile}Ms`), roundSpread(n, `${histogram}P${percentile}Ms`));
      const noise = hb && hn ? Math.max(percentileNoiseMs(hb, percentile), percentileNoiseMs(hn, percentile), roundsNoise) : null;
      deltas.push(delta(`${histogram} p${percentile} ms`, valueB, valueN, noise, 'lower'));
    }
  }
  const rateKey = rateMetric(b) ?? rateMetric(n);
  if (rateKey) {
    const valueB = numberOrNull(b.metrics?.[rateKey]);
    const floor = valueB === null ? null : rateKey === 'messagesPerSec' ? rateNoise(b, n, valueB) : Math.abs(valueB) * RATE_NOISE_FRACTION;
    const noise = floor === null ? null : Math.max(floor, roundSpread(b, rateKey), roundSpread(n, rateKey));
    deltas.push(delta(rateKey === 'messagesPerSec' ? 'msg/s' : `${rateKey} /s`, valueB, numberOrNull(n.metrics?.[rateKey]), noise, 'higher'));
  }
  const sb = b.resources?.server;
  const sn = n.resources?.server;
  if (sb || sn) {
    // CPU is sampled through the window: the spread of those samples (max above mean) is its noise.
    const cpuNoise = sb && sn
      ? Math.max(sb.cpuPercent.mean * RATE_NOISE_FRACTION, sb.cpuPercent.max - sb.cpuPercent.mean, sn.cpuPercent.max - sn.cpuPercent.mean)
      : null;
    deltas.push(delta('srv CPU %', sb?.cpuPercent.mean ?? null, sn?.cpuPercent.mean ?? null, cpuNoise, 'lower'));
    const rssB = sb ? sb.rssBytes.max / 1024 / 1024 : null;
    deltas.push(delta('srv RSS MiB', rssB, sn ? sn.rssBytes.max / 1024 / 1024 : null, rssB === null ? null : rssB * RATE_NOISE_FRACTION, 'lower'));
  }
  return deltas;
}

/**
 * msg/s noise: how much the rate itself wandered second by second within each
 * window (standard deviation of the per-second `received` rates, the larger
 * of the two cells), never less than 5% of the base. On a shared 2-core box
 * two identical runs differ by far more than 5%, and the time series shows it.
 */
function rateNoise(b: CellResult, n: CellResult, base: number): number {
  const floor = Math.abs(base) * RATE_NOISE_FRACTION;
  const spreads = [b, n].map(perIntervalRates).filter((r): r is number[] => r !== null).map((r) => sampleStandardDeviation(r));
  return Math.max(floor, ...spreads);
}

/**
 * With --repeat: how much a metric varied between the cell's rounds (standard
 * deviation of the per-round values), 0 with fewer than MIN_ROUNDS rounds.
 * Run-to-run spread is the most direct noise there is, so it raises any other floor.
 */
function roundSpread(cell: CellResult, key: string): number {
  const values = (cell.rounds ?? []).map((r) => r.metrics?.[key]).filter((v): v is number => typeof v === 'number');
  return values.length >= MIN_ROUNDS ? sampleStandardDeviation(values) : 0;
}

/** Per-second message rates from the cell's time series, when it has enough intervals. */
function perIntervalRates(cell: CellResult): number[] | null {
  const series = cell.measurements?.timeSeries;
  if (!series || series.points.length < MIN_INTERVALS) return null;
  const received = series.points.map((p) => p.counters.received);
  if (received.some((v) => v === undefined)) return null;
  return received.map((now, i) => ((now! - (i === 0 ? 0 : received[i - 1]!)) * 1000) / series.intervalMs);
}

function delta(metric: string, base: number | null, next: number | null, noise: number | null, better: 'lower' | 'higher'): MetricDelta {
  const changePct = base !== null && next !== null && base !== 0 ? ((next - base) / Math.abs(base)) * 100 : null;
  let verdict: Verdict = 'n/a';
  if (base !== null && next !== null && noise !== null) {
    const change = next - base;
    if (Math.abs(change) <= noise) verdict = 'within noise';
    else verdict = (change > 0) === (better === 'lower') ? 'regressed' : 'improved';
  }
  return { metric, base, next, changePct, noise, better, verdict };
}

/**
 * The noise of a percentile, read off the histogram it comes from.
 *
 * Latency samples are not independent (one GC pause or scheduler hiccup
 * delays a burst of them), so the textbook confidence interval of a quantile,
 * which shrinks with 1/sqrt(n), is far narrower than what two identical runs
 * differ by: with 10^4 samples it calls a 25% p50 swing between two runs of
 * the same build on this 2-core box "significant". What does predict how far
 * a percentile moves is how steep the distribution is around it: where a few
 * more or fewer samples in the tail shift the value a lot, the percentile is
 * noisy. So the noise at q is half the spread of values between the
 * percentiles half a "nine" either side of q (tail share (1-q) times and
 * divided by sqrt(10); for p99: p96.8 .. p99.68; for p50: min .. p84.2).
 * A compared change must exceed the larger of the two cells' noise.
 */
const HALF_NINE = Math.sqrt(10);

export function percentileNoiseMs(histogram: Histogram, percentile: number): number {
  const tail = 1 - percentile / 100;
  const lower = 1 - Math.min(1, tail * HALF_NINE);
  const upper = 1 - tail / HALF_NINE;
  return (histogram.getValueAtPercentile(upper * 100) - histogram.getValueAtPercentile(lower * 100)) / 2 / 1000;
}

/** The histogram of the scenario's first `<name>P50Ms` column, else the cell's first client histogram. */
function primaryHistogramName(cell: CellResult, result: BenchResult): string | null {
  const names = Object.entries(cell.measurements?.histograms ?? {})
    .filter(([, h]) => h.unit !== 'bytes')
    .map(([name]) => name);
  const columns = result.scenarios.find((s) => s.name === cell.scenario)?.columns ?? [];
  for (const { key } of columns) {
    const match = /^(.+)P50Ms$/.exec(key);
    if (match && names.includes(match[1]!)) return match[1]!;
  }
  return names[0] ?? null;
}

function histogramOf(cell: CellResult, name: string): Histogram | null {
  const encoded = cell.measurements?.histograms[name];
  if (!encoded) return null;
  const histogram = decodeHistogram(encoded);
  return histogram.totalCount > 0 ? histogram : null;
}

/** `messagesPerSec` when the scenario has it, else its first non-byte `...PerSec` metric. */
function rateMetric(cell: CellResult): string | null {
  const keys = Object.keys(cell.metrics ?? {});
  if (keys.includes('messagesPerSec')) return 'messagesPerSec';
  return keys.find((k) => /PerSec$/.test(k) && !/Bytes/.test(k)) ?? null;
}

function numberOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Labels name only the parameters that differ somewhere among `cells`: the rest says nothing. */
function labeller(cells: CellResult[]): (cell: CellResult) => string {
  const keys = [...new Set(cells.flatMap((c) => Object.keys(c.params)))];
  const varying = keys.filter((k) => new Set(cells.map((c) => String(c.params[k]))).size > 1);
  return (cell) => {
    const params = varying.filter((k) => k in cell.params).map((k) => `${k}=${String(cell.params[k])}`).join(' ');
    return `${cell.scenario} ${cell.server} x ${cell.client}${params ? ` ${params}` : ''}`;
  };
}

function statusSuffix(cell: CellResult): string {
  return cell.status === 'ok' ? '' : ` (${cell.status})`;
}

function environmentNote(base: BenchResult, next: BenchResult): string | null {
  const describe = (r: BenchResult): string => `${r.environment.cpuModel} x${r.environment.cpuCores}, Node ${r.environment.node}`;
  return describe(base) === describe(next) ? null : `different machines or Node: base ${describe(base)}; new ${describe(next)}`;
}

/** Deltas that got worse beyond the noise and by more than `pct` percent (a failed cell always counts). */
export function regressionsBeyond(comparison: Comparison, pct: number): Array<{ cell: string; delta: MetricDelta }> {
  return comparison.cells.flatMap((cell) =>
    cell.deltas
      .filter((d) => d.verdict === 'regressed' && (d.changePct === null || Math.abs(d.changePct) > pct))
      .map((delta) => ({ cell: cell.label, delta })),
  );
}

/** The delta table: one block per cell, one line per metric. */
export function renderComparison(comparison: Comparison, names: { base: string; next: string }): string {
  const header = ['cell', 'metric', 'base', 'new', 'change', 'noise ±', 'verdict'];
  const rows: string[][] = [];
  for (const cell of comparison.cells) {
    const label = cell.label;
    if (cell.deltas.length === 0) {
      rows.push([label, 'status', cell.baseStatus, cell.nextStatus, '', '', 'n/a']);
      continue;
    }
    cell.deltas.forEach((d, i) => {
      const status = d.metric === 'status' ? [cell.baseStatus, cell.nextStatus] : [formatNumber(d.base), formatNumber(d.next)];
      rows.push([i === 0 ? label : '', d.metric, ...status, formatChange(d.changePct), d.noise === null ? '' : formatNumber(d.noise), d.verdict === 'regressed' ? 'REGRESSED' : d.verdict]);
    });
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (row: string[]): string => row.map((v, i) => (i >= 2 && i <= 5 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  return [
    `base: ${names.base}`,
    `new:  ${names.next}`,
    ...(comparison.environmentNote ? [`note: ${comparison.environmentNote}`] : []),
    '',
    line(header),
    ...rows.map(line),
    '',
    `noise: latency, half the spread of the histogram half a nine either side of the percentile (larger of the two cells); msg/s, the larger of ${RATE_NOISE_FRACTION * 100}% of base and the standard deviation of its per-second rates; with --repeat, never less than the spread between rounds; RSS, ${RATE_NOISE_FRACTION * 100}% of base; CPU, the larger of ${RATE_NOISE_FRACTION * 100}% and the window's max-over-mean.`,
    ...(comparison.onlyInBase.length ? [`only in base (${comparison.onlyInBase.length}): ${comparison.onlyInBase.join('; ')}`] : []),
    ...(comparison.onlyInNext.length ? [`only in new (${comparison.onlyInNext.length}): ${comparison.onlyInNext.join('; ')}`] : []),
  ].join('\n');
}

function formatChange(pct: number | null): string {
  if (pct === null) return '';
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

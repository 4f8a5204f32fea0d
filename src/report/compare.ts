/**
 * Per-cell deltas between two result files, and whether each change is bigger
 * than the noise the data itself shows. Compares the metrics each scenario
 * declares with a comparing role, reading their values from `cell.metrics`
 * (the numbers the table shows) and their noise from the measurements behind
 * them. Pure functions; the CLI prints.
 */
import { sampleStandardDeviation } from 'simple-statistics';
import type { HistogramStat, MetricInfo, MetricRole } from '../declaration-types.js';
import { decodeHistogram } from '../core/metrics.js';
import { isMeasured, type BenchResult, type CellResult, type CellStatus, type MeasuredCell, type ScenarioInfo } from '../result-types.js';
import { formatNumber, formatParam } from './table.js';

type Histogram = ReturnType<typeof decodeHistogram>;

/**
 * Memory comes with no distribution in the file, so its noise is a fixed share
 * of the base value: 5% is about what two identical runs on a quiet machine
 * differ by. Rates use it as a floor; see rateDelta for what they add.
 */
export const RATE_NOISE_FRACTION = 0.05;
/** Fewer per-interval rates than this say nothing about their spread. */
const MIN_INTERVALS = 3;
/** Likewise for rounds of a repeated cell. */
const MIN_ROUNDS = 3;
/**
 * A side measured in one round of windows shorter than this gets a warning:
 * two identical back-to-back 2 s runs on a busy 2-core box differed by +118%
 * p50, far beyond what one window's histogram shows as its noise.
 */
const SHORT_WINDOW_MS = 10_000;

export type Verdict = 'regressed' | 'improved' | 'within noise' | 'n/a';

export interface MetricDelta {
  /** The metric's key in the scenario's declarations; `status`, `serverCpuPercent`, `serverRssMiB` for the rows compare adds. */
  key: string;
  /** What is compared, as headed in the table: "p99 ms", "msg/s", "srv CPU %", "srv RSS MiB", "status". */
  metric: string;
  /** The declared role; `status` and `resources` for the rows compare adds. */
  role: Extract<MetricRole, 'primary-latency' | 'primary-rate' | 'errors'> | 'status' | 'resources';
  base: number | null;
  next: number | null;
  /** (next - base) / base in percent; null when either side is missing or base is 0. */
  changePct: number | null;
  /** Smallest change in the metric's unit that counts as real (see the noise rules below). */
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
  baseStatus: CellStatus;
  nextStatus: CellStatus;
  deltas: MetricDelta[];
}

export interface Comparison {
  cells: CellComparison[];
  /** Labels of cells only one of the files has. */
  onlyInBase: string[];
  onlyInNext: string[];
  /** Set when the two files come from different machines or Node versions. */
  environmentNote: string | null;
  /** Reasons to trust the verdicts less, e.g. a side measured in one round of short windows. */
  warnings: string[];
}

/** Cells match on scenario, server, client and every parameter. */
export function cellKey(cell: CellResult): string {
  const params = Object.keys(cell.params).sort().map((k) => [k, cell.params[k]]);
  return JSON.stringify([cell.scenario, cell.server, cell.client, params]);
}

export function compareResults(base: BenchResult, next: BenchResult): Comparison {
  const nextByKey = new Map(next.cells.map((c) => [cellKey(c), c]));
  const baseKeys = new Set(base.cells.map(cellKey));
  const scenarioOf = (name: string): ScenarioInfo | undefined =>
    base.scenarios.find((s) => s.name === name) ?? next.scenarios.find((s) => s.name === name);
  const label = labeller([...base.cells, ...next.cells], scenarioOf);
  const cells: CellComparison[] = [];
  for (const b of base.cells) {
    const n = nextByKey.get(cellKey(b));
    if (!n) continue;
    cells.push({
      label: label(b),
      scenario: b.scenario,
      server: b.server,
      client: b.client,
      params: b.params,
      baseStatus: b.status,
      nextStatus: n.status,
      deltas: compareCell(b, n, scenarioOf(b.scenario)),
    });
  }
  return {
    cells,
    onlyInBase: base.cells.filter((c) => !nextByKey.has(cellKey(c))).map((c) => label(c) + statusSuffix(c)),
    onlyInNext: next.cells.filter((c) => !baseKeys.has(cellKey(c))).map((c) => label(c) + statusSuffix(c)),
    environmentNote: environmentNote(base, next),
    warnings: [shortWindowWarning('base', base), shortWindowWarning('new', next)].filter((w): w is string => w !== null),
  };
}

function compareCell(b: CellResult, n: CellResult, scenario: ScenarioInfo | undefined): MetricDelta[] {
  if (b.status === 'skipped' && n.status === 'skipped') return [];
  const deltas: MetricDelta[] = [];
  const status = statusDelta(b.status, n.status);
  if (status) deltas.push(status);
  if (!isMeasured(b) || !isMeasured(n)) return deltas;
  for (const [key, info] of Object.entries(scenario?.metrics ?? {})) {
    if (info.role === 'primary-latency' && info.better !== 'none') deltas.push(latencyDelta(key, info, b, n));
    else if (info.role === 'primary-rate' && info.better !== 'none') deltas.push(rateDelta(key, info, b, n));
    else if (info.role === 'errors') deltas.push(delta(key, info.header, 'errors', valueOf(b, key), valueOf(n, key), 0, 'lower'));
  }
  deltas.push(...resourceDeltas(b, n));
  return deltas;
}

/**
 * A cell that fails now regresses, whatever it was before: a failing cell
 * must never pass a gate. Otherwise a cell skipped on either side (a stack
 * not installed) says nothing about the code.
 */
function statusDelta(base: CellStatus, next: CellStatus): MetricDelta | null {
  if (base === 'ok' && next === 'ok') return null;
  let verdict: Verdict = 'n/a';
  if (next === 'failed') verdict = 'regressed';
  else if (base === 'failed' && next === 'ok') verdict = 'improved';
  return { key: 'status', metric: 'status', role: 'status', base: null, next: null, changePct: null, noise: null, better: 'higher', verdict };
}

/**
 * Which percentile's noise a histogram statistic gets. A percentile is itself;
 * the mean and the standard deviation describe the body of the distribution,
 * so they get the median's; max is the far tail, p99.9's; min the near end,
 * p1's (half of min..p68.7: the minimum rarely tells builds apart). A count
 * is no latency: it falls back to the 5% rule of rates.
 */
export const NOISE_PERCENTILE: Record<HistogramStat, number | null> = {
  p50: 50,
  p90: 90,
  p99: 99,
  p999: 99.9,
  mean: 50,
  stdev: 50,
  max: 99.9,
  min: 1,
  count: null,
};

/** Noise read off the source histogram of both cells (the larger), raised to the spread between rounds. */
function latencyDelta(key: string, info: MetricInfo, b: MeasuredCell, n: MeasuredCell): MetricDelta {
  const base = valueOf(b, key);
  const next = valueOf(n, key);
  const source = 'histogram' in info.source ? info.source : null;
  const percentile = source ? NOISE_PERCENTILE[source.stat] : null;
  let noise: number | null;
  if (source && percentile !== null) {
    const histograms = [b, n].map((cell) => histogramOf(cell, source.histogram, source.side === 'server')).filter((h): h is Loaded => h !== null);
    noise = histograms.length ? Math.max(...histograms.map((h) => percentileNoise(h.histogram, percentile) * h.toUnit)) : null;
  } else {
    noise = base === null ? null : Math.abs(base) * RATE_NOISE_FRACTION;
  }
  if (noise !== null) noise = Math.max(noise, roundSpread(b, key), roundSpread(n, key));
  return delta(key, info.header, 'primary-latency', base, next, noise, info.better === 'higher' ? 'higher' : 'lower');
}

/**
 * Rate noise: the larger of 5% of the base and how much the rate wandered
 * interval by interval within each window (standard deviation of the
 * per-interval rates of its source counter, the larger of the two cells,
 * when the source is a client counter's rate), raised to the spread between
 * rounds. On a shared 2-core box two identical runs differ by far more than
 * 5%, and the time series shows it.
 */
function rateDelta(key: string, info: MetricInfo, b: MeasuredCell, n: MeasuredCell): MetricDelta {
  const base = valueOf(b, key);
  const next = valueOf(n, key);
  let noise: number | null = null;
  if (base !== null) {
    const source = info.source;
    const series =
      'counter' in source && source.as === 'rate' && source.side !== 'server'
        ? [b, n].map((cell) => intervalRates(cell, source.counter, source.scale ?? 1))
        : [];
    const spreads = series.filter((r): r is number[] => r !== null).map((r) => sampleStandardDeviation(r));
    noise = Math.max(Math.abs(base) * RATE_NOISE_FRACTION, ...spreads, roundSpread(b, key), roundSpread(n, key));
  }
  return delta(key, info.header, 'primary-rate', base, next, noise, info.better === 'lower' ? 'lower' : 'higher');
}

function resourceDeltas(b: MeasuredCell, n: MeasuredCell): MetricDelta[] {
  const sb = b.resources.server;
  const sn = n.resources.server;
  if (!sb && !sn) return [];
  // CPU is sampled through the window: the spread of those samples (max above mean) is its noise.
  const cpuNoise = sb && sn
    ? Math.max(sb.cpuPercent.mean * RATE_NOISE_FRACTION, sb.cpuPercent.max - sb.cpuPercent.mean, sn.cpuPercent.max - sn.cpuPercent.mean)
    : null;
  const rssB = sb ? sb.rssBytes.max / 1024 / 1024 : null;
  const rssN = sn ? sn.rssBytes.max / 1024 / 1024 : null;
  return [
    delta('serverCpuPercent', 'srv CPU %', 'resources', sb?.cpuPercent.mean ?? null, sn?.cpuPercent.mean ?? null, cpuNoise, 'lower'),
    delta('serverRssMiB', 'srv RSS MiB', 'resources', rssB, rssN, rssB === null ? null : rssB * RATE_NOISE_FRACTION, 'lower'),
  ];
}

/**
 * With --repeat: how much a metric varied between the cell's rounds (sample
 * standard deviation of the per-round values), 0 with fewer than MIN_ROUNDS.
 * Run-to-run spread is the most direct noise there is, so it raises any other floor.
 */
function roundSpread(cell: MeasuredCell, key: string): number {
  const values = (cell.rounds ?? []).map((r) => r.metrics?.[key]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return values.length >= MIN_ROUNDS ? sampleStandardDeviation(values) : 0;
}

/** Per-interval rates (per second, scaled) of a client counter from the cell's time series, when it has enough intervals. */
function intervalRates(cell: MeasuredCell, counter: string, scale: number): number[] | null {
  const points = cell.measurements.timeSeries?.points ?? [];
  if (points.length < MIN_INTERVALS || points.some((p) => p.counters[counter] === undefined)) return null;
  const rates: number[] = [];
  let before = { tMs: 0, value: 0 };
  for (const point of points) {
    const value = point.counters[counter]!;
    if (point.tMs > before.tMs) rates.push(((value - before.value) * scale * 1000) / (point.tMs - before.tMs));
    before = { tMs: point.tMs, value };
  }
  return rates.length >= MIN_INTERVALS ? rates : null;
}

function delta(
  key: string,
  metric: string,
  role: MetricDelta['role'],
  base: number | null,
  next: number | null,
  noise: number | null,
  better: 'lower' | 'higher',
): MetricDelta {
  const changePct = base !== null && next !== null && base !== 0 ? ((next - base) / Math.abs(base)) * 100 : null;
  let verdict: Verdict = 'n/a';
  if (base !== null && next !== null && noise !== null) {
    const change = next - base;
    if (Math.abs(change) <= noise) verdict = 'within noise';
    else verdict = (change > 0) === (better === 'lower') ? 'regressed' : 'improved';
  }
  return { key, metric, role, base, next, changePct, noise, better, verdict };
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

/** In the histogram's recorded unit (µs for latencies, bytes for sizes). */
function percentileNoise(histogram: Histogram, percentile: number): number {
  const tail = 1 - percentile / 100;
  const lower = 1 - Math.min(1, tail * HALF_NINE);
  const upper = 1 - tail / HALF_NINE;
  return (histogram.getValueAtPercentile(upper * 100) - histogram.getValueAtPercentile(lower * 100)) / 2;
}

/** percentileNoise of a latency histogram (recorded in µs), in ms. */
export function percentileNoiseMs(histogram: Histogram, percentile: number): number {
  return percentileNoise(histogram, percentile) / 1000;
}

interface Loaded {
  histogram: Histogram;
  /** Factor from the recorded unit to the metric's: µs -> ms, bytes stay. */
  toUnit: number;
}

function histogramOf(cell: MeasuredCell, name: string, server: boolean): Loaded | null {
  const encoded = (server ? cell.measurements.serverHistograms : cell.measurements.histograms)[name];
  if (!encoded) return null;
  const histogram = decodeHistogram(encoded);
  return histogram.totalCount > 0 ? { histogram, toUnit: encoded.unit === 'bytes' ? 1 : 1 / 1000 } : null;
}

function valueOf(cell: MeasuredCell, key: string): number | null {
  const value = cell.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Labels name only the parameters that differ somewhere among `cells`: the rest says nothing. */
function labeller(cells: CellResult[], scenarioOf: (name: string) => ScenarioInfo | undefined): (cell: CellResult) => string {
  const keys = [...new Set(cells.flatMap((c) => Object.keys(c.params)))];
  const varying = keys.filter((k) => new Set(cells.map((c) => String(c.params[k]))).size > 1);
  return (cell) => {
    const parameters = scenarioOf(cell.scenario)?.parameters ?? {};
    const params = varying
      .filter((k) => k in cell.params)
      .map((k) => `${k}=${formatParam(parameters[k], cell.params[k])}`)
      .join(' ');
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

function shortWindowWarning(side: string, result: BenchResult): string | null {
  if ((result.repeat ?? 1) > 1) return null;
  const windows = result.cells.filter(isMeasured).map((c) => c.measurements.windowMs);
  if (windows.length === 0 || Math.max(...windows) >= SHORT_WINDOW_MS) return null;
  const seconds = Math.max(...windows) / 1000;
  return (
    `${side} measured each cell once, in windows of ${seconds.toFixed(1)} s or less: identical runs that short` +
    ' can differ beyond the noise shown; run with --repeat 3 (or longer windows) for a gate'
  );
}

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
      const values = d.role === 'status' ? [cell.baseStatus, cell.nextStatus] : [formatNumber(d.base), formatNumber(d.next)];
      const noise = d.noise === null ? '' : formatNumber(d.noise);
      rows.push([i === 0 ? label : '', d.metric, ...values, formatChange(d.changePct), noise, d.verdict === 'regressed' ? 'REGRESSED' : d.verdict]);
    });
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (row: string[]): string => row.map((v, i) => (i >= 2 && i <= 5 ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join('  ').trimEnd();
  const pct = `${RATE_NOISE_FRACTION * 100}%`;
  return [
    `base: ${names.base}`,
    `new:  ${names.next}`,
    ...(comparison.environmentNote ? [`note: ${comparison.environmentNote}`] : []),
    ...comparison.warnings.map((w) => `warning: ${w}`),
    '',
    line(header),
    ...rows.map(line),
    '',
    'noise: latencies, half the spread of the source histogram half a nine either side of the percentile read' +
      ' (mean and std as p50, max as p99.9, min as p1; larger of the two cells);' +
      ` rates, the larger of ${pct} of base and the standard deviation of the per-interval rates of the source counter;` +
      ' errors, none (any increase regresses); with --repeat (3+ rounds), never less than the spread between rounds;' +
      ` RSS, ${pct} of base; CPU, the larger of ${pct} and the window's max-over-mean.`,
    ...(comparison.onlyInBase.length ? [`only in base (${comparison.onlyInBase.length}): ${comparison.onlyInBase.join('; ')}`] : []),
    ...(comparison.onlyInNext.length ? [`only in new (${comparison.onlyInNext.length}): ${comparison.onlyInNext.join('; ')}`] : []),
  ].join('\n');
}

function formatChange(pct: number | null): string {
  if (pct === null) return '';
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

/**
 * Reads the cells' HDR histograms into chart rows: percentile curves (HDR
 * style) and the few statistics a box plot needs. Values are µs in the file,
 * ms in every chart.
 */
import { decodeHistogram } from '../../core/metrics.js';
import type { CellResult, EncodedHistogram } from '../../result-types.js';
import { round4 } from './common.js';

type Histogram = ReturnType<typeof decodeHistogram>;

/** One named histogram of one cell. */
export interface HistogramSeries {
  cell: CellResult;
  /** Histogram name; server-side ones are prefixed `server ` so both sides can be told apart. */
  name: string;
  histogram: Histogram;
}

/** Every non-empty histogram of the given unit (latencies by default), client side first. */
export function histogramSeries(cells: CellResult[], unit: EncodedHistogram['unit'] = 'us'): HistogramSeries[] {
  const series: HistogramSeries[] = [];
  for (const cell of cells) {
    const m = cell.measurements;
    if (!m) continue;
    const sides: Array<[string, Record<string, EncodedHistogram>]> = [['', m.histograms], ['server ', m.serverHistograms ?? {}]];
    for (const [prefix, set] of sides) {
      for (const [name, encoded] of Object.entries(set)) {
        if ((encoded.unit ?? 'us') !== unit) continue;
        const histogram = decodeHistogram(encoded);
        if (histogram.totalCount > 0) series.push({ cell, name: prefix + name, histogram });
      }
    }
  }
  return series;
}

/** Histogram names in first-seen order. */
export function histogramNames(series: HistogramSeries[]): string[] {
  return [...new Set(series.map((s) => s.name))];
}

/**
 * The scenario's main latency histogram: the one its first `<name>P50Ms`
 * column points at, else the first client histogram recorded.
 */
export function primaryHistogram(series: HistogramSeries[], columnKeys: string[]): string | null {
  const names = histogramNames(series);
  for (const key of columnKeys) {
    const match = /^(.+)P50Ms$/.exec(key);
    if (match && names.includes(match[1]!)) return match[1]!;
  }
  return names.find((n) => !n.startsWith('server ')) ?? names[0] ?? null;
}

/** Points per decade of 1/(1-p): enough for a smooth curve, few enough to keep the spec small. */
const STEPS_PER_NINE = 20;

export interface CurvePoint {
  /** 1/(1-p): the HDR plot's log x axis (2 = p50, 10 = p90, 100 = p99 ...). */
  x: number;
  percentile: number;
  valueMs: number;
}

/**
 * The percentile curve up to the last nine the sample count supports, then
 * the maximum: beyond 1/n the histogram has nothing more to say.
 */
export function percentileCurve(histogram: Histogram): CurvePoint[] {
  const count = histogram.totalCount;
  const lastNines = Math.log10(Math.max(count, 1));
  const points: CurvePoint[] = [];
  for (let step = 0; step / STEPS_PER_NINE < lastNines; step++) {
    const nines = step / STEPS_PER_NINE;
    const percentile = 100 * (1 - 10 ** -nines);
    points.push({ x: round4(10 ** nines), percentile: round4(percentile), valueMs: valueMs(histogram, percentile) });
  }
  points.push({ x: round4(Math.max(count, 1)), percentile: 100, valueMs: round4(histogram.maxValue / 1000) });
  return points;
}

/** Value at a percentile in ms; at least 1 µs so log scales stay defined. */
export function valueMs(histogram: Histogram, percentile: number): number {
  return round4(Math.max(histogram.getValueAtPercentile(percentile), 1) / 1000);
}

/** What a box plot and a mean bar need, in ms. Whiskers are p1 and p99 (a histogram keeps no outliers to draw). */
export interface BoxStats {
  minMs: number;
  p1Ms: number;
  p25Ms: number;
  p50Ms: number;
  p75Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
  count: number;
}

export function boxStats(histogram: Histogram): BoxStats {
  return {
    minMs: round4(Math.max(histogram.minNonZeroValue, 1) / 1000),
    p1Ms: valueMs(histogram, 1),
    p25Ms: valueMs(histogram, 25),
    p50Ms: valueMs(histogram, 50),
    p75Ms: valueMs(histogram, 75),
    p99Ms: valueMs(histogram, 99),
    maxMs: round4(histogram.maxValue / 1000),
    meanMs: round4(histogram.mean / 1000),
    count: histogram.totalCount,
  };
}

/** Axis values 2, 10, 100 ... up to `maxX` (50%, 90%, 99% ...), labelled by PERCENTILE_LABEL. */
export function percentileTicks(maxX: number): number[] {
  const ticks = [2];
  for (let x = 10; x <= maxX * 1.0001; x *= 10) ticks.push(x);
  return ticks;
}

/** Vega expression turning 1/(1-p) back into "99.9%". */
export const PERCENTILE_LABEL = "format(100 - 100 / datum.value, '.10~g') + '%'";

/** The HDR plot's x channel: percentile on a log scale of 1/(1-p), labelled in %. */
export function percentileX(maxX: number) {
  return {
    field: 'x',
    type: 'quantitative' as const,
    scale: { type: 'log' as const, domain: [1, maxX] },
    axis: { values: percentileTicks(maxX), labelExpr: PERCENTILE_LABEL, title: 'percentile (log scale of 1/(1-p))' },
  };
}

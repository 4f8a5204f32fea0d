/**
 * Reads the cells' HDR histograms into chart rows: percentile curves (HDR
 * style) and the few statistics a box plot needs. A histogram's unit comes
 * from the file: latencies are µs there and ms in every chart, sizes bytes.
 */
import { decodeHistogram } from '../../shared/measure/metrics.js';
import type { HistogramRef } from '../../shared/types/declaration-types.js';
import type { EncodedHistogram, MeasuredCell } from '../../shared/types/result-types.js';
import { round4 } from './common.js';

type Histogram = ReturnType<typeof decodeHistogram>;

/** The unit a chart shows a histogram in. */
export type DisplayUnit = 'ms' | 'bytes';

/** One named histogram of one cell, holding samples. */
export interface HistogramSeries {
  cell: MeasuredCell;
  /** The name as a chart shows it; server-side ones say so. */
  label: string;
  histogram: Histogram;
  unit: DisplayUnit;
}

/** The name a chart shows for a reference: `name`, or `name (server)`. */
export function refLabel(ref: HistogramRef): string {
  return typeof ref === 'string' ? ref : ref.side === 'server' ? `${ref.histogram} (server)` : ref.histogram;
}

function encodedOf(cell: MeasuredCell, ref: HistogramRef): EncodedHistogram | undefined {
  const m = cell.measurements;
  if (typeof ref === 'string') return m.histograms[ref];
  return ref.side === 'server' ? m.serverHistograms[ref.histogram] : m.histograms[ref.histogram];
}

/** The referenced histogram of each cell that has one with samples, cell by cell, in reference order. */
export function histogramSeries(cells: MeasuredCell[], refs: readonly HistogramRef[]): HistogramSeries[] {
  const series: HistogramSeries[] = [];
  for (const cell of cells) {
    for (const ref of refs) {
      const encoded = encodedOf(cell, ref);
      if (!encoded) continue;
      const histogram = decodeHistogram(encoded);
      if (histogram.totalCount === 0) continue;
      series.push({ cell, label: refLabel(ref), histogram, unit: encoded.unit === 'bytes' ? 'bytes' : 'ms' });
    }
  }
  return series;
}

/** Raw histogram values per display unit. */
const DIVISOR: Record<DisplayUnit, number> = { ms: 1000, bytes: 1 };

/** Points per decade of 1/(1-p): enough for a smooth curve, few enough to keep the spec small. */
const STEPS_PER_NINE = 20;

interface CurvePoint {
  /** 1/(1-p): the HDR plot's log x axis (2 = p50, 10 = p90, 100 = p99 ...). */
  x: number;
  percentile: number;
  /** In the series' display unit. */
  value: number;
}

/**
 * The percentile curve up to the last nine the sample count supports, then
 * the maximum: beyond 1/n the histogram has nothing more to say.
 */
export function percentileCurve(series: HistogramSeries): CurvePoint[] {
  const { histogram, unit } = series;
  const count = histogram.totalCount;
  const lastNines = Math.log10(Math.max(count, 1));
  const points: CurvePoint[] = [];
  for (let step = 0; step / STEPS_PER_NINE < lastNines; step++) {
    const nines = step / STEPS_PER_NINE;
    const percentile = 100 * (1 - 10 ** -nines);
    points.push({
      x: round4(10 ** nines),
      percentile: round4(percentile),
      value: valueAt(histogram, unit, percentile),
    });
  }
  points.push({
    x: round4(Math.max(count, 1)),
    percentile: 100,
    value: round4(Math.max(histogram.maxValue, 1) / DIVISOR[unit]),
  });
  return points;
}

/** Value at a percentile in the display unit; at least one raw unit so log scales stay defined. */
export function valueAt(histogram: Histogram, unit: DisplayUnit, percentile: number): number {
  return round4(Math.max(histogram.getValueAtPercentile(percentile), 1) / DIVISOR[unit]);
}

/** What a box plot and a mean bar need, in the display unit. Whiskers are p1 and p99 (a histogram keeps no outliers). */
interface BoxStats {
  min: number;
  p1: number;
  p25: number;
  p50: number;
  p75: number;
  p99: number;
  max: number;
  mean: number;
  count: number;
}

export function boxStats(series: HistogramSeries): BoxStats {
  const { histogram, unit } = series;
  const at = (p: number): number => valueAt(histogram, unit, p);
  return {
    min: round4(Math.max(histogram.minNonZeroValue, 1) / DIVISOR[unit]),
    p1: at(1),
    p25: at(25),
    p50: at(50),
    p75: at(75),
    p99: at(99),
    max: round4(Math.max(histogram.maxValue, 1) / DIVISOR[unit]),
    mean: round4(histogram.mean / DIVISOR[unit]),
    count: histogram.totalCount,
  };
}

/** Axis values 2, 10, 100 ... up to `maxX` (50%, 90%, 99% ...), labelled by PERCENTILE_LABEL. */
function percentileTicks(maxX: number): number[] {
  const ticks = [2];
  for (let x = 10; x <= maxX * 1.0001; x *= 10) ticks.push(x);
  return ticks;
}

/** Vega expression turning 1/(1-p) back into "99.9%". */
const PERCENTILE_LABEL = "format(100 - 100 / datum.value, '.10~g') + '%'";

/** The HDR plot's x channel: percentile on a log scale of 1/(1-p), labelled in %. */
export function percentileX(maxX: number) {
  return {
    field: 'x',
    type: 'quantitative' as const,
    scale: { type: 'log' as const, domain: [1, Math.max(maxX, 2)] },
    axis: { values: percentileTicks(maxX), labelExpr: PERCENTILE_LABEL, title: 'percentile (%, log scale of 1/(1-p))' },
  };
}

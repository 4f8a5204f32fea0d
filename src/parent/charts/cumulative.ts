/**
 * `cumulative`: how many samples of a latency histogram are at or below each
 * value, against the value on a linear axis, one step line per cell. For a
 * histogram of each client's time to be back after a server restart, that is
 * the number of clients back against the time since the restart; a line that
 * levels off below the others' height had clients that never came back.
 */
import { frame, round4, titleOf, type DrawnChart, type ScenarioView } from './common.js';
import { histogramSeries, valueAt, type HistogramSeries } from './histograms.js';
import { seriesEncoding, seriesFields, seriesStyle } from './series-style.js';

/** Most points a line gets: below this many samples, one per sample (exact); above, evenly spaced ranks. */
const MAX_POINTS = 200;

interface CumulativePoint {
  /** In the series' display unit (ms). */
  value: number;
  /** Samples at or below `value` (to the histogram's 0.1 % precision). */
  count: number;
}

/** The step curve from (0, 0) to (max, total): the value at each rank k is where k samples are reached. */
export function cumulativeCounts(series: HistogramSeries): CumulativePoint[] {
  const total = series.histogram.totalCount;
  const steps = Math.min(total, MAX_POINTS);
  const points: CumulativePoint[] = [{ value: 0, count: 0 }];
  for (let i = 1; i <= steps; i++) {
    const rank = Math.ceil((i * total) / steps);
    points.push({ value: valueAt(series.histogram, series.unit, Math.min(100, (100 * rank) / total)), count: rank });
  }
  return points;
}

export function cumulativeChart(view: ScenarioView, request: { histogram: string; title?: string }): DrawnChart[] {
  const series = histogramSeries(view.cells, [request.histogram]).filter((s) => s.unit === 'ms');
  if (series.length === 0) return [];
  const values = series.flatMap((s) =>
    cumulativeCounts(s).map((p) => ({ value: round4(p.value), count: p.count, ...seriesFields(view, s.cell) })),
  );
  const style = seriesStyle(values);
  return [
    {
      caption: `Samples of ${request.histogram} at or below each value, one line per cell, from the merged HDR histograms (summed over rounds with --repeat).`,
      spec: {
        ...frame(
          view,
          titleOf(request.title, `${request.histogram}, cumulative`),
          `Count of ${request.histogram} samples at or below each value (ms, linear).`,
        ),
        data: { values },
        width: 460,
        height: 260,
        mark: { type: 'line', interpolate: 'step-after', strokeWidth: 1.5 },
        encoding: {
          x: { field: 'value', type: 'quantitative', title: `${request.histogram} (ms)` },
          y: { field: 'count', type: 'quantitative', title: `${request.histogram} samples at or below (count)` },
          ...seriesEncoding(style),
        },
      },
    },
  ];
}

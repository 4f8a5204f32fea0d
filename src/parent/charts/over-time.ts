/**
 * `over-time`: the measurement window interval by interval, from each cell's
 * time series. The latency of one histogram (p50, p99, max of the samples of
 * each interval, one panel per cell), and the rate of each requested metric
 * whose declared source is a counter rate: the counter's increase over the
 * interval, per second, times the declared scale, in the metric's unit.
 */
import type { CounterSource } from '../../shared/types/declaration-types.js';
import type { MeasuredCell, TimeSeries } from '../../shared/types/result-types.js';
import {
  cellLabel,
  declaredMetrics,
  firstSeen,
  frame,
  metricLabel,
  metricTitle,
  round4,
  titleOf,
  type DeclaredMetric,
  type DrawnChart,
  type ScenarioView,
} from './common.js';
import { seriesEncoding, seriesFields, seriesStyle, styleNote } from './series-style.js';

const STATISTICS = ['p50', 'p99', 'max'] as const;
/** Log scales need a positive value; 1 µs is below anything a socket measures. */
const FLOOR_MS = 0.001;

/** The request's title, and which part of it a chart is when the request draws two. */
interface Titling {
  requested: string | undefined;
  part: string | undefined;
}

interface SeriesCell {
  cell: MeasuredCell;
  series: TimeSeries;
}

export function overTimeCharts(
  view: ScenarioView,
  request: { histogram?: string; rates?: string[]; title?: string },
): DrawnChart[] {
  const cells = view.cells.flatMap((cell) => {
    const series = cell.measurements.timeSeries;
    return series && series.points.length > 0 ? [{ cell, series }] : [];
  });
  if (cells.length === 0) return [];
  const both = request.histogram !== undefined && (request.rates?.length ?? 0) > 0;
  const charts = [
    request.histogram === undefined
      ? null
      : latencyOverTime(view, cells, request.histogram, {
          requested: request.title,
          part: both ? 'latency' : undefined,
        }),
    rateOverTime(view, cells, declaredMetrics(view, request.rates).filter(isCounterRate), {
      requested: request.title,
      part: both ? 'rates' : undefined,
    }),
  ];
  return charts.filter((c): c is DrawnChart => c !== null);
}

type CounterRateMetric = DeclaredMetric & { source: CounterSource };

/** Only a client counter's rate can be read off the time series (it holds client counters). */
function isCounterRate(metric: DeclaredMetric): metric is CounterRateMetric {
  const source = metric.source;
  return 'counter' in source && source.as === 'rate' && (source.side ?? 'client') === 'client';
}

function latencyOverTime(
  view: ScenarioView,
  cells: SeriesCell[],
  histogram: string,
  title: Titling,
): DrawnChart | null {
  const values = cells.flatMap(({ cell, series }) =>
    series.points.flatMap((point) => {
      const latency = point.latency[histogram];
      if (!latency || latency.count === 0) return [];
      const base = { cell: cellLabel(view, cell), tS: point.tMs / 1000 };
      return [
        { ...base, statistic: 'p50', valueMs: Math.max(FLOOR_MS, latency.p50Ms) },
        { ...base, statistic: 'p99', valueMs: Math.max(FLOOR_MS, latency.p99Ms) },
        { ...base, statistic: 'max', valueMs: Math.max(FLOOR_MS, latency.maxMs) },
      ];
    }),
  );
  if (values.length === 0) return null;
  const stages = stageBands(view, cells);
  const line = {
    mark: { type: 'line' as const, strokeWidth: 1.3, point: { size: 12 } },
    encoding: {
      x: { field: 'tS', type: 'quantitative' as const, title: 'time in window (s)' },
      y: {
        field: 'valueMs',
        type: 'quantitative' as const,
        scale: { type: 'log' as const },
        title: `${histogram} (ms, log scale)`,
      },
      color: { field: 'statistic', type: 'nominal' as const, title: 'statistic', sort: [...STATISTICS] },
    },
  };
  return {
    caption: `${histogram} interval by interval: p50, p99 and max of the samples recorded in each interval, one panel per cell.${stages.length > 0 ? ' Shaded bands are the stages of the load, each labelled with where it took the load.' : ''}`,
    spec: {
      ...frame(
        view,
        titleOf(title.requested, `${histogram} over time`, title.part),
        'Per-interval percentiles, one panel per cell.',
      ),
      data: { values: [...values, ...stages] },
      columns: 2,
      facet: { field: 'cell', type: 'nominal', title: null, sort: firstSeen(values, (v) => v.cell) },
      spec:
        stages.length === 0
          ? { width: 300, height: 180, ...line }
          : {
              width: 300,
              height: 180,
              layer: [
                {
                  transform: [{ filter: 'isValid(datum.stageStartS)' }],
                  mark: { type: 'rect' as const, opacity: 0.12 },
                  encoding: {
                    x: { field: 'stageStartS', type: 'quantitative' as const },
                    x2: { field: 'stageEndS' },
                    color: { value: '#444' },
                    opacity: {
                      field: 'shade',
                      type: 'quantitative' as const,
                      scale: { range: [0.04, 0.14] },
                      legend: null,
                    },
                  },
                },
                {
                  transform: [{ filter: 'isValid(datum.stageStartS)' }],
                  mark: {
                    type: 'text' as const,
                    align: 'left' as const,
                    baseline: 'top' as const,
                    dx: 2,
                    dy: 2,
                    fontSize: 9,
                  },
                  encoding: {
                    x: { field: 'stageStartS', type: 'quantitative' as const },
                    y: { value: 0 },
                    text: { field: 'stage' },
                  },
                },
                { transform: [{ filter: 'isValid(datum.valueMs)' }], ...line },
              ],
            },
    },
  };
}

/** The stages of each staged cell as bands: where each ran in the window, labelled with its target. */
function stageBands(view: ScenarioView, cells: SeriesCell[]) {
  return cells.flatMap(({ cell }) =>
    (cell.stages ?? []).map((stage) => ({
      cell: cellLabel(view, cell),
      stageStartS: stage.startMs / 1000,
      stageEndS: stage.endMs / 1000,
      stage: `${stage.index + 1}: to ${stage.target}`,
      shade: stage.index % 2,
    })),
  );
}

function rateOverTime(
  view: ScenarioView,
  cells: SeriesCell[],
  metrics: CounterRateMetric[],
  title: Titling,
): DrawnChart | null {
  const values = cells.flatMap(({ cell, series }) =>
    metrics.flatMap((metric) =>
      series.points.flatMap((point, i) => {
        const now = point.counters[metric.source.counter];
        if (now === undefined) return [];
        const previous = series.points[i - 1];
        // The interval actually covered: a folded or short last point is not `intervalMs` long.
        const intervalMs = point.tMs - (previous?.tMs ?? 0) || series.intervalMs;
        const before = previous?.counters[metric.source.counter] ?? 0;
        const value = ((now - before) * 1000 * (metric.source.scale ?? 1)) / intervalMs;
        return [{ ...seriesFields(view, cell), tS: point.tMs / 1000, metric: metric.key, value: round4(value) }];
      }),
    ),
  );
  if (values.length === 0) return null;
  const drawn = metrics.filter((m) => values.some((v) => v.metric === m.key));
  const style = seriesStyle(values);
  return {
    caption: `${drawn.map((m) => metricTitle(m)).join(', ')} interval by interval: each counter's increase over the interval, summed over client processes. ${styleNote(style)}`,
    spec: {
      ...frame(
        view,
        titleOf(title.requested, `${drawn.map(metricLabel).join(', ')} over time`, title.part),
        'Per-interval rates, one panel per metric, one line per cell.',
      ),
      data: { values },
      columns: 1,
      concat: drawn.map((metric) => ({
        width: 520,
        height: 180,
        transform: [{ filter: { field: 'metric', equal: metric.key } }],
        mark: { type: 'line' as const, strokeWidth: 1.3 },
        encoding: {
          x: { field: 'tS', type: 'quantitative' as const, title: 'time in window (s)' },
          y: { field: 'value', type: 'quantitative' as const, title: metricTitle(metric) },
          ...seriesEncoding(style),
        },
      })),
    },
  };
}

/**
 * Charts every scenario gets, whatever it measures: the percentile curve of
 * each histogram, each `...PerSec` metric, and what the server cost.
 */
import type { TopLevelSpec } from 'vega-lite';
import { cellLabel, chartName, frame, round4, type ChartSpec, type ScenarioView } from './common.js';
import { histogramNames, histogramSeries, percentileCurve, type HistogramSeries, percentileX } from './histograms.js';

export function genericCharts(view: ScenarioView): ChartSpec[] {
  const series = histogramSeries(view.cells);
  return [percentileChart(view, series), throughputChart(view), resourcesChart(view)].filter((c): c is ChartSpec => c !== null);
}

/** HDR-style curves: one line per cell, one panel per histogram. */
export function percentileChart(view: ScenarioView, series: HistogramSeries[], chart = 'percentiles', names = histogramNames(series)): ChartSpec | null {
  const chosen = series.filter((s) => names.includes(s.name));
  if (chosen.length === 0) return null;
  const values = chosen.flatMap((s) =>
    percentileCurve(s.histogram).map((p) => ({ ...p, series: cellLabel(s.cell, view.sweptParams), histogram: s.name })),
  );
  const maxX = Math.max(...values.map((v) => v.x));
  const layer: TopLevelSpec = {
    ...frame(view, `${view.scenario.name}: latency by percentile`, 'Latency at each percentile, HDR style: the x axis is 1/(1-p) on a log scale, so each step right is one more nine.'),
    data: { values },
    width: 460,
    height: 260,
    mark: { type: 'line', point: false, strokeWidth: 1.5 },
    encoding: {
      x: percentileX(maxX),
      y: { field: 'valueMs', type: 'quantitative', scale: { type: 'log' }, title: 'latency (ms, log scale)' },
      color: { field: 'series', type: 'nominal', title: 'server x client' },
      ...(names.length > 1 ? { facet: { field: 'histogram', type: 'nominal', title: 'histogram', columns: 2, sort: names } } : {}),
    },
    ...(names.length > 1 ? { resolve: { scale: { y: 'independent' } } } : {}),
  };
  return {
    name: chartName(view.scenario.name, chart),
    caption: `Latency percentiles per cell (${names.join(', ')}), from the merged HDR histograms.`,
    spec: layer,
  };
}

/** Every `...PerSec` metric, one panel each so each axis carries its unit; bytes shown as MB/s. */
function throughputChart(view: ScenarioView): ChartSpec | null {
  const values = view.cells.flatMap((cell) =>
    Object.entries(cell.metrics ?? {})
      .filter((entry): entry is [string, number] => /PerSec$/.test(entry[0]) && typeof entry[1] === 'number' && !isDuplicateRate(entry[0], cell.metrics!))
      .map(([key, value]) => ({ series: cellLabel(cell, view.sweptParams), metric: key, value: round4(BYTE_RATE.test(key) && !MEGABYTE_RATE.test(key) ? value / 1e6 : value) })),
  );
  if (values.length === 0) return null;
  const metrics = [...new Set(values.map((v) => v.metric))];
  return {
    name: chartName(view.scenario.name, 'throughput'),
    caption: `Rates per cell (${metrics.join(', ')}), over each cell's measurement window.`,
    spec: {
      ...frame(view, `${view.scenario.name}: throughput`, 'Each rate metric of the scenario, one panel per metric.'),
      data: { values },
      columns: 2,
      concat: metrics.map((metric) => ({
        width: 300,
        height: { step: 18 },
        transform: [{ filter: { field: 'metric', equal: metric } }],
        mark: 'bar' as const,
        encoding: {
          y: { field: 'series', type: 'nominal' as const, title: 'server x client' },
          x: { field: 'value', type: 'quantitative' as const, title: `${metric} (${rateUnit(metric)})` },
          color: { field: 'series', type: 'nominal' as const, legend: null },
        },
      })),
    },
  };
}

/** Rates in bytes, drawn in MB/s (divided by 10^6); `megabytesPerSec` is already in MB/s. */
const BYTE_RATE = /(^|[a-z])[bB]ytesPerSec$/;
const MEGABYTE_RATE = /^megabytesPerSec$|MBPerSec$/;

/** A scenario that reports both `bytesPerSec` and `megabytesPerSec` gets one panel, not two. */
function isDuplicateRate(key: string, metrics: Record<string, number | null>): boolean {
  return MEGABYTE_RATE.test(key) && Object.keys(metrics).some((k) => k !== key && BYTE_RATE.test(k) && !MEGABYTE_RATE.test(k));
}

/** The unit a `...PerSec` key is drawn in. */
export function rateUnit(key: string): string {
  if (BYTE_RATE.test(key) || MEGABYTE_RATE.test(key)) return 'MB/s';
  if (/messages|msgs|received|sent/i.test(key)) return 'msg/s';
  return 'per s';
}

/** Server CPU (mean bar, max tick) and peak RSS per cell. */
function resourcesChart(view: ScenarioView): ChartSpec | null {
  const values = view.cells.flatMap((cell) => {
    const server = cell.resources?.server;
    if (!server) return [];
    return [{
      series: cellLabel(cell, view.sweptParams),
      cpuMean: round4(server.cpuPercent.mean),
      cpuMax: round4(server.cpuPercent.max),
      rssMaxMB: round4(server.rssBytes.max / 1024 / 1024),
    }];
  });
  if (values.length === 0) return null;
  const y = { field: 'series', type: 'nominal', title: 'server x client' } as const;
  return {
    name: chartName(view.scenario.name, 'server-resources'),
    caption: 'Server process during the window: mean CPU (bar) and its highest sample (tick), and peak resident memory.',
    spec: {
      ...frame(view, `${view.scenario.name}: server cost`, 'Server CPU in percent of one core (mean bar, max tick) and peak RSS in MiB.'),
      data: { values },
      hconcat: [
        {
          width: 260,
          height: { step: 18 },
          layer: [
            { mark: 'bar', encoding: { y, x: { field: 'cpuMean', type: 'quantitative', title: 'server CPU (% of one core)' }, color: { field: 'series', type: 'nominal', legend: null } } },
            { mark: { type: 'tick', color: 'black', thickness: 2 }, encoding: { y, x: { field: 'cpuMax', type: 'quantitative' } } },
          ],
        },
        {
          width: 260,
          height: { step: 18 },
          mark: 'bar',
          encoding: { y: { ...y, axis: null }, x: { field: 'rssMaxMB', type: 'quantitative', title: 'server peak RSS (MiB)' }, color: { field: 'series', type: 'nominal', legend: null } },
        },
      ],
    },
  };
}

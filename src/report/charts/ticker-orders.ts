/**
 * ticker-orders: the seed plots latency over time per server x client pair;
 * the over-time chart draws that from the cells' time series. Result files
 * without a time series get each pair's percentile curve instead, one panel
 * per pair, one line per histogram (e.g. order round trip and ticker delay).
 */
import { cellLabel, chartName, frame, type ChartSpec, type ScenarioView } from './common.js';
import { histogramNames, histogramSeries, percentileCurve, percentileX } from './histograms.js';

export function tickerOrdersCharts(view: ScenarioView): ChartSpec[] {
  if (view.cells.some((c) => c.measurements?.timeSeries)) return [];
  const series = histogramSeries(view.cells);
  if (series.length === 0) return [];
  const values = series.flatMap((s) => percentileCurve(s.histogram).map((p) => ({ ...p, cell: cellLabel(s.cell, view.sweptParams), histogram: s.name })));
  const maxX = Math.max(...values.map((v) => v.x));
  const cells = [...new Set(values.map((v) => v.cell))];
  return [{
    name: chartName(view.scenario.name, 'per-pair'),
    caption: 'Latency percentiles per server x client pair. The seed draws latency over time; this result file holds no time series, so this is the percentile curve of the whole window.',
    spec: {
      ...frame(view, `${view.scenario.name}: latency per server x client pair`, 'One panel per pair, one line per histogram; x is 1/(1-p) on a log scale.'),
      data: { values },
      columns: 2,
      facet: { field: 'cell', type: 'nominal', title: null, sort: cells },
      spec: {
        width: 300,
        height: 200,
        mark: { type: 'line', strokeWidth: 1.5 },
        encoding: {
          x: percentileX(maxX),
          y: { field: 'valueMs', type: 'quantitative', scale: { type: 'log' }, title: 'latency (ms, log scale)' },
          color: { field: 'histogram', type: 'nominal', title: 'histogram', sort: histogramNames(series) },
        },
      },
    },
  }];
}

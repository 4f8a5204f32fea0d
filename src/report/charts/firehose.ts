/**
 * firehose: the seed shows the RX rate over time and the message-size
 * distribution. The RX rate over time is the over-time chart (from the cells'
 * time series); this adds the size distribution from the scenario's size histogram
 * (unit bytes), else the min / mean / max message size from its
 * `messageBytesMin/Avg/Max` metrics (result files written before sizes were recorded).
 */
import { cellLabel, chartName, frame, round4, type ChartSpec, type ScenarioView } from './common.js';
import { histogramSeries, percentileX } from './histograms.js';

const STEPS_PER_NINE = 20;

export function firehoseCharts(view: ScenarioView): ChartSpec[] {
  const sizes = histogramSeries(view.cells, 'bytes');
  if (sizes.length === 0) return sizeRangeChart(view);
  const values = sizes.flatMap((s) => {
    const lastNines = Math.log10(Math.max(s.histogram.totalCount, 1));
    const points = [];
    for (let step = 0; step / STEPS_PER_NINE < lastNines; step++) {
      const nines = step / STEPS_PER_NINE;
      points.push({ x: round4(10 ** nines), sizeBytes: Math.max(1, s.histogram.getValueAtPercentile(100 * (1 - 10 ** -nines))) });
    }
    points.push({ x: Math.max(1, s.histogram.totalCount), sizeBytes: Math.max(1, s.histogram.maxValue) });
    return points.map((p) => ({ ...p, cell: cellLabel(s.cell, view.sweptParams), histogram: s.name }));
  });
  const maxX = Math.max(...values.map((v) => v.x));
  return [{
    name: chartName(view.scenario.name, 'message-sizes'),
    caption: 'Message-size distribution by percentile (from the size histogram; its values are bytes).',
    spec: {
      ...frame(view, `${view.scenario.name}: message sizes`, 'Message size in bytes at each percentile; x is 1/(1-p) on a log scale.'),
      data: { values },
      width: 460,
      height: 240,
      mark: { type: 'line', interpolate: 'step-after' },
      encoding: {
        x: percentileX(maxX),
        y: { field: 'sizeBytes', type: 'quantitative', scale: { type: 'log' }, title: 'message size (bytes, log scale)' },
        color: { field: 'cell', type: 'nominal', title: 'server x client' },
      },
    },
  }];
}

const SIZE_METRICS = { min: 'messageBytesMin', mean: 'messageBytesAvg', max: 'messageBytesMax' } as const;

/** Without a size histogram: each cell's smallest, mean and largest message (a log-x range plot). */
function sizeRangeChart(view: ScenarioView): ChartSpec[] {
  const values = view.cells.flatMap((cell) => {
    const [min, mean, max] = [SIZE_METRICS.min, SIZE_METRICS.mean, SIZE_METRICS.max].map((k) => cell.metrics?.[k]);
    if (typeof min !== 'number' || typeof mean !== 'number' || typeof max !== 'number') return [];
    return [{ cell: cellLabel(cell, view.sweptParams), minBytes: Math.max(1, min), meanBytes: round4(Math.max(1, mean)), maxBytes: Math.max(1, max) }];
  });
  if (values.length === 0) return [];
  const y = { field: 'cell', type: 'nominal', title: 'server x client' } as const;
  return [{
    name: chartName(view.scenario.name, 'message-sizes'),
    caption: 'Message size per cell: smallest to largest (rule) and mean (dot). The scenario records no size histogram, so no full distribution.',
    spec: {
      ...frame(view, `${view.scenario.name}: message sizes (min..max, mean)`, 'Message size range in bytes per cell, log scale.'),
      data: { values },
      width: 420,
      height: { step: 22 },
      layer: [
        { mark: 'rule', encoding: { y, x: { field: 'minBytes', type: 'quantitative', scale: { type: 'log' }, title: 'message size (bytes, log scale)' }, x2: { field: 'maxBytes' } } },
        { mark: { type: 'point', filled: true, size: 60 }, encoding: { y, x: { field: 'meanBytes', type: 'quantitative' }, color: { field: 'cell', type: 'nominal', legend: null } } },
      ],
    },
  }];
}

/**
 * chat: the 2 x 2 treatment grid of the seed (moderator delay x queue size),
 * one panel per treatment: percentile curves per pair, and mean bars with the
 * min..max range, p99 tick and drop counts. Needs cells that differ by
 * `moderatorDelay` and `queue`; draws nothing otherwise.
 */
import type { CellResult } from '../../result-types.js';
import { chartName, frame, pairLabel, type ChartSpec, type ScenarioView } from './common.js';
import { boxStats, histogramSeries, percentileCurve, primaryHistogram, percentileX } from './histograms.js';

const ROW = 'moderatorDelay';
const COLUMN = 'queue';

export function chatCharts(view: ScenarioView): ChartSpec[] {
  if (!view.cells.some((c) => ROW in c.params && COLUMN in c.params)) return [];
  const all = histogramSeries(view.cells);
  const primary = primaryHistogram(all, view.scenario.columns.map((c) => c.key));
  const series = all.filter((s) => s.name === primary);
  if (series.length === 0) return [];
  const treatment = (cell: CellResult) => ({
    delay: `moderator delay ${String(cell.params[ROW])} ms`,
    queue: `queue ${String(cell.params[COLUMN])}`,
    pair: pairLabel(cell),
  });
  // Numeric order: "moderator delay 5 ms" before "10 ms".
  const delays = [...new Set(series.map((s) => Number(s.cell.params[ROW])))].sort((a, b) => a - b).map((d) => treatment({ ...series[0]!.cell, params: { ...series[0]!.cell.params, [ROW]: d } }).delay);
  const facet = {
    row: { field: 'delay', type: 'nominal', title: null, sort: delays },
    column: { field: 'queue', type: 'nominal', title: null },
  } as const;
  const curves = series.flatMap((s) => percentileCurve(s.histogram).map((p) => ({ ...p, ...treatment(s.cell) })));
  const maxX = Math.max(...curves.map((v) => v.x));
  const summaries = series.map((s) => ({ ...treatment(s.cell), ...boxStats(s.histogram), dropped: dropped(s.cell) }));
  const x = { field: 'pair', type: 'nominal', title: 'server x client', axis: { labelAngle: -30 } } as const;
  return [
    {
      name: chartName(view.scenario.name, 'treatments'),
      caption: `Latency percentiles (${primary}) in each treatment: moderator delay x queue size.`,
      spec: {
        ...frame(view, `${view.scenario.name}: ${primary} by treatment`, 'Rows: moderator delay; columns: queue size; one line per server x client pair.'),
        data: { values: curves },
        facet,
        spec: {
          width: 280,
          height: 180,
          mark: { type: 'line', strokeWidth: 1.5 },
          encoding: {
            x: percentileX(maxX),
            y: { field: 'valueMs', type: 'quantitative', scale: { type: 'log' }, title: 'latency (ms, log scale)' },
            color: { field: 'pair', type: 'nominal', title: 'server x client' },
          },
        },
      },
    },
    {
      name: chartName(view.scenario.name, 'treatment-means'),
      caption: 'Mean latency (bar), min..max (rule) and p99 (tick) in each treatment; the label above each bar is the drop count.',
      spec: {
        ...frame(view, `${view.scenario.name}: mean latency by treatment (bar; rule min..max, tick p99)`, 'Mean (bar), min..max (rule), p99 (tick) in ms, drop count as label.'),
        data: { values: summaries },
        facet,
        spec: {
          width: { step: 110 },
          height: 180,
          layer: [
            { mark: 'bar', encoding: { x, y: { field: 'meanMs', type: 'quantitative', title: 'latency (ms)' }, color: { field: 'pair', type: 'nominal', legend: null } } },
            { mark: 'rule', encoding: { x, y: { field: 'minMs', type: 'quantitative' }, y2: { field: 'maxMs' } } },
            { mark: { type: 'tick', color: 'black', thickness: 2 }, encoding: { x, y: { field: 'p99Ms', type: 'quantitative' } } },
            { mark: { type: 'text', dy: -8, fontSize: 10 }, encoding: { x, y: { field: 'maxMs', type: 'quantitative' }, text: { field: 'dropped', type: 'nominal' } } },
          ],
        },
      },
    },
  ];
}

/** Drops as the scenario reports them: a `dropped...` metric, else the server stack's own count. */
function dropped(cell: CellResult): string {
  const key = Object.keys(cell.metrics ?? {}).find((k) => /^dropped|Dropped$|drops$/i.test(k));
  const value = key !== undefined ? cell.metrics![key] : cell.serverStackDrops;
  return `dropped ${value ?? 'n/a'}`;
}

/**
 * fanout: how delivery delay and errors grow with the number of clients
 * (cells differ by `connections`), both on log x axes like the seed's
 * 10 / 100 / 1000 client table. Draws nothing without a `connections` sweep.
 */
import type { CellResult } from '../../result-types.js';
import { chartName, frame, pairLabel, type ChartSpec, type ScenarioView } from './common.js';
import { histogramSeries, primaryHistogram, valueMs } from './histograms.js';

const SWEEP = 'connections';
const PERCENTILES = [50, 99, 99.9] as const;
/** Metrics that count something going wrong (fanout's names, and the generic ones), plotted against client count. */
const ERROR_KEYS = ['errors', 'connectFailed', 'dropped', 'connectionsLost', 'missing'];

export function fanoutCharts(view: ScenarioView): ChartSpec[] {
  const swept = view.cells.filter((c) => typeof c.params[SWEEP] === 'number');
  if (new Set(swept.map((c) => c.params[SWEEP])).size < 2) return [];
  const charts: ChartSpec[] = [];
  const all = histogramSeries(swept);
  const primary = primaryHistogram(all, view.scenario.columns.map((c) => c.key));
  const delays = all
    .filter((s) => s.name === primary)
    .flatMap((s) => PERCENTILES.map((p) => ({ pair: pairLabel(s.cell), clients: s.cell.params[SWEEP] as number, percentile: `p${p}`, valueMs: valueMs(s.histogram, p) })));
  const x = { field: 'clients', type: 'quantitative', scale: { type: 'log' }, title: 'clients (connections, log scale)' } as const;
  if (delays.length > 0) {
    charts.push({
      name: chartName(view.scenario.name, 'delay-vs-clients'),
      caption: `Delay percentiles (${primary}) against the number of clients.`,
      spec: {
        ...frame(view, `${view.scenario.name}: ${primary} vs clients`, 'p50, p99 and p99.9 delay in ms against connected clients, both axes log.'),
        data: { values: delays },
        width: 420,
        height: 260,
        // Points in their own layer: on the line mark they would turn the dash legend into dots.
        layer: [
          {
            mark: 'line',
            encoding: {
              x,
              y: { field: 'valueMs', type: 'quantitative', scale: { type: 'log' }, title: 'delay (ms, log scale)' },
              color: { field: 'pair', type: 'nominal', title: 'server x client' },
              strokeDash: { field: 'percentile', type: 'nominal', title: 'percentile', sort: PERCENTILES.map((p) => `p${p}`) },
            },
          },
          { mark: { type: 'point', filled: true, size: 25 }, encoding: { x, y: { field: 'valueMs', type: 'quantitative' }, color: { field: 'pair', type: 'nominal' } } },
        ],
      },
    });
  }
  const errors = swept.flatMap((cell) => errorCounts(cell).map(([kind, count]) => ({ pair: pairLabel(cell), clients: cell.params[SWEEP] as number, kind, count })));
  if (errors.length > 0) {
    charts.push({
      name: chartName(view.scenario.name, 'errors-vs-clients'),
      caption: 'Errors, lost connections and drops against the number of clients (symlog y, so zero stays on the chart).',
      spec: {
        ...frame(view, `${view.scenario.name}: errors vs clients`, 'Error counts per cell against connected clients.'),
        data: { values: errors },
        width: 420,
        height: 220,
        layer: [
          {
            mark: 'line',
            encoding: {
              x,
              y: { field: 'count', type: 'quantitative', scale: { type: 'symlog' }, title: 'count (messages or connections, symlog)' },
              color: { field: 'pair', type: 'nominal', title: 'server x client' },
              strokeDash: { field: 'kind', type: 'nominal', title: 'what went wrong' },
            },
          },
          { mark: { type: 'point', filled: true, size: 25 }, encoding: { x, y: { field: 'count', type: 'quantitative' }, color: { field: 'pair', type: 'nominal' } } },
        ],
      },
    });
  }
  return charts;
}

function errorCounts(cell: CellResult): Array<[string, number]> {
  return ERROR_KEYS.flatMap((key) => {
    const value = cell.metrics?.[key];
    return typeof value === 'number' ? [[key, value] as [string, number]] : [];
  });
}

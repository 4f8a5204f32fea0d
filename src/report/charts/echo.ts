/**
 * echo: the server x client heatmap of round-trip p50 and p99 (the generic
 * percentile curve already draws one line per cell).
 */
import { chartName, frame, round4, variantLabel, type ChartSpec, type ScenarioView } from './common.js';

const STATS = [
  { key: 'rttP50Ms', label: 'p50' },
  { key: 'rttP99Ms', label: 'p99' },
] as const;

export function echoCharts(view: ScenarioView): ChartSpec[] {
  const values = view.cells.flatMap((cell) =>
    STATS.flatMap(({ key, label }) => {
      const value = cell.metrics?.[key];
      if (typeof value !== 'number' || value <= 0) return [];
      return [{ server: cell.server, client: cell.client, variant: variantLabel(cell, view.sweptParams), stat: `round trip ${label} (ms)`, valueMs: round4(value) }];
    }),
  );
  if (values.length === 0) return [];
  const servers = [...new Set(view.cells.map((c) => c.server))];
  const clients = [...new Set(view.cells.map((c) => c.client))];
  const swept = view.sweptParams.length > 0;
  const x = { field: 'client', type: 'nominal', title: 'client stack', sort: clients, axis: { labelAngle: 0 } } as const;
  const y = { field: 'server', type: 'nominal', title: 'server stack', sort: servers } as const;
  return [{
    name: chartName(view.scenario.name, 'heatmap'),
    caption: 'Round-trip p50 and p99 for every server x client pair; empty squares are pairs that did not run (different protocols, or skipped).',
    spec: {
      ...frame(view, `${view.scenario.name}: round-trip latency, server x client`, 'Heatmap of round-trip p50 and p99 in ms per server x client pair; darker is slower.'),
      data: { values },
      facet: {
        column: { field: 'stat', type: 'nominal', title: null },
        ...(swept ? { row: { field: 'variant', type: 'nominal', title: null } } : {}),
      },
      spec: {
        width: { step: 70 },
        height: { step: 36 },
        layer: [
          {
            mark: 'rect',
            encoding: {
              x,
              y,
              color: { field: 'valueMs', type: 'quantitative', scale: { type: 'log', scheme: 'orangered' }, title: 'latency (ms)' },
            },
          },
          {
            mark: { type: 'text', fontSize: 11 },
            encoding: {
              x,
              y,
              text: { field: 'valueMs', type: 'quantitative', format: '.3~r' },
              color: { value: 'black' },
            },
          },
        ],
      },
      resolve: { scale: { color: 'independent' } },
    },
  }];
}

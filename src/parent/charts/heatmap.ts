/**
 * `heatmap`: server x client squares coloured by each requested metric, one
 * panel per metric (each legend titled with the metric's header and unit),
 * one row per variant when the scenario swept parameters. Empty squares are
 * pairs that did not run or measured nothing. Squares tied within the noise
 * share a colour, and the best with those tied with it are outlined
 * (heatmap-ties.ts); each square's text is its own value.
 */
import { shadeByTies } from './heatmap-ties.js';
import {
  declaredMetrics,
  firstSeen,
  frame,
  metricTitle,
  metricValue,
  round4,
  titleOf,
  variantLabel,
  type DrawnChart,
  type ScenarioView,
} from './common.js';

export function heatmapChart(view: ScenarioView, request: { metrics: string[]; title?: string }): DrawnChart[] {
  const metrics = declaredMetrics(view, request.metrics);
  const squares = view.cells.flatMap((cell) =>
    metrics.flatMap((metric) => {
      const value = metricValue(cell, metric.key);
      if (value === null) return [];
      return [
        {
          server: cell.server,
          client: cell.client,
          variant: variantLabel(view, cell) || 'all',
          metric: metric.key,
          value: round4(value),
          cell,
        },
      ];
    }),
  );
  const values = shadeByTies(
    squares,
    (square) => square.cell,
    (key) => metrics.find((m) => m.key === key)?.better ?? 'none',
  ).map(({ cell: _cell, ...square }) => ({ ...square, shade: round4(square.shade) }));
  if (values.length === 0) return [];
  const drawn = metrics.filter((m) => values.some((v) => v.metric === m.key));
  const x = {
    field: 'client',
    type: 'nominal',
    title: 'client stack',
    sort: firstSeen(values, (v) => v.client),
    axis: { labelAngle: 0 },
  } as const;
  const y = {
    field: 'server',
    type: 'nominal',
    title: 'server stack',
    sort: firstSeen(values, (v) => v.server),
  } as const;
  const variants = firstSeen(values, (v) => v.variant);
  const swept = view.sweptParams.length > 0;
  const panels = drawn.map((metric) => {
    const own = values.filter((v) => v.metric === metric.key);
    // Log colour only when every value is positive: a zero (no errors) must stay drawable.
    const log = own.every((v) => v.value > 0);
    const layer = [
      {
        mark: 'rect' as const,
        encoding: {
          x,
          y,
          color: {
            field: 'shade',
            type: 'quantitative' as const,
            scale: {
              type: log ? ('log' as const) : ('linear' as const),
              scheme: metric.better === 'higher' ? 'greens' : 'orangered',
            },
            title: metricTitle(metric),
          },
        },
      },
      {
        mark: { type: 'text' as const, fontSize: 11 },
        encoding: {
          x,
          y,
          text: { field: 'value', type: 'quantitative' as const, format: '.3~r' },
          color: { value: 'black' },
        },
      },
      ...tieOutline(x, y),
    ];
    const filter = [{ filter: { field: 'metric', equal: metric.key } }];
    const size = { width: { step: 70 }, height: { step: 36 } };
    return swept
      ? {
          transform: filter,
          facet: { row: { field: 'variant', type: 'nominal' as const, title: null, sort: variants } },
          spec: { ...size, layer },
        }
      : { transform: filter, ...size, layer };
  });
  return [
    {
      caption:
        `${drawn.map((m) => metricTitle(m)).join(', ')} for every server x client pair${swept ? ', one row per variant' : ''}; empty squares are pairs that did not run or measured nothing. ` +
        'Squares whose difference is within the noise (the 95 % interval of their ratio holds 1) share a colour; the best square and those tied with it are outlined.',
      spec: {
        ...frame(
          view,
          titleOf(request.title, `${drawn.map((m) => m.header).join(', ')}, server x client`),
          `Heatmap of ${drawn.map((m) => m.header).join(', ')} per server x client pair.`,
        ),
        data: { values },
        hconcat: panels,
        resolve: { scale: { color: 'independent' } },
      },
    },
  ];
}

/** The outline around the best square and those tied with it. */
function tieOutline<X, Y>(x: X, y: Y) {
  return [
    {
      transform: [{ filter: { field: 'best', equal: true } }],
      mark: { type: 'rect' as const, fill: null, stroke: '#222', strokeWidth: 2 },
      encoding: { x, y },
    },
  ];
}

/**
 * `by-parameter`: values against one parameter. Metrics are lines over a log x
 * axis when the parameter is a number with at least two values (one panel per
 * unit; metrics whose role is `errors` on a symlog y so zero stays visible),
 * grouped bars otherwise. Histograms are box plots, see parameter-boxes.ts.
 */
import {
  cellLabel,
  declaredMetrics,
  firstSeen,
  frame,
  metricLabel,
  metricTitle,
  metricValue,
  parameterTitle,
  parameterValueText,
  parameterValues,
  round4,
  titleOf,
  type DeclaredMetric,
  type DrawnChart,
  type ScenarioView,
} from './common.js';
import { parametersText } from '../parameter-labels.js';
import { parameterBoxCharts } from './parameter-boxes.js';
import { INTERVAL_CAPTION, intervalFields, intervalRules } from './interval-marks.js';
import { seriesStyle, styleNote, type SeriesFields } from './series-style.js';

interface ByParameterRequest {
  parameter: string;
  metrics?: string[];
  histograms?: string[];
  title?: string;
}

interface Row extends SeriesFields {
  pair: string;
  metric: string;
  header: string;
  at: number | string;
  value: number;
  /** The value's 95 % interval, where the cell has one. */
  low?: number;
  high?: number;
}

export function byParameterCharts(view: ScenarioView, request: ByParameterRequest): DrawnChart[] {
  const cells = view.cells.filter((c) => request.parameter in c.params);
  const metrics = metricCharts(view, request, cells);
  return [...(metrics ? [metrics] : []), ...parameterBoxCharts(view, request, cells)];
}

function metricCharts(
  view: ScenarioView,
  request: ByParameterRequest,
  cells: ScenarioView['cells'],
): DrawnChart | null {
  const { parameter } = request;
  const others = view.sweptParams.filter((p) => p !== parameter);
  const values = parameterValues(cells, parameter);
  const numeric = values.length >= 2 && values.every((v) => typeof v === 'number');
  const metrics = declaredMetrics(view, request.metrics);
  const names = legendNames(metrics);
  const rows: Row[] = cells.flatMap((cell) =>
    metrics.flatMap((metric) => {
      const value = metricValue(cell, metric.key);
      const at = cell.params[parameter]!;
      if (value === null) return [];
      const variant = parametersText(cell.params, others, view.scenario.parameters);
      const pair = cellLabel(view, cell, others);
      return [
        {
          pair,
          cell: pair,
          server: cell.server,
          client: cell.client,
          variant,
          metric: metric.key,
          header: names.get(metric.key)!,
          at: numeric ? (at as number) : parameterValueText(view, parameter, at),
          value: round4(value),
          ...intervalFields(cell, metric.key, round4),
        },
      ];
    }),
  );
  if (rows.length === 0) return null;
  const drawn = metrics.filter((m) => rows.some((r) => r.metric === m.key));
  const pairs = firstSeen(rows, (r) => r.pair);
  const headline = drawn.map(metricLabel).join(', ');
  const what = `${headline} by ${parameter}`;
  const whiskers = rows.some((r) => r.low !== undefined) ? ` ${INTERVAL_CAPTION}` : '';
  if (numeric) {
    return {
      caption: `${what}, one line per server x client pair${drawn.some((m) => m.role === 'errors') ? '; counts of what went wrong on a symlog scale, so zero stays on the chart' : ''}. ${lineNote(rows)}${whiskers}`,
      spec: {
        ...frame(view, titleOf(request.title, what), `Each metric against ${parameter}, one panel per unit.`),
        data: { values: rows },
        columns: 2,
        concat: panelsByUnit(drawn).map((panel) =>
          linePanel(
            view,
            parameter,
            panel,
            rows,
            pairs,
            drawn.map((m) => names.get(m.key)!),
          ),
        ),
      },
    };
  }
  return {
    caption: `${what}, one bar per server x client pair.${whiskers}`,
    spec: {
      ...frame(view, titleOf(request.title, what), `Each metric for each value of ${parameter}, one panel per metric.`),
      data: { values: rows },
      columns: 2,
      concat: drawn.map((metric) => {
        // Words on this axis print as the table prints them ("1kB"): the unit is in each label, not the title.
        const x = {
          field: 'at',
          type: 'nominal' as const,
          title: parameter,
          sort: values.map((v) => parameterValueText(view, parameter, v)),
          axis: { labelAngle: 0 },
        };
        const xOffset = { field: 'pair', type: 'nominal' as const, sort: pairs };
        return {
          width: { step: 24 * pairs.length + 16 },
          height: 200,
          transform: [{ filter: { field: 'metric', equal: metric.key } }],
          layer: [
            {
              mark: 'bar' as const,
              encoding: {
                x,
                xOffset,
                y: { field: 'value', type: 'quantitative' as const, title: metricTitle(metric) },
                color: { field: 'pair', type: 'nominal' as const, title: 'server x client', sort: pairs },
              },
            },
            ...intervalRules({ x, xOffset }),
          ],
        };
      }),
    },
  };
}

/** Each metric's name in the legend: its header, or header and key when two headers are alike. */
function legendNames(metrics: DeclaredMetric[]): Map<string, string> {
  const alike = (m: DeclaredMetric) => metrics.filter((other) => other.header === m.header).length > 1;
  return new Map(metrics.map((m) => [m.key, alike(m) ? `${m.header} [${m.key}]` : m.header]));
}

/** Metrics that share a unit share a panel; counts of errors get their own (symlog) panel. */
function panelsByUnit(metrics: DeclaredMetric[]): DeclaredMetric[][] {
  const panels = new Map<string, DeclaredMetric[]>();
  for (const metric of metrics) {
    const key = `${metric.unit}|${metric.role === 'errors'}`;
    panels.set(key, [...(panels.get(key) ?? []), metric]);
  }
  return [...panels.values()];
}

/** How the line panels tell pairs and metrics apart, for the caption. */
function lineNote(rows: Row[]): string {
  const style = seriesStyle(rows);
  return style.by === 'panel'
    ? 'One panel per pair; colour is the metric.'
    : `${styleNote(style)} The point shape is the metric.`;
}

function linePanel(
  view: ScenarioView,
  parameter: string,
  panel: DeclaredMetric[],
  rows: Row[],
  _pairs: string[],
  metricNames: string[],
) {
  const keys = panel.map((m) => m.key);
  const own = rows.filter((r) => keys.includes(r.metric));
  const errors = panel[0]!.role === 'errors';
  const scale: 'symlog' | 'log' | 'linear' = errors ? 'symlog' : own.every((r) => r.value > 0) ? 'log' : 'linear';
  const note = scale === 'linear' ? undefined : `${scale} scale`;
  const yTitle =
    panel.length === 1
      ? metricTitle(panel[0]!, note)
      : `${panel.map(metricLabel).join(', ')} (${[panel[0]!.unit, note].filter(Boolean).join(', ')})`;
  const logX = own.every((r) => (r.at as number) > 0);
  const x = {
    field: 'at',
    type: 'quantitative' as const,
    scale: { type: logX ? ('log' as const) : ('linear' as const) },
    title: parameterTitle(view, parameter, logX ? 'log scale' : undefined),
  };
  const y = { field: 'value', type: 'quantitative' as const, scale: { type: scale }, title: yTitle };
  const transform = [{ filter: { field: 'metric', oneOf: keys } }];
  // Styled over every row, so that a pair looks the same in every panel.
  const style = seriesStyle(rows);
  const metric = { field: 'header', type: 'nominal' as const, title: 'metric', sort: metricNames };
  if (style.by === 'panel') {
    // One pair a panel: colour is free for the metric.
    const layer = [
      { mark: 'line' as const, encoding: { x, y, color: metric } },
      {
        mark: { type: 'point' as const, filled: true, size: 25 },
        encoding: { x, y: { field: 'value', type: 'quantitative' as const }, color: metric },
      },
      ...intervalRules({ x }),
    ];
    return {
      transform,
      facet: { field: 'pair', type: 'nominal' as const, title: null, sort: style.facet!.sort, columns: 4 },
      spec: { width: 200, height: 160, layer },
    };
  }
  // Colour the server, dash the client; each metric is its own line, its points shaped by it.
  const layer = [
    {
      mark: 'line' as const,
      encoding: {
        x,
        y,
        color: style.color,
        strokeDash: style.strokeDash!,
        detail: { field: 'header', type: 'nominal' as const },
      },
    },
    // Points in their own layer: on the line mark they would turn the dash legend into dots.
    {
      mark: { type: 'point' as const, filled: true, size: 30 },
      encoding: { x, y: { field: 'value', type: 'quantitative' as const }, color: style.color, shape: metric },
    },
    ...intervalRules({ x }),
  ];
  if (style.facet)
    return {
      transform,
      facet: { field: 'variant', type: 'nominal' as const, title: null, sort: style.facet.sort, columns: 2 },
      spec: { width: 320, height: 200, layer },
    };
  return { width: 400, height: 240, transform, layer };
}

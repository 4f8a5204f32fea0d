/**
 * `grid`: cells arranged by two parameters (rows x columns), one panel per
 * pair of values. Percentile curves of one histogram per server x client pair,
 * and mean bars with the min..max range (rule) and p99 (tick); a `label`
 * metric's value is written above each bar.
 */
import {
  cellLabel,
  declaredMetrics,
  facetedChart,
  firstSeen,
  frame,
  metricLabel,
  metricValue,
  parameterValueLabel,
  parameterValues,
  titleOf,
  type DrawnChart,
  type ScenarioView,
} from './common.js';
import { parametersText } from '../parameter-labels.js';
import { boxStats, histogramSeries, percentileCurve, percentileX } from './histograms.js';
import { seriesStyle } from './series-style.js';

interface GridRequest {
  rows: string;
  columns: string;
  histogram: string;
  label?: string;
  title?: string;
}

export function gridCharts(view: ScenarioView, request: GridRequest): DrawnChart[] {
  const { rows, columns } = request;
  const cells = view.cells.filter((c) => rows in c.params && columns in c.params);
  const series = histogramSeries(cells, [request.histogram]);
  if (series.length === 0) return [];
  const unit = series[0]!.unit;
  // Parameters swept besides the two the grid is made of still tell lines apart.
  const others = view.sweptParams.filter((p) => p !== rows && p !== columns);
  const place = (s: (typeof series)[number]) => ({
    row: parameterValueLabel(view, rows, s.cell.params[rows]),
    column: parameterValueLabel(view, columns, s.cell.params[columns]),
    pair: cellLabel(view, s.cell, others),
    cell: cellLabel(view, s.cell, others),
    server: s.cell.server,
    client: s.cell.client,
    variant: parametersText(s.cell.params, others, view.scenario.parameters),
  });
  const facet = {
    row: {
      field: 'row',
      type: 'nominal',
      title: null,
      sort: parameterValues(cells, rows).map((v) => parameterValueLabel(view, rows, v)),
    },
    column: {
      field: 'column',
      type: 'nominal',
      title: null,
      sort: parameterValues(cells, columns).map((v) => parameterValueLabel(view, columns, v)),
    },
  } as const;
  const curves = series.flatMap((s) => percentileCurve(s).map((p) => ({ ...p, ...place(s) })));
  const pairs = firstSeen(curves, (v) => v.pair);
  // Colour the server and dash the client when that tells every line of a panel apart; else a colour per pair.
  const style = seriesStyle(curves);
  const lines =
    style.by === 'server and client' && !style.facet
      ? { color: style.color, strokeDash: style.strokeDash! }
      : { color: { field: 'pair', type: 'nominal' as const, title: 'server x client', sort: pairs } };
  const label = declaredMetrics(view, request.label === undefined ? [] : [request.label])[0];
  const summaries = series.map((s) => {
    const value = label ? metricValue(s.cell, label.key) : null;
    return {
      ...place(s),
      ...boxStats(s),
      label: label ? `${metricLabel(label)} ${value === null ? 'n/a' : String(value)}` : '',
    };
  });
  const x = {
    field: 'pair',
    type: 'nominal',
    title: 'server x client',
    sort: pairs,
    axis: { labelAngle: -30 },
  } as const;
  const where = `rows: ${rows}; columns: ${columns}`;
  return [
    facetedChart(
      `Percentiles of ${request.histogram} in each ${rows} x ${columns} combination, one line per server x client pair.`,
      frame(
        view,
        titleOf(request.title, `${request.histogram} by ${rows} x ${columns}`, 'percentiles'),
        `${where}; one line per server x client pair.`,
      ),
      curves,
      facet,
      {
        width: 280,
        height: 180,
        mark: { type: 'line', strokeWidth: 1.5 },
        encoding: {
          x: percentileX(Math.max(...curves.map((v) => v.x))),
          y: {
            field: 'value',
            type: 'quantitative',
            scale: { type: 'log' },
            title: `${request.histogram} (${unit}, log scale)`,
          },
          ...lines,
        },
      },
    ),
    facetedChart(
      `Mean ${request.histogram} (bar), min..max (rule) and p99 (tick) in each ${rows} x ${columns} combination` +
        (label ? `; the label above each bar is ${label.header} (${label.unit}).` : '.'),
      frame(
        view,
        titleOf(request.title, `mean ${request.histogram} by ${rows} x ${columns}`, 'means'),
        `${where}; mean (bar), min..max (rule), p99 (tick).`,
      ),
      summaries,
      facet,
      {
        width: { step: 110 },
        height: 180,
        layer: [
          {
            mark: 'bar',
            encoding: {
              x,
              y: { field: 'mean', type: 'quantitative', title: `${request.histogram} (${unit})` },
              color: { field: 'pair', type: 'nominal', legend: null },
            },
          },
          { mark: 'rule', encoding: { x, y: { field: 'min', type: 'quantitative' }, y2: { field: 'max' } } },
          {
            mark: { type: 'tick', color: 'black', thickness: 2 },
            encoding: { x, y: { field: 'p99', type: 'quantitative' } },
          },
          ...(label
            ? [
                {
                  mark: { type: 'text' as const, dy: -8, fontSize: 10 },
                  encoding: {
                    x,
                    y: { field: 'max', type: 'quantitative' as const },
                    text: { field: 'label', type: 'nominal' as const },
                  },
                },
              ]
            : []),
        ],
      },
    ),
  ];
}

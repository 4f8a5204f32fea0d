/**
 * The histogram half of `by-parameter`: one panel per value of the parameter,
 * a box plot per histogram (box p25..p75, median tick, whiskers p1..p99: a
 * histogram keeps no outliers to draw) and the means as bars with their value.
 * Histograms of different units get charts of their own.
 */
import type { MeasuredCell } from '../../shared/types/result-types.js';
import {
  cellLabel,
  facetedChart,
  firstSeen,
  frame,
  parameterValueLabel,
  parameterValues,
  titleOf,
  type DrawnChart,
  type ScenarioView,
} from './common.js';
import { boxStats, histogramSeries, type DisplayUnit } from './histograms.js';

interface BoxRequest {
  parameter: string;
  histograms?: string[];
  title?: string;
}

export function parameterBoxCharts(view: ScenarioView, request: BoxRequest, cells: MeasuredCell[]): DrawnChart[] {
  const { parameter } = request;
  const others = view.sweptParams.filter((p) => p !== parameter);
  const rows = histogramSeries(cells, request.histograms ?? []).map((s) => ({
    panel: parameterValueLabel(view, parameter, s.cell.params[parameter]),
    pair: cellLabel(view, s.cell, others),
    histogram: s.label,
    unit: s.unit,
    ...boxStats(s),
  }));
  const units = [...new Set(rows.map((r) => r.unit))];
  return units.flatMap((unit) =>
    unitCharts(
      view,
      request,
      rows.filter((r) => r.unit === unit),
      unit,
      cells,
    ),
  );
}

type BoxRow = { panel: string; pair: string; histogram: string; unit: DisplayUnit } & ReturnType<typeof boxStats>;

function unitCharts(
  view: ScenarioView,
  request: BoxRequest,
  rows: BoxRow[],
  unit: DisplayUnit,
  cells: MeasuredCell[],
): DrawnChart[] {
  const { parameter } = request;
  const histograms = firstSeen(rows, (r) => r.histogram);
  const pairs = firstSeen(rows, (r) => r.pair);
  const facet = {
    column: {
      field: 'panel',
      type: 'nominal',
      title: null,
      sort: parameterValues(cells, parameter).map((v) => parameterValueLabel(view, parameter, v)),
    },
    ...(pairs.length > 1 ? { row: { field: 'pair', type: 'nominal' as const, title: null, sort: pairs } } : {}),
  } as const;
  const x = { field: 'histogram', type: 'nominal', title: null, sort: histograms, axis: { labelAngle: 0 } } as const;
  const color = { field: 'histogram', type: 'nominal', title: 'histogram', sort: histograms } as const;
  const named = histograms.join(', ');
  // Both charts draw the same panels: one per value of the parameter, one column per histogram.
  const panel = { width: { step: 90 }, height: 240 } as const;
  const box = facetedChart(
    `Distribution of ${named} for each value of ${parameter}: box p25..p75, line at the median, whiskers p1..p99 (a histogram keeps no outliers to draw).`,
    frame(
      view,
      titleOf(request.title, `${named} by ${parameter}`, 'distribution'),
      `Box plots from the HDR histograms in ${unit}, log scale.`,
    ),
    rows,
    facet,
    {
      ...panel,
      layer: [
        {
          mark: 'rule',
          encoding: {
            x,
            y: { field: 'p1', type: 'quantitative', scale: { type: 'log' }, title: `${named} (${unit}, log scale)` },
            y2: { field: 'p99' },
          },
        },
        {
          mark: { type: 'bar', size: 34 },
          encoding: { x, y: { field: 'p25', type: 'quantitative' }, y2: { field: 'p75' }, color },
        },
        {
          mark: { type: 'tick', color: 'black', size: 34, thickness: 2 },
          encoding: { x, y: { field: 'p50', type: 'quantitative' } },
        },
      ],
    },
  );
  const means = facetedChart(
    `Mean of ${named} for each value of ${parameter}.`,
    frame(
      view,
      titleOf(request.title, `mean ${named} by ${parameter}`, 'means'),
      `Mean per histogram and value of ${parameter}, in ${unit}.`,
    ),
    rows,
    facet,
    {
      ...panel,
      layer: [
        { mark: 'bar', encoding: { x, y: { field: 'mean', type: 'quantitative', title: `mean (${unit})` }, color } },
        {
          mark: { type: 'text', dy: -6 },
          encoding: {
            x,
            y: { field: 'mean', type: 'quantitative' },
            text: { field: 'mean', type: 'quantitative', format: '.3~r' },
          },
        },
      ],
    },
  );
  return [box, means];
}

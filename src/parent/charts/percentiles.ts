/**
 * `percentiles`: HDR percentile curves, one line per cell, one panel per
 * requested histogram (each panel titles its own unit).
 */
import type { HistogramRef } from '../../shared/types/declaration-types.js';
import { frame, titleOf, type DrawnChart, type ScenarioView } from './common.js';
import { histogramSeries, percentileCurve, percentileX, refLabel } from './histograms.js';
import { seriesEncoding, seriesFields, seriesStyle, styleNote } from './series-style.js';

export function percentilesChart(
  view: ScenarioView,
  request: { histograms: HistogramRef[]; title?: string },
): DrawnChart[] {
  const series = histogramSeries(view.cells, request.histograms);
  if (series.length === 0) return [];
  const values = series.flatMap((s) =>
    percentileCurve(s).map((p) => ({ ...p, ...seriesFields(view, s.cell), histogram: s.label })),
  );
  const panels = request.histograms.map(refLabel).filter((label) => series.some((s) => s.label === label));
  const style = seriesStyle(values);
  return [
    {
      caption: `Percentiles per cell (${panels.join(', ')}), from the merged HDR histograms; each step right is one more nine. ${styleNote(style)}`,
      spec: {
        ...frame(
          view,
          titleOf(request.title, `${panels.join(', ')} by percentile`),
          'Value at each percentile, HDR style: the x axis is 1/(1-p) on a log scale.',
        ),
        data: { values },
        columns: 2,
        concat: panels.map((panel) => {
          const own = series.filter((s) => s.label === panel);
          const maxX = Math.max(...values.filter((v) => v.histogram === panel).map((v) => v.x));
          return {
            width: 420,
            height: 240,
            transform: [{ filter: { field: 'histogram', equal: panel } }],
            mark: { type: 'line' as const, strokeWidth: 1.5 },
            encoding: {
              x: percentileX(maxX),
              y: {
                field: 'value',
                type: 'quantitative' as const,
                scale: { type: 'log' as const },
                title: `${panel} (${own[0]!.unit}, log scale)`,
              },
              ...seriesEncoding(style),
            },
          };
        }),
      },
    },
  ];
}

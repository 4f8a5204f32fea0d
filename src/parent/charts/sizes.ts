/**
 * `sizes`: the distribution of a size histogram (values in bytes) by
 * percentile, one step line per cell. A histogram that holds latencies is not
 * a size histogram, so it draws nothing here.
 */
import { frame, titleOf, type DrawnChart, type ScenarioView } from './common.js';
import { histogramSeries, percentileCurve, percentileX } from './histograms.js';
import { seriesEncoding, seriesFields, seriesStyle, styleNote } from './series-style.js';

export function sizesChart(view: ScenarioView, request: { histogram: string; title?: string }): DrawnChart[] {
  const series = histogramSeries(view.cells, [request.histogram]).filter((s) => s.unit === 'bytes');
  if (series.length === 0) return [];
  const values = series.flatMap((s) => percentileCurve(s).map((p) => ({ ...p, ...seriesFields(view, s.cell) })));
  const style = seriesStyle(values);
  return [
    {
      caption: `Distribution of ${request.histogram} by percentile, one line per cell (from the size histogram; its values are bytes). ${styleNote(style)}`,
      spec: {
        ...frame(
          view,
          titleOf(request.title, `${request.histogram} by percentile`),
          'Size in bytes at each percentile; x is 1/(1-p) on a log scale.',
        ),
        data: { values },
        width: 460,
        height: 240,
        mark: { type: 'line', interpolate: 'step-after' },
        encoding: {
          x: percentileX(Math.max(...values.map((v) => v.x))),
          y: {
            field: 'value',
            type: 'quantitative',
            scale: { type: 'log' },
            title: `${request.histogram} (bytes, log scale)`,
          },
          ...seriesEncoding(style),
        },
      },
    },
  ];
}

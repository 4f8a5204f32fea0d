/**
 * `offered-load`: latency against offered load, the curve a team reads to see
 * where a stack bends ("the hockey stick"). One panel each for p50, p99 and
 * p99.9 of a histogram, against the rate the open model offered each cell (log
 * on both axes), one line per server x client pair; a cell that delivered less
 * than it was offered (measure/offered-load.ts) is marked with a cross: from
 * there on, the latency grows with the window rather than with the load.
 */
import type { LatencySummary } from '../../shared/types/result-types.js';
import { belowOffered, DELIVERED_SHARE } from '../measure/offered-load.js';
import { parametersText } from '../parameter-labels.js';
import { cellLabel, frame, titleOf, type DrawnChart, type ScenarioView } from './common.js';
import { seriesStyle, styleNote, type SeriesFields } from './series-style.js';

interface OfferedLoadRequest {
  /** The parameter the run swept to offer each rate (its other swept parameters tell pairs apart). */
  parameter: string;
  /** A client-side latency histogram, timed from each message's due time. */
  histogram: string;
  /** The metric of what was delivered (a rate per second), against which the offered rate is judged. */
  delivered: string;
  title?: string;
}

const PERCENTILES = [
  { key: 'p50Ms', label: 'p50' },
  { key: 'p99Ms', label: 'p99' },
  { key: 'p999Ms', label: 'p99.9' },
] as const;

interface Row extends SeriesFields {
  percentile: string;
  offered: number;
  value: number;
  delivered: number | null;
  /** Set when the cell delivered less than offered: the mark's text. */
  short: string | null;
}

export function offeredLoadChart(view: ScenarioView, request: OfferedLoadRequest): DrawnChart[] {
  const name = request.histogram;
  const label = name;
  const others = view.sweptParams.filter((p) => p !== request.parameter);
  const rows: Row[] = view.cells.flatMap((cell) => {
    const offered = cell.load?.offeredPerSec;
    const latency = cell.measurements.latency[name] as LatencySummary | undefined;
    if (offered === undefined || offered <= 0 || latency === undefined) return [];
    const short = belowOffered(cell, request.delivered);
    const delivered = cell.metrics[request.delivered];
    const pair = cellLabel(view, cell, others);
    return PERCENTILES.map(({ key, label: percentile }) => ({
      cell: pair,
      server: cell.server,
      client: cell.client,
      variant: parametersText(cell.params, others, view.scenario.parameters),
      percentile,
      offered,
      value: Math.max(latency[key], 0.001),
      delivered: typeof delivered === 'number' ? Math.round(delivered) : null,
      short: short ? `delivered ${Math.round(short.deliveredPerSec)}/s of ${offered}/s` : null,
    }));
  });
  // A curve needs two rates at least.
  if (new Set(rows.map((r) => r.offered)).size < 2) return [];
  const style = seriesStyle(rows);
  const shortfall = rows.some((r) => r.short !== null);
  const x = {
    field: 'offered',
    type: 'quantitative' as const,
    scale: { type: 'log' as const },
    title: 'offered msg/s (log)',
  };
  return [
    {
      caption: `${label} at p50, p99 and p99.9 against the rate offered (open model), one line per pair. ${styleNote(style)}${shortfall ? ` A cross marks a cell that delivered less than ${Math.round(DELIVERED_SHARE * 100)} % of what it was offered: past there, messages queue and latency grows with the window.` : ''}`,
      spec: {
        ...frame(
          view,
          titleOf(request.title, `${label} against offered load`),
          "Latency from each message's due time at each offered rate; where a curve bends up, the stack stops keeping up.",
        ),
        data: { values: rows },
        columns: 3,
        concat: PERCENTILES.map(({ label: percentile }) => ({
          width: 300,
          height: 220,
          title: percentile,
          transform: [{ filter: { field: 'percentile', equal: percentile } }],
          layer: [
            {
              mark: { type: 'line' as const, point: true, strokeWidth: 1.5 },
              encoding: {
                x,
                y: {
                  field: 'value',
                  type: 'quantitative' as const,
                  scale: { type: 'log' as const },
                  title: `${label} ${percentile} (ms, log)`,
                },
                color: style.color,
                ...(style.strokeDash ? { strokeDash: style.strokeDash } : {}),
                // One line per cell, whatever tells the cells apart.
                detail: { field: 'cell', type: 'nominal' as const },
                tooltip: [
                  { field: 'cell', type: 'nominal' as const },
                  { field: 'offered', type: 'quantitative' as const },
                  { field: 'delivered', type: 'quantitative' as const },
                  { field: 'value', type: 'quantitative' as const, title: 'ms' },
                ],
              },
            },
            {
              transform: [{ filter: 'datum.short !== null' }],
              mark: { type: 'point' as const, shape: 'cross', size: 120, color: '#d62728', filled: true },
              encoding: {
                x,
                y: { field: 'value', type: 'quantitative' as const, scale: { type: 'log' as const } },
                tooltip: [
                  { field: 'cell', type: 'nominal' as const },
                  { field: 'short', type: 'nominal' as const, title: 'below offered' },
                ],
              },
            },
          ],
        })),
      },
    },
  ];
}

/**
 * Charts over the measurement window, from each cell's time series (one point
 * per second): latency of the scenario's main histogram, interval by interval
 * (the seed 001 plots), and the receive rate (the seed 003 RX rate). Result
 * files without a time series get neither.
 */
import type { CellResult } from '../../result-types.js';
import { cellLabel, chartName, frame, round4, type ChartSpec, type ScenarioView } from './common.js';

/** Counters drawn as rates, with the unit each is shown in. */
const RATE_COUNTERS = [
  { counter: 'received', label: 'messages received', unit: 'msg/s', scale: 1 },
  { counter: 'rxBytes', label: 'bytes received', unit: 'MB/s', scale: 1e-6 },
] as const;

export function overTimeCharts(view: ScenarioView): ChartSpec[] {
  const cells = view.cells.filter((c) => (c.measurements?.timeSeries?.points.length ?? 0) > 0);
  if (cells.length === 0) return [];
  return [latencyOverTime(view, cells), rateOverTime(view, cells)].filter((c): c is ChartSpec => c !== null);
}

/** The histogram of the first `<name>P50Ms` column, else the first one the series holds. */
function mainHistogram(view: ScenarioView, cells: CellResult[]): string | null {
  const names = new Set(cells.flatMap((c) => c.measurements!.timeSeries!.points.flatMap((p) => Object.keys(p.latency))));
  for (const { key } of view.scenario.columns) {
    const match = /^(.+)P50Ms$/.exec(key);
    if (match && names.has(match[1]!)) return match[1]!;
  }
  return [...names][0] ?? null;
}

function latencyOverTime(view: ScenarioView, cells: CellResult[]): ChartSpec | null {
  const name = mainHistogram(view, cells);
  if (!name) return null;
  const values = cells.flatMap((cell) =>
    cell.measurements!.timeSeries!.points.flatMap((point) => {
      const latency = point.latency[name];
      if (!latency || latency.count === 0) return [];
      const base = { cell: cellLabel(cell, view.sweptParams), tS: point.tMs / 1000 };
      return [
        { ...base, statistic: 'p50', valueMs: Math.max(0.001, latency.p50Ms) },
        { ...base, statistic: 'p99', valueMs: Math.max(0.001, latency.p99Ms) },
        { ...base, statistic: 'max', valueMs: Math.max(0.001, latency.maxMs) },
      ];
    }),
  );
  if (values.length === 0) return null;
  return {
    name: chartName(view.scenario.name, 'latency-over-time'),
    caption: `${name} latency second by second: p50, p99 and max of the samples recorded in each interval, one panel per cell.`,
    spec: {
      ...frame(view, `${view.scenario.name}: ${name} latency over time`, 'Per-interval latency percentiles, one panel per cell.'),
      data: { values },
      columns: 2,
      facet: { field: 'cell', type: 'nominal', title: null },
      spec: {
        width: 300,
        height: 180,
        mark: { type: 'line', strokeWidth: 1.3, point: { size: 12 } },
        encoding: {
          x: { field: 'tS', type: 'quantitative', title: 'time in window (s)' },
          y: { field: 'valueMs', type: 'quantitative', scale: { type: 'log' }, title: `${name} (ms, log scale)` },
          color: { field: 'statistic', type: 'nominal', title: 'statistic', sort: ['p50', 'p99', 'max'] },
        },
      },
    },
  };
}

function rateOverTime(view: ScenarioView, cells: CellResult[]): ChartSpec | null {
  const values = cells.flatMap((cell) => {
    const { intervalMs, points } = cell.measurements!.timeSeries!;
    return RATE_COUNTERS.flatMap(({ counter, label, unit, scale }) =>
      points.flatMap((point, i) => {
        const now = point.counters[counter];
        if (now === undefined) return [];
        const before = i === 0 ? 0 : points[i - 1]!.counters[counter] ?? 0;
        return [{ cell: cellLabel(cell, view.sweptParams), tS: point.tMs / 1000, rate: `${label} (${unit})`, value: round4(((now - before) * scale * 1000) / intervalMs) }];
      }),
    );
  });
  if (values.length === 0) return null;
  const rates = [...new Set(values.map((v) => v.rate))];
  return {
    name: chartName(view.scenario.name, 'rate-over-time'),
    caption: `Receive rate second by second (${rates.join(', ')}), summed over client processes.`,
    spec: {
      ...frame(view, `${view.scenario.name}: receive rate over time`, 'Per-interval receive rates, one panel per rate.'),
      data: { values },
      columns: 1,
      concat: rates.map((rate) => ({
        width: 520,
        height: 180,
        transform: [{ filter: { field: 'rate', equal: rate } }],
        mark: { type: 'line' as const, strokeWidth: 1.3 },
        encoding: {
          x: { field: 'tS', type: 'quantitative' as const, title: 'time in window (s)' },
          y: { field: 'value', type: 'quantitative' as const, title: rate },
          color: { field: 'cell', type: 'nominal' as const, title: 'cell' },
        },
      })),
    },
  };
}

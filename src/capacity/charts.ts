/**
 * Charts of a capacity result: the capacity of each server stack as bars, and
 * the latency of every step against the count with the SLO's bound drawn in.
 * Pure functions of the capacity JSON returning Vega-Lite specs; the steps'
 * own result file gets the scenario's charts as usual (`wsbench report`).
 */
import type { TopLevelSpec } from 'vega-lite';
import { CHART_CONFIG, VEGA_LITE_SCHEMA, type ChartSpec } from '../report/charts/common.js';
import type { CapacityResult } from './types.js';

export function capacityCharts(result: CapacityResult): ChartSpec[] {
  const charts: ChartSpec[] = [];
  const bars = barsChart(result);
  if (bars) charts.push(bars);
  const curve = curveChart(result);
  if (curve) charts.push(curve);
  return charts;
}

function barsChart(result: CapacityResult): ChartSpec | null {
  const rows = result.servers
    .filter((s) => s.status === 'measured')
    .map((s) => ({ pair: `${s.server} x ${s.client}`, capacity: s.capacity, label: s.end === 'max' ? `>= ${s.capacity}` : s.cannotTell ? `${s.capacity}?` : String(s.capacity) }));
  if (rows.length === 0) return null;
  const vary = result.settings.vary;
  const x = { field: 'pair', type: 'nominal' as const, title: 'server x client', sort: rows.map((r) => r.pair), axis: { labelAngle: 0 } };
  const y = { field: 'capacity', type: 'quantitative' as const, title: `${vary} within the SLO` };
  return {
    name: `capacity-${result.scenario.name}-servers`,
    caption: `The most ${vary} each server stack held within ${result.slo.text}; ">=" where the search reached its maximum, "?" where the load generator saturated first.`,
    spec: {
      ...frame(result, `capacity within ${result.slo.text}`, `The largest ${vary} within the SLO, per server stack.`),
      data: { values: rows },
      // Wide enough that the longest 'server x client' label stays under its own bar.
      width: { step: Math.max(80, 8 * Math.max(...rows.map((r) => r.pair.length)) + 16) },
      height: 240,
      layer: [
        { mark: 'bar', encoding: { x, y, color: { field: 'pair', type: 'nominal', legend: null } } },
        { mark: { type: 'text', dy: -6 }, encoding: { x, y, text: { field: 'label', type: 'nominal' } } },
      ],
    } as TopLevelSpec,
  };
}

function curveChart(result: CapacityResult): ChartSpec | null {
  const key = result.latencyMetric;
  if (key === null) return null;
  const info = result.scenario.metrics[key];
  const rows = result.servers.flatMap((s) =>
    s.steps.flatMap((step) => (step.latencyMs === null ? [] : [{ pair: `${s.server} x ${s.client}`, count: step.count, latency: step.latencyMs, outcome: step.outcome }])),
  );
  if (rows.length === 0) return null;
  const vary = result.settings.vary;
  const bound = result.slo.clauses.find((c) => c.kind === 'latency' && c.metrics.length === 1 && c.metrics[0] === key);
  const logY = rows.every((r) => r.latency > 0) && (bound === undefined || bound.limit > 0);
  const x = { field: 'count', type: 'quantitative' as const, scale: { type: 'log' as const }, title: `${vary} (log scale)` };
  const y = { field: 'latency', type: 'quantitative' as const, scale: { type: logY ? ('log' as const) : ('linear' as const) }, title: `${info?.header ?? key} (${info?.unit ?? 'ms'}${logY ? ', log scale' : ''})` };
  const color = { field: 'pair', type: 'nominal' as const, title: 'server x client' };
  const layers: unknown[] = [
    // The line joins the steps that count, in count order; invalid ones are points only.
    { transform: [{ filter: "datum.outcome !== 'invalid'" }], mark: 'line', encoding: { x, y, color, order: { field: 'count', type: 'quantitative' } } },
    { mark: { type: 'point', filled: true, size: 50 }, encoding: { x, y, color, shape: { field: 'outcome', type: 'nominal', title: 'step' } } },
  ];
  if (bound) {
    layers.push({
      data: { values: [{ limit: bound.limit, text: `SLO ${bound.text}` }] },
      layer: [
        { mark: { type: 'rule', strokeDash: [4, 4], color: '#c00' }, encoding: { y: { field: 'limit', type: 'quantitative' } } },
        { mark: { type: 'text', align: 'left', dx: 4, dy: -6, color: '#c00' }, encoding: { y: { field: 'limit', type: 'quantitative' }, x: { value: 0 }, text: { field: 'text' } } },
      ],
    });
  }
  return {
    name: `capacity-${result.scenario.name}-latency`,
    caption: `${info?.header ?? key} of every step against ${vary}, one line per server stack; the dashed line is the SLO's bound.`,
    spec: {
      ...frame(result, `${info?.header ?? key} by ${vary}`, `Latency of each capacity step against ${vary}.`),
      data: { values: rows },
      width: 440,
      height: 260,
      layer: layers,
    } as TopLevelSpec,
  };
}

function frame(result: CapacityResult, title: string, description: string) {
  const env = result.environment;
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: {
      text: `${result.scenario.name}: ${title}`,
      subtitle: [
        `${env.cpuModel}, ${env.cpuCores} cores, Node ${env.node}, ${env.osName ?? `${env.platform} ${env.osRelease}`}`,
        `wsbench ${result.tool.version}, ${result.startedAt.slice(0, 16).replace('T', ' ')} UTC`,
      ],
    },
    description,
    config: CHART_CONFIG,
  };
}

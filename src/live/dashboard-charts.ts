/**
 * The dashboard's charts of one cell run as it goes: the report's own builders
 * (over-time, percentiles) drawn from what the cell measured so far, given as a
 * cell of a result the way the report would see it, plus the processes' CPU and
 * memory over time, which the report has no chart for.
 */
import type { ChartRequest, HistogramRef } from '../declaration-types.js';
import type { EncodedHistogram, MeasuredCell, ScenarioInfo, TimeSeries } from '../result-types.js';
import { drawRequest } from '../report/charts/index.js';
import { CHART_CONFIG, VEGA_LITE_SCHEMA, round4, type DrawnChart, type ScenarioView } from '../report/charts/common.js';
import { liveRates } from '../report/progress.js';
import { encodeHistogram } from '../measure/metrics.js';
import { vegaSafeSpec } from '../escape/vega.js';
import type { LiveCellRun } from './state.js';

const MIB = 1024 * 1024;

/** The scenario's over-time and percentiles requests (client histograms only: the server reports at the end); a default over-time one when it asks for none. */
export function liveChartRequests(scenario: ScenarioInfo): ChartRequest[] {
  const clientSide = (ref: HistogramRef): boolean => typeof ref === 'string' || ref.side === 'client';
  const requests = scenario.charts.flatMap((request): ChartRequest[] => {
    if (request.kind === 'over-time') return [request];
    if (request.kind !== 'percentiles') return [];
    const histograms = request.histograms.filter(clientSide);
    return histograms.length > 0 ? [{ ...request, histograms }] : [];
  });
  if (requests.some((r) => r.kind === 'over-time')) return requests;
  const latency = Object.values(scenario.metrics).find((m) => m.role === 'primary-latency' && 'histogram' in m.source && (m.source.side ?? 'client') === 'client');
  const histogram = latency && 'histogram' in latency.source ? latency.source.histogram : undefined;
  const rates = liveRates(scenario).map((r) => r.key);
  if (histogram === undefined && rates.length === 0) return requests;
  return [{ kind: 'over-time', ...(histogram !== undefined ? { histogram } : {}), rates }, ...requests];
}

/** Every chart of the cell run (`timeSeries`: its series as it stands), named by kind; none before it has measured anything. */
export function liveCharts(scenario: ScenarioInfo, cell: LiveCellRun, label: string, timeSeries: TimeSeries | undefined): Array<DrawnChart & { name: string }> {
  const view: ScenarioView = { scenario, cells: [asMeasuredCell(scenario, cell, timeSeries)], sweptParams: [], subtitle: [`live: ${label}, the window so far`] };
  const drawn = liveChartRequests(scenario).flatMap((request, r) => drawRequest(view, request).map((chart, i) => ({ name: `${request.kind}-${r}-${i}`, ...chart })));
  const resources = resourcesOverTime(scenario, cell, label);
  return resources ? [...drawn, { name: 'processes', ...resources, spec: vegaSafeSpec(resources.spec) }] : drawn;
}

/**
 * The cell as the report's builders read a result's cell. They read its
 * identity, histograms, counters and time series; the status and metrics they
 * do not read are placeholders until the engine computes them at the cell's end.
 */
function asMeasuredCell(scenario: ScenarioInfo, cell: LiveCellRun, timeSeries: TimeSeries | undefined): MeasuredCell {
  const histograms: Record<string, EncodedHistogram> = {};
  for (const [name, histogram] of cell.series?.window ?? []) if (histogram.totalCount > 0) histograms[name] = encodeHistogram(histogram);
  return {
    scenario: scenario.name,
    server: cell.server,
    client: cell.client,
    params: cell.params,
    elapsedMs: 0,
    status: 'ok',
    metrics: {},
    missing: {},
    measurements: {
      histograms,
      latency: {},
      sizes: {},
      counters: cell.counters,
      serverHistograms: {},
      serverLatency: {},
      serverCounters: {},
      windowMs: cell.windowElapsedMs,
      ...(timeSeries ? { timeSeries } : {}),
    },
    resources: { server: null, clients: [] },
    stackDrops: null,
    notes: [],
  };
}

/** CPU and resident memory of each process of the cell, about once a second. */
function resourcesOverTime(scenario: ScenarioInfo, cell: LiveCellRun, label: string): DrawnChart | null {
  const values = [...cell.resourceHistory].flatMap(([key, history]) => {
    const process = processLabel(key);
    return history.map((r) => ({ process, tS: round4(r.tMs / 1000), cpuPercent: round4(r.cpuPercent), rssMiB: round4(r.rssBytes / MIB) }));
  });
  if (values.length === 0) return null;
  const panel = (field: string, title: string) => ({
    width: 330,
    height: 160,
    mark: { type: 'line' as const, strokeWidth: 1.3 },
    encoding: {
      x: { field: 'tS', type: 'quantitative' as const, title: 'time in window (s)' },
      y: { field, type: 'quantitative' as const, title },
      color: { field: 'process', type: 'nominal' as const, title: 'process' },
    },
  });
  return {
    caption: 'CPU and resident memory of every process of the cell, read from /proc by wsbench about once a second.',
    spec: {
      $schema: VEGA_LITE_SCHEMA,
      title: { text: `${scenario.name}: processes`, subtitle: [`live: ${label}`] },
      description: 'CPU in percent of one core and RSS in MiB over the window, one line per process.',
      config: CHART_CONFIG,
      data: { values },
      hconcat: [panel('cpuPercent', 'CPU (% of one core)'), panel('rssMiB', 'RSS (MiB)')],
    },
  };
}

/** "server", "client 1": `role:process` as people count processes. */
export function processLabel(key: string): string {
  const [role, index] = key.split(':');
  return role === 'server' ? 'server' : `client ${Number(index) + 1}`;
}

/**
 * The dashboard's charts as a run goes: the report's own builders (over-time,
 * percentiles) drawn from what the running cell measured so far and what the
 * last cells that ended measured (their curves stay, on the same axes, so the
 * next cell reads against them), each given as a cell of a result the way the
 * report would see it; plus the running cell's processes' CPU and memory over
 * time, which the report has no chart for.
 */
import type { ChartRequest, HistogramRef } from '../../shared/types/declaration-types.js';
import type { EncodedHistogram, MeasuredCell, ScenarioInfo, TimeSeries } from '../../shared/types/result-types.js';
import { drawRequest } from '../charts/index.js';
import { CHART_CONFIG, VEGA_LITE_SCHEMA, round4, type DrawnChart, type ScenarioView } from '../charts/common.js';
import { liveRates } from './progress.js';
import { encodeHistogram } from '../../shared/measure/metrics.js';
import { vegaSafeSpec } from '../escape/vega.js';
import type { LiveCellRun } from './state.js';

const MIB = 1024 * 1024;

/** The scenario's over-time and percentiles requests (client histograms only: the server reports at the end); a default over-time one when it asks for none. */
function liveChartRequests(scenario: ScenarioInfo): ChartRequest[] {
  const clientSide = (ref: HistogramRef): boolean => typeof ref === 'string' || ref.side === 'client';
  const requests = scenario.charts.flatMap((request): ChartRequest[] => {
    if (request.kind === 'over-time') return [request];
    if (request.kind !== 'percentiles') return [];
    const histograms = request.histograms.filter(clientSide);
    return histograms.length > 0 ? [{ ...request, histograms }] : [];
  });
  if (requests.some((r) => r.kind === 'over-time')) return requests;
  const latency = Object.values(scenario.metrics).find(
    (m) => m.role === 'primary-latency' && 'histogram' in m.source && (m.source.side ?? 'client') === 'client',
  );
  const histogram = latency && 'histogram' in latency.source ? latency.source.histogram : undefined;
  const rates = liveRates(scenario).map((r) => r.key);
  if (histogram === undefined && rates.length === 0) return requests;
  return [{ kind: 'over-time', ...(histogram !== undefined ? { histogram } : {}), rates }, ...requests];
}

/** A cell run as the charts draw it: its series and window histograms (as they stand, or as kept once it ended). */
export interface ChartedCell {
  cell: LiveCellRun;
  timeSeries: TimeSeries | undefined;
  histograms: Record<string, EncodedHistogram>;
}

/** How the run names its cells: the parameters that vary over it, and its rounds. */
interface RunNaming {
  swept: string[];
  repeat: number;
}

/**
 * Every chart of the cells given (ended ones first, the running one last),
 * named by kind; the running cell's processes too. None before anything was measured.
 */
export function liveCharts(
  scenario: ScenarioInfo,
  cells: ChartedCell[],
  current: LiveCellRun,
  label: string,
  naming: RunNaming,
): Array<DrawnChart & { name: string }> {
  const earlier = cells.length - 1;
  const subtitle = [
    `live: ${label}, the window so far${earlier > 0 ? `; the ${earlier === 1 ? 'cell' : `${earlier} cells`} before it as they ended` : ''}`,
  ];
  // With rounds, the round sets a cell run apart from its pair's others.
  const sweptParams = naming.repeat > 1 ? [...naming.swept, 'round'] : naming.swept;
  const view: ScenarioView = {
    scenario,
    cells: cells.map((c) => asMeasuredCell(scenario, c, naming.repeat)),
    sweptParams,
    subtitle,
  };
  const drawn = liveChartRequests(scenario).flatMap((request, r) =>
    drawRequest(view, request).map((chart, i) => ({ name: `${request.kind}-${r}-${i}`, ...chart })),
  );
  const resources = resourcesOverTime(scenario, current, label);
  return resources ? [...drawn, { name: 'processes', ...resources, spec: vegaSafeSpec(resources.spec) }] : drawn;
}

/** The running cell's window histograms, encoded as a result holds them. */
export function windowHistograms(cell: LiveCellRun): Record<string, EncodedHistogram> {
  const histograms: Record<string, EncodedHistogram> = {};
  for (const [name, histogram] of cell.series?.window ?? [])
    if (histogram.totalCount > 0) histograms[name] = encodeHistogram(histogram);
  return histograms;
}

/**
 * The cell as the report's builders read a result's cell. They read its
 * identity, histograms, counters and time series; the status and metrics they
 * do not read are placeholders until the engine computes them at the cell's end.
 */
function asMeasuredCell(
  scenario: ScenarioInfo,
  { cell, timeSeries, histograms }: ChartedCell,
  repeat: number,
): MeasuredCell {
  return {
    scenario: scenario.name,
    server: cell.server,
    client: cell.client,
    params: repeat > 1 ? { ...cell.params, round: cell.round + 1 } : cell.params,
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
    return history.map((r) => ({
      process,
      tS: round4(r.tMs / 1000),
      cpuPercent: round4(r.cpuPercent),
      rssMiB: round4(r.rssBytes / MIB),
    }));
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

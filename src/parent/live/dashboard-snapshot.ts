/**
 * What the dashboard page is sent: the whole picture as plain JSON, built from
 * the live state once per push and shared by every open page. A page that
 * connects late gets everything at once; nothing is sent as a difference.
 */
import { declaredStages } from '../../shared/parsing/stages.js';
import type { CellResult, ScenarioInfo, TimeSeries } from '../../shared/types/result-types.js';
import { summarizeHistogram } from '../../shared/measure/metrics.js';
import { parametersText, variedParameters } from '../parameter-labels.js';
import { liveRates, type LiveRate } from './progress.js';
import type { ChartSpec } from '../charts/common.js';
import { liveCharts, processLabel, windowHistograms, type ChartedCell } from './dashboard-charts.js';
import type { LiveCellRun, LiveCellStatus, LiveLogEntry, LiveState } from './state.js';

/** Log entries a page is sent, newest first. */
const LOG_ENTRIES_SENT = 100;
/** Live rates are taken over at least this much of the window. */
const RATE_SPAN_MS = 1000;

interface DashboardSnapshot {
  /** Epoch ms the snapshot was taken. */
  atMs: number;
  run: {
    scenario: string | null;
    description: string;
    status: 'waiting' | 'running' | 'ended' | 'interrupted';
    repeat: number;
    shard: { index: number; count: number; runId: string } | null;
    elapsedS: number;
  };
  cells: Array<{
    index: number;
    label: string;
    round: number;
    status: LiveCellStatus;
    reason: string | null;
    saturation: string | null;
    tookS: number | null;
  }>;
  current: CurrentCell | null;
  /** wsbench itself, as it sees its own process. */
  orchestrator: { cpuPercent: number | null; rssBytes: number };
  log: LiveLogEntry[];
  charts: Array<Omit<ChartSpec, 'spec'> & { spec: unknown }>;
}

interface CurrentCell {
  index: number;
  label: string;
  status: LiveCellStatus;
  /** Time in the window (its length once it closed); null while connecting. */
  inWindowS: number | null;
  /** The declared window; null when the window ends with the clients. */
  windowS: number | null;
  /** In a cell run in stages: the stage it is in (1-based), of how many, and where it takes the load. */
  stage: { number: number; of: number; target: number } | null;
  rates: Array<{ header: string; perSec: number | null }>;
  /** Latency of the window so far, per histogram with samples (none: "no samples", never 0). */
  latency: Array<{ histogram: string; count: number; p50Ms: number; p90Ms: number; p99Ms: number; maxMs: number }>;
  counters: Array<{ counter: string; value: number }>;
  processes: Array<{ name: string; cpuPercent: number; rssBytes: number }>;
}

/** Reads wsbench's own CPU between two snapshots. */
export class OwnProcess {
  private last: { atMs: number; cpuUs: number } | null = null;

  read(nowMs: number): DashboardSnapshot['orchestrator'] {
    const usage = process.cpuUsage();
    const cpuUs = usage.user + usage.system;
    const previous = this.last;
    this.last = { atMs: nowMs, cpuUs };
    const cpuPercent =
      previous && nowMs > previous.atMs
        ? Math.round(((cpuUs - previous.cpuUs) / 1000 / (nowMs - previous.atMs)) * 1000) / 10
        : null;
    return { cpuPercent, rssBytes: process.memoryUsage.rss() };
  }
}

export function dashboardSnapshot(state: LiveState, own: OwnProcess, now: number): DashboardSnapshot {
  const scenario = state.scenario;
  const swept = variedParameters(state.cells as unknown as CellResult[]);
  const labelOf = (cell: LiveCellRun): string => cellLabel(scenario, cell, swept, state.repeat);
  const current = state.current;
  // Built once a push: the rates and the charts read the same series.
  const series = current?.series?.timeSeries();
  return {
    atMs: now,
    run: {
      scenario: scenario?.name ?? null,
      description: scenario?.description ?? '',
      status: state.ended
        ? state.ended.interrupted
          ? 'interrupted'
          : 'ended'
        : state.startedAtMs === null
          ? 'waiting'
          : 'running',
      repeat: state.repeat,
      shard: state.shard,
      elapsedS: state.startedAtMs === null ? 0 : ((state.ended?.atMs ?? now) - state.startedAtMs) / 1000,
    },
    cells: state.cells.map((cell) => ({
      index: cell.index,
      label: labelOf(cell),
      round: cell.round,
      status: cell.status,
      reason: cell.reason,
      saturation: cell.saturation,
      tookS: cell.startedAtMs === null ? null : ((cell.endedAtMs ?? now) - cell.startedAtMs) / 1000,
    })),
    current: current && scenario ? currentCell(scenario, current, labelOf(current), series, now) : null,
    orchestrator: own.read(now),
    log: state.log.slice(-LOG_ENTRIES_SENT).reverse(),
    charts:
      current && scenario
        ? liveCharts(scenario, chartedCells(state, current, series), current, labelOf(current), {
            swept,
            repeat: state.repeat,
          })
        : [],
  };
}

/** The cells the charts draw: the ended ones the state keeps, in run order, then the current one as it stands. */
function chartedCells(state: LiveState, current: LiveCellRun, series: TimeSeries | undefined): ChartedCell[] {
  const ended = state.cells.flatMap((cell) => (cell !== current && cell.kept ? [{ cell, ...cell.kept }] : []));
  return [...ended, { cell: current, timeSeries: series, histograms: windowHistograms(current) }];
}

function currentCell(
  scenario: ScenarioInfo,
  cell: LiveCellRun,
  label: string,
  series: TimeSeries | undefined,
  now: number,
): CurrentCell {
  const open = cell.windowOpenedAtMs;
  const inWindowS = open === null ? null : cell.endedAtMs !== null ? cell.windowElapsedMs / 1000 : (now - open) / 1000;
  return {
    index: cell.index,
    label,
    status: cell.status,
    inWindowS,
    windowS: cell.windowMs === undefined ? null : cell.windowMs / 1000,
    stage: stageOf(scenario, cell),
    rates: liveRatesOf(scenario, series),
    latency: [...(cell.series?.window ?? [])].flatMap(([histogram, h]) => {
      const summary = summarizeHistogram(h);
      return summary
        ? [
            {
              histogram,
              count: summary.count,
              p50Ms: summary.p50Ms,
              p90Ms: summary.p90Ms,
              p99Ms: summary.p99Ms,
              maxMs: summary.maxMs,
            },
          ]
        : [];
    }),
    counters: Object.entries(cell.counters).map(([counter, value]) => ({ counter, value })),
    processes: [...cell.processes].map(([key, p]) => ({
      name: processLabel(key),
      cpuPercent: Math.round(p.cpuPercent * 10) / 10,
      rssBytes: p.rssBytes,
    })),
  };
}

/**
 * The rates the page shows: the scenario's live rates (its primary-rate and
 * progress metrics that are a client counter's rate); for a scenario whose
 * headline rate it computes itself (fanout's msg/s over the stream, churn's
 * handshakes a second), the rate of each client counter it totals, once that
 * counter has counted something (`optional`: a failure count stays off the
 * panel while it is 0).
 */
function dashboardRates(scenario: ScenarioInfo): Array<LiveRate & { optional: boolean }> {
  const declared = liveRates(scenario);
  if (declared.length > 0) return declared.map((rate) => ({ ...rate, optional: false }));
  return Object.entries(scenario.metrics).flatMap(([key, info]) => {
    const source = info.source;
    if (
      !('counter' in source) ||
      (source.side ?? 'client') !== 'client' ||
      source.as === 'rate' ||
      info.unit !== 'count' ||
      info.role === 'errors'
    )
      return [];
    return [{ key, header: `${info.header}/s`, counter: source.counter, scale: source.scale ?? 1, optional: true }];
  });
}

/** The scenario's live rates over the last second or so of the series; null before two readings. */
function liveRatesOf(scenario: ScenarioInfo, series: TimeSeries | undefined): CurrentCell['rates'] {
  const points = series?.points ?? [];
  const last = points.at(-1);
  const windowStart: { tMs: number; counters: Record<string, number> } = { tMs: 0, counters: {} };
  const base = last ? ([...points].reverse().find((p) => last.tMs - p.tMs >= RATE_SPAN_MS) ?? windowStart) : undefined;
  return dashboardRates(scenario).flatMap((rate): CurrentCell['rates'] => {
    if (rate.optional && !last?.counters[rate.counter]) return [];
    if (!last || !base || last.tMs <= base.tMs || last.counters[rate.counter] === undefined)
      return [{ header: rate.header, perSec: null }];
    const moved = last.counters[rate.counter]! - (base.counters[rate.counter] ?? 0);
    return [{ header: rate.header, perSec: (moved * rate.scale * 1000) / (last.tMs - base.tMs) }];
  });
}

/** "uws x ws payload=4KiB, round 2": pair and the parameters that vary over the run, as the table names a cell, and the round when there are several. */
function cellLabel(scenario: ScenarioInfo | null, cell: LiveCellRun, swept: string[], repeat: number): string {
  const variant = parametersText(cell.params, swept, scenario?.parameters ?? {});
  return `${cell.server} x ${cell.client}${variant ? ` ${variant}` : ''}${repeat > 1 ? `, round ${cell.round + 1}` : ''}`;
}

function stageOf(scenario: ScenarioInfo, cell: LiveCellRun): CurrentCell['stage'] {
  const stages = declaredStages(scenario.parameters, cell.params);
  const stage = cell.stage === null ? undefined : stages[cell.stage];
  return stage ? { number: cell.stage! + 1, of: stages.length, target: stage.target } : null;
}

/**
 * One cell of a sharded run, put back together from its shards: histograms
 * added bucket by bucket (exact: the percentiles are those of all samples),
 * counters summed, client processes side by side, rates over the window in
 * which every shard was measuring (or, where that window is far shorter than a
 * shard's own, over the one from the first opening to the last close, and the
 * cell says so). The metrics are then computed once from that, from the
 * scenario's declarations, like those of any cell, and judged by the engine's
 * one rule (cell-verdict.ts).
 */
import type { MetricInfo } from '../../shared/types/declaration-types.js';
import { computeMetrics } from '../measure/metric-values.js';
import { tlsOutcomes } from '../../child/tls-sessions.js';
import { sumCounterSets } from '../../shared/measure/metrics.js';
import { assembleMeasurements, serverPartOf } from '../measure/measurements.js';
import type {
  CellFault,
  CellMeasurements,
  CellResult,
  MeasuredCell,
  ScenarioInfo,
  TimeSeries,
} from '../../shared/types/result-types.js';
import { loadSaturationOf, withScheduleLag } from '../measure/saturation.js';
import { isMeasured } from '../../shared/types/result-types.js';
import { countedErrors, countedErrorsText } from '../engine/cell-verdict.js';
import { spreadCount } from '../engine/params.js';
import { mergeStages } from './merge-stages.js';
import type { AnyScenario, MetricDefinition } from '../../shared/types/scenario-types.js';

interface ShardCell {
  shard: number;
  cell: CellResult;
  /** This shard's clock minus shard 0's, when known. */
  clockOffsetMs: number | null;
}

/** Merges the same cell of every shard that has it; `missing` names shards that have none. */
export function mergeCell(
  parts: ShardCell[],
  missing: number[],
  info: ScenarioInfo,
  scenario: AnyScenario | null,
): CellResult {
  const first = parts[0]!.cell;
  const identity = {
    scenario: first.scenario,
    server: first.server,
    client: first.client,
    params: first.params,
    ...(first.load ? { load: first.load } : {}),
  };
  const elapsedMs = Math.max(...parts.map((p) => p.cell.elapsedMs));
  const said = (p: ShardCell): string => `shard ${p.shard}: ${'reason' in p.cell ? p.cell.reason : p.cell.status}`;
  const problems = [
    ...parts.filter((p) => p.cell.status === 'failed').map(said),
    ...missing.map((index) => `shard ${index}: missing`),
  ];
  const errors = parts.filter((p) => p.cell.status === 'errors').map(said);
  const skipped = parts.filter((p) => p.cell.status === 'skipped');
  if (skipped.length === parts.length && missing.length === 0)
    return { ...identity, status: 'skipped', reason: (first as { reason: string }).reason, elapsedMs };
  const measured = parts.filter((p): p is ShardCell & { cell: MeasuredCell } => isMeasured(p.cell));
  if (measured.length === 0)
    return { ...identity, status: 'failed', reason: problems.join('; ') || 'no shard measured this cell', elapsedMs };

  const window = mergedWindow(measured);
  const measurements = mergeMeasurements(measured, window.windowMs);
  const resources = {
    server: measured.map((p) => p.cell.resources.server).find((s) => s !== null) ?? null,
    clients: measured.flatMap((p) => p.cell.resources.clients),
  };
  const drops = measured.map((p) => p.cell.stackDrops).filter((d): d is number => d !== null);
  const computing = withComputations(info, scenario);
  const stages = mergeStages(
    measured.map((p) => p.cell),
    computing,
  );
  const values = computeMetrics(computing, {
    measurements,
    params: identity.params,
    resources,
    stackDrops: drops.length ? Math.max(...drops) : null,
    // The server is one, shared by every shard: whichever shard heard from it speaks for it.
    serverReported: measured.some(
      (p) => Object.keys(p.cell.measurements.serverCounters).length > 0 || p.cell.stackDrops !== null,
    ),
    clientProcesses: resources.clients.length,
  });
  // Every shard's client processes side by side: the judgement is made again over all of them.
  const loadSaturation = withScheduleLag(
    loadSaturationOf(resources.clients, scenario ? spreadCount(scenario, identity.params) : null),
    measurements,
  );
  const fault = mergeFaults(measured.flatMap((p) => (p.cell.fault ? [p.cell.fault] : [])));
  const numbers = {
    metrics: values.metrics,
    missing: values.missing,
    ...(Object.keys(values.resolution).length > 0 ? { resolution: values.resolution } : {}),
    measurements,
    resources,
    stackDrops: drops.length ? Math.max(...drops) : null,
    notes: [...new Set([...measured.flatMap((p) => p.cell.notes), ...(window.note ? [window.note] : [])])],
    ...(loadSaturation ? { loadSaturation } : {}),
    ...(fault ? { fault } : {}),
    ...(tlsOutcomes(measurements.counters).length > 0 ? { tls: tlsOutcomes(measurements.counters) } : {}),
    ...(stages ? { stages } : {}),
    elapsedMs,
  };
  if (problems.length)
    return { ...identity, status: 'failed', reason: [...problems, ...errors].join('; '), ...numbers };
  if (errors.length) return { ...identity, status: 'errors', reason: errors.join('; '), ...numbers };
  const counted = countedErrorsText(countedErrors(info.metrics, values.metrics));
  if (counted) return { ...identity, status: 'errors', reason: counted, ...numbers };
  return { ...identity, status: 'ok', ...numbers };
}

/** The shards' faults as one: connections added up, the earliest time (each on its own shard's window). */
function mergeFaults(faults: CellFault[]): CellFault | null {
  if (faults.length === 0) return null;
  const times = faults.map((f) => f.atMs).filter((t): t is number => t !== null);
  const sum = (pick: (f: CellFault) => number): number => faults.reduce((total, f) => total + pick(f), 0);
  return {
    atMs: times.length ? Math.min(...times) : null,
    connections: {
      opened: sum((f) => f.connections.opened),
      failed: sum((f) => f.connections.failed),
      lost: sum((f) => f.connections.lost),
    },
  };
}

function mergeMeasurements(parts: Array<ShardCell & { cell: MeasuredCell }>, windowMs: number): CellMeasurements {
  const all = parts.map((p) => p.cell.measurements);
  // The server is one, shared by every shard: whichever shard heard from it speaks for it.
  const serverPart = all.find((m) => Object.keys(m.serverHistograms).length + Object.keys(m.serverCounters).length > 0);
  return assembleMeasurements(
    all,
    serverPart ? [serverPartOf(serverPart)] : [],
    () => windowMs,
    mergeSeries(all.map((m) => m.timeSeries)),
  );
}

/**
 * The common window may be this much shorter than a shard's own window, at most: shards lined
 * up by a barrier or a start time differ by milliseconds, and a scenario whose clients end the
 * window differs by its drain. Shorter, the counts were gathered over far more time than it holds.
 */
const COMMON_WINDOW_SHARE = 0.5;

/**
 * The window the merged rates are over, and what the cell says when it is not the common one.
 * As a rule, the window in which every shard was measuring (commonWindowMs). When that is less
 * than COMMON_WINDOW_SHARE of a shard's own window (a shard with nothing to do ends its window at
 * once; windows that did not line up), dividing every shard's counts by it would make a rate no
 * server ever served: the rates are then over the window from the first opening to the last close
 * (the longest shard's, without the times), which holds every count, and the note says so.
 */
function mergedWindow(parts: Array<ShardCell & { cell: MeasuredCell }>): {
  windowMs: number;
  note: string | null;
} {
  const common = commonWindowMs(parts);
  const longest = Math.max(...parts.map((p) => p.cell.measurements.windowMs));
  if (common >= COMMON_WINDOW_SHARE * longest) return { windowMs: common, note: null };
  const spans = shardSpans(parts);
  const whole = spans ? Math.max(...spans.map((w) => w.end)) - Math.min(...spans.map((w) => w.start)) : longest;
  const shortest = parts.reduce((a, b) => (b.cell.measurements.windowMs < a.cell.measurements.windowMs ? b : a));
  return {
    windowMs: whole,
    note:
      `shard ${shortest.shard} measured for ${ms(shortest.cell.measurements.windowMs)}, another shard for ${ms(longest)}, and all of them at once for ${ms(common)} ` +
      `(a shard with nothing to do, or windows that did not line up): rates are over the ${ms(whole)} from the first window's opening to the last one's close, ` +
      'which holds every count, and so read low rather than high',
  };
}

/**
 * The window in which every shard was measuring: from the latest opening to the
 * earliest close, on shard 0's clock. Shards that did not record when their
 * window opened can only say how long it was: then the shortest of them.
 */
function commonWindowMs(parts: Array<ShardCell & { cell: MeasuredCell }>): number {
  const known = shardSpans(parts);
  if (!known) return Math.min(...parts.map((p) => p.cell.measurements.windowMs));
  return Math.max(0, Math.min(...known.map((w) => w.end)) - Math.max(...known.map((w) => w.start)));
}

/** Each shard's window on shard 0's clock; null when a shard did not record when its window opened. */
function shardSpans(parts: Array<ShardCell & { cell: MeasuredCell }>): Array<{ start: number; end: number }> | null {
  const windows = parts.map((p) => {
    const opened = p.cell.measurements.windowOpenedAtEpochMs;
    const offset = p.clockOffsetMs ?? 0;
    return opened === undefined
      ? null
      : { start: opened - offset, end: opened - offset + p.cell.measurements.windowMs };
  });
  return windows.some((w) => w === null) ? null : (windows as Array<{ start: number; end: number }>);
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Number(value.toPrecision(2))} ms`;
}

/**
 * Counters add up point by point. Interval latencies are kept as summaries
 * (p50/p99/max), which cannot be merged exactly, so the merged series has none.
 */
function mergeSeries(series: Array<TimeSeries | undefined>): TimeSeries | undefined {
  const present = series.filter((s): s is TimeSeries => s !== undefined);
  if (present.length === 0) return undefined;
  const length = Math.min(...present.map((s) => s.points.length));
  return {
    intervalMs: present[0]!.intervalMs,
    points: Array.from({ length }, (_, i) => ({
      tMs: present[0]!.points[i]!.tMs,
      counters: sumCounterSets(present.map((s) => s.points[i]!.counters)),
      latency: {},
    })),
  };
}

/**
 * The declarations as metric definitions. A custom metric needs the scenario's
 * own function: from the scenario when merge could load it, else it is null
 * with that reason (never a number made up from something else).
 */
function withComputations(info: ScenarioInfo, scenario: AnyScenario | null): AnyScenario {
  const own = (scenario?.metrics ?? {}) as Record<string, MetricDefinition>;
  const metrics = Object.fromEntries(
    Object.entries(info.metrics).map(([key, declared]: [string, MetricInfo]) => {
      const source = declared.source;
      if (!('custom' in source)) return [key, declared as MetricDefinition];
      const ownSource = own[key]?.source;
      const compute =
        ownSource && 'compute' in ownSource
          ? ownSource.compute
          : () => {
              throw new Error(`its scenario's code is needed and ${info.name} could not be loaded by merge`);
            };
      return [key, { ...declared, source: { custom: source.custom, compute } }];
    }),
  );
  return { metrics } as unknown as AnyScenario;
}

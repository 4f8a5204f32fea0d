/**
 * The live state of a run, built only from run()'s events: the cells done and
 * to come with their statuses, what the current cell has measured so far, the
 * latest /proc reading of each of its processes, and a log of what happened
 * (cells starting and ending, errors counted, saturation, interrupts, shards).
 * The dashboard and the /metrics endpoint both read it; neither measures
 * anything itself.
 */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { EncodedHistogram, ScenarioInfo, TimeSeries } from '../../shared/types/result-types.js';
import type { RunEvent } from '../engine/events.js';
import type { ResourceSample } from '../measure/proc-sampler.js';
import { LiveCellSeries } from './cell-series.js';
import { latencyBuckets, type LatencyBuckets } from './latency-buckets.js';

export type LiveCellStatus =
  | 'pending'
  | 'skipped'
  | 'connecting'
  | 'running'
  | 'ok'
  | 'errors'
  | 'failed'
  | 'interrupted';

export const LIVE_CELL_STATUSES: readonly LiveCellStatus[] = [
  'pending',
  'skipped',
  'connecting',
  'running',
  'ok',
  'errors',
  'failed',
  'interrupted',
];

/** The latest /proc reading of one process of a cell. */
export interface LiveProcess extends ResourceSample {
  role: 'server' | 'client';
  /** Client process index from 0; the server (all its processes as one) is 0. */
  process: number;
}

/** One cell run: a cell of the plan in one round. */
export interface LiveCellRun {
  /** Position among all cell runs (cells x rounds), as the engine counts them. */
  index: number;
  round: number;
  server: string;
  client: string;
  params: ParamValues;
  status: LiveCellStatus;
  /** Why it was skipped, failed or interrupted. */
  reason: string | null;
  saturation: string | null;
  startedAtMs: number | null;
  windowOpenedAtMs: number | null;
  endedAtMs: number | null;
  /** The declared window length; undefined when the window ends with the clients. */
  windowMs: number | undefined;
  /** What the cell measured so far; kept for the current cell (or the last one, once the run ended) only. */
  series: LiveCellSeries | null;
  /** An ended cell's curves, folded, for the page to draw beside the next cells' (the last KEPT_CELLS that ended). */
  kept: { timeSeries: TimeSeries | undefined; histograms: Record<string, EncodedHistogram> } | null;
  /** Client counters summed over processes (the last report once the cell ended). */
  counters: Record<string, number>;
  /** Window time the counters cover, in ms. */
  windowElapsedMs: number;
  /** In a cell run in stages, the stage its latest progress was of (0-based); null otherwise. */
  stage: number | null;
  /** Latency histograms of the window so far as Prometheus buckets; frozen when the cell ends. */
  latency: Map<string, LatencyBuckets>;
  /** Latest reading per process, by `role:process`. */
  processes: Map<string, LiveProcess>;
  /** By `role:process`: about one reading a second, the latest RESOURCE_HISTORY_POINTS; `tMs` in the window. */
  resourceHistory: Map<string, Array<ResourceSample & { tMs: number }>>;
}

export type LiveLogKind = 'run' | 'cell' | 'errors' | 'saturation' | 'failure' | 'interrupted' | 'shard' | 'note';

export interface LiveLogEntry {
  atMs: number;
  kind: LiveLogKind;
  text: string;
  /** The cell run it is about, when it is about one. */
  index?: number;
}

/** Log entries kept; older ones are dropped (the result file keeps every cell's notes). */
const MAX_LOG_ENTRIES = 500;
/** Readings per process kept for the resource chart: ten minutes at one a second. */
const RESOURCE_HISTORY_POINTS = 600;
const RESOURCE_HISTORY_STEP_MS = 1000;
/** Ended cells whose curves the page keeps beside the running one's. */
export const KEPT_CELLS = 8;
/** Points an ended cell's series keeps (folded exactly, pairs of points into one). */
const KEPT_POINTS = 150;

export class LiveState {
  scenario: ScenarioInfo | null = null;
  repeat = 1;
  shard: { index: number; count: number; runId: string } | null = null;
  startedAtMs: number | null = null;
  ended: { atMs: number; interrupted: boolean } | null = null;
  cells: LiveCellRun[] = [];
  current: LiveCellRun | null = null;
  readonly log: LiveLogEntry[] = [];
  private errorCounters: Array<{ counter: string; header: string }> = [];
  private readonly listeners = new Set<(structural: boolean) => void>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** `listener(structural)`: structural changes (a cell starts or ends) deserve an update at once. */
  subscribe(listener: (structural: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onEvent(event: RunEvent): void {
    const now = this.clock();
    switch (event.type) {
      case 'run-start':
        this.startRun(event, now);
        break;
      case 'cell-start': {
        const cell = this.cellAt(event.index, event);
        // Cells that ended keep their totals (counters, latency buckets) and their folded curves, and let their series go.
        for (const other of this.cells) {
          if (other === cell) continue;
          other.series = null;
          other.resourceHistory.clear();
        }
        const ended = this.cells
          .filter((c) => c.kept !== null)
          .sort((a, b) => (b.endedAtMs ?? 0) - (a.endedAtMs ?? 0) || b.index - a.index);
        for (const old of ended.slice(KEPT_CELLS)) old.kept = null;
        Object.assign(cell, {
          status: 'connecting',
          startedAtMs: now,
          windowMs: event.windowMs,
          series: new LiveCellSeries(),
        });
        this.current = cell;
        this.note(now, 'cell', `${this.nameOf(cell)}: starting`, cell.index);
        break;
      }
      case 'window-open': {
        const cell = this.cells[event.index];
        if (cell) Object.assign(cell, { status: 'running', windowOpenedAtMs: now });
        break;
      }
      case 'tick':
        this.tick(event, now);
        return this.changed(false);
      case 'resources': {
        const cell = this.cells[event.index];
        if (cell) this.resources(cell, event, now);
        return this.changed(false);
      }
      case 'cell-end':
        this.endCell(event, now);
        break;
      case 'run-end':
        this.ended = { atMs: now, interrupted: event.interrupted };
        // As the result file says of them.
        if (event.interrupted)
          for (const cell of this.cells)
            if (cell.status === 'pending')
              Object.assign(cell, { status: 'skipped', reason: 'interrupted before it started' });
        this.note(
          now,
          event.interrupted ? 'interrupted' : 'run',
          event.interrupted ? 'run interrupted: what was measured is written' : 'run ended',
        );
        break;
    }
    this.changed(true);
  }

  private startRun(event: Extract<RunEvent, { type: 'run-start' }>, now: number): void {
    this.scenario = event.scenario;
    this.repeat = event.repeat;
    this.shard = event.shard ?? null;
    this.startedAtMs = now;
    this.ended = null;
    this.current = null;
    const plan = event.plan ?? [];
    this.cells = Array.from({ length: plan.length * event.repeat }, (_, index) => {
      const cell = plan[index % plan.length]!;
      return newCell(index, Math.floor(index / plan.length), cell.server, cell.client, cell.params, cell.skip);
    });
    this.errorCounters = Object.values(event.scenario.metrics).flatMap((metric) =>
      metric.role === 'errors' && 'counter' in metric.source && (metric.source.side ?? 'client') === 'client'
        ? [{ counter: metric.source.counter, header: metric.header }]
        : [],
    );
    const rounds = event.repeat > 1 ? ` x ${event.repeat} rounds` : '';
    this.note(
      now,
      'run',
      `${event.scenario.name}: ${event.cells} cells${rounds}, ${plan.filter((c) => c.skip !== null).length} skipped`,
    );
    if (this.shard)
      this.note(now, 'shard', `shard ${this.shard.index} of ${this.shard.count} (0-based), run ${this.shard.runId}`);
  }

  private tick(event: Extract<RunEvent, { type: 'tick' }>, now: number): void {
    const cell = this.cells[event.index];
    if (!cell?.series) return;
    const before = cell.counters;
    cell.series.add(event.counters, event.progress);
    cell.counters = event.counters;
    cell.windowElapsedMs = cell.series.windowMs;
    const stage = event.progress?.ticks.at(-1)?.stage;
    if (stage !== undefined) cell.stage = stage;
    for (const { counter, header } of this.errorCounters) {
      const grew = (event.counters[counter] ?? 0) - (before[counter] ?? 0);
      if (grew > 0)
        this.note(
          now,
          'errors',
          `${this.nameOf(cell)}: ${header} +${grew} (${event.counters[counter]} so far)`,
          cell.index,
        );
    }
  }

  private resources(cell: LiveCellRun, event: Extract<RunEvent, { type: 'resources' }>, now: number): void {
    const { type: _type, index: _index, ...reading } = event;
    const key = `${event.role}:${event.process}`;
    cell.processes.set(key, reading);
    const tMs = now - (cell.windowOpenedAtMs ?? now);
    let history = cell.resourceHistory.get(key);
    if (!history) cell.resourceHistory.set(key, (history = []));
    if (history.length > 0 && tMs - history.at(-1)!.tMs < RESOURCE_HISTORY_STEP_MS) return;
    history.push({ cpuPercent: event.cpuPercent, cpuSeconds: event.cpuSeconds, rssBytes: event.rssBytes, tMs });
    if (history.length > RESOURCE_HISTORY_POINTS) history.shift();
  }

  private endCell(event: Extract<RunEvent, { type: 'cell-end' }>, now: number): void {
    const cell = this.cellAt(event.index, event);
    const interrupted = event.reason === 'interrupted';
    Object.assign(cell, {
      status: interrupted ? 'interrupted' : event.status,
      reason: event.reason,
      saturation: event.saturation ?? null,
      endedAtMs: now,
    });
    cell.series?.finish();
    cell.latency = this.latencyOf(cell);
    cell.kept = cell.series ? cell.series.kept(KEPT_POINTS) : null;
    const took = cell.startedAtMs === null ? '' : ` in ${((now - cell.startedAtMs) / 1000).toFixed(1)} s`;
    const kind: LiveLogKind = interrupted ? 'interrupted' : event.status === 'failed' ? 'failure' : 'cell';
    this.note(
      now,
      kind,
      `${this.nameOf(cell)}: ${cell.status}${event.reason ? ` (${event.reason})` : ''}${took}`,
      cell.index,
    );
    if (event.saturation)
      this.note(now, 'saturation', `${this.nameOf(cell)}: saturated: ${event.saturation}`, cell.index);
    for (const text of event.notes ?? []) this.note(now, 'note', `${this.nameOf(cell)}: ${text}`, cell.index);
  }

  /** The latency buckets of a cell: live from its series while it runs, frozen once it ended. */
  latencyOf(cell: LiveCellRun): Map<string, LatencyBuckets> {
    if (cell.endedAtMs !== null && cell.latency.size > 0) return cell.latency;
    if (!cell.series) return cell.latency;
    return new Map([...cell.series.window].map(([name, histogram]) => [name, latencyBuckets(histogram)]));
  }

  /** "[3/8] uws x ws": the cell run numbered as the progress lines number it. */
  nameOf(cell: LiveCellRun): string {
    return `[${cell.index + 1}/${this.cells.length}] ${cell.server} x ${cell.client}`;
  }

  /** The cell run at `index`; a run-start without a plan (an older caller) gets its cells as they come. */
  private cellAt(
    index: number,
    event: { round: number; server: string; client: string; params: ParamValues },
  ): LiveCellRun {
    this.cells[index] ??= newCell(index, event.round, event.server, event.client, event.params, null);
    return this.cells[index]!;
  }

  private note(atMs: number, kind: LiveLogKind, text: string, index?: number): void {
    this.log.push({ atMs, kind, text, ...(index !== undefined ? { index } : {}) });
    if (this.log.length > MAX_LOG_ENTRIES) this.log.splice(0, this.log.length - MAX_LOG_ENTRIES);
  }

  private changed(structural: boolean): void {
    for (const listener of this.listeners) listener(structural);
  }
}

function newCell(
  index: number,
  round: number,
  server: string,
  client: string,
  params: ParamValues,
  skip: string | null,
): LiveCellRun {
  return {
    index,
    round,
    server,
    client,
    params,
    status: skip === null ? 'pending' : 'skipped',
    reason: skip,
    saturation: null,
    startedAtMs: null,
    windowOpenedAtMs: null,
    endedAtMs: null,
    windowMs: undefined,
    series: null,
    kept: null,
    counters: {},
    windowElapsedMs: 0,
    stage: null,
    latency: new Map(),
    processes: new Map(),
    resourceHistory: new Map(),
  };
}

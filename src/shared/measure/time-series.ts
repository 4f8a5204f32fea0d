/**
 * Builds a cell's time series from the clients' progress messages: counters
 * summed over processes, and the latency of each interval merged exactly from
 * the processes' interval histograms. Each client sends one message per
 * interval while its window is open and a last one when it reports, so the
 * series reaches the window's end and its counters add up to the cell's.
 *
 * Memory stays bounded however long the window: ticks are merged into points
 * as they arrive (one encoded histogram per name and point, each process's
 * latest counters), and past MAX_POINTS points neighbours merge pairwise
 * (exactly: their histograms add up), so a point covers twice the time. With
 * 1 s intervals a window keeps 1 s points up to 15 minutes, 2 s up to 30, 4 s
 * up to an hour, 64 s at 10 hours: never more than MAX_POINTS points, never
 * fewer than half as many. A straggler (a process reporting a tick late) still
 * lands in the point that covers its tick, however late it comes.
 */
import type { EncodedHistogram, TimeSeries, TimeSeriesPoint } from '../types/result-types.js';
import { mergeEncoded, summarizeEncoded } from './metrics.js';

/**
 * What a client read at the end of one interval while its window was open, and
 * once more right before its report (a last, usually shorter interval up to the
 * window's end).
 */
export interface ProgressTick {
  /** 1 for the first interval after the window opened. */
  tick: number;
  /** When the counters were read, in ms since this process's window opened (its window's length for the last one). */
  tMs?: number;
  /** Counters since the window opened (cumulative). */
  counters: Record<string, number>;
  /** Samples recorded during this interval only. */
  intervals: Record<string, EncodedHistogram>;
  /** The stage (0-based) the interval belongs to, in a cell with stages: a stage's end cuts an interval. */
  stage?: number;
}

const MAX_POINTS = 900;
/** Windows shorter than this are sampled every SHORT_INTERVAL_MS, so a 2 s cell still gets a curve. */
const SHORT_WINDOW_MS = 10_000;
const SHORT_INTERVAL_MS = 100;
const LONG_INTERVAL_MS = 1000;

/**
 * The progress interval of a cell whose window is expected to last `expectedWindowMs`
 * (undefined: unknown, e.g. a scenario that ends by itself with no duration). An
 * unknown length gets the long interval: a 100 ms tick over hours would fold the
 * series ten times as often for nothing.
 */
export function progressIntervalMs(expectedWindowMs: number | undefined): number {
  return expectedWindowMs !== undefined && expectedWindowMs > 0 && expectedWindowMs < SHORT_WINDOW_MS
    ? SHORT_INTERVAL_MS
    : LONG_INTERVAL_MS;
}

/** The ticks of one span of the window, merged. */
interface Point {
  /** Latest window time at which a process read its counters in this span. */
  tMs: number;
  /** Each process's cumulative counters as of its highest tick in the span. */
  counters: Map<number, { tick: number; values: Record<string, number> }>;
  /** Every interval histogram of the span, merged per name. */
  histograms: Record<string, EncodedHistogram>;
}

export class TimeSeriesCollector {
  /** Points by position: point k holds ticks k * ticksPerPoint + 1 .. (k + 1) * ticksPerPoint. */
  private points = new Map<number, Point>();
  /** Doubles with each fold. */
  private ticksPerPoint = 1;

  /** `intervalMs`: the progress interval the clients were given. */
  constructor(readonly intervalMs: number) {}

  add(processIndex: number, message: ProgressTick): void {
    const position = Math.floor((message.tick - 1) / this.ticksPerPoint);
    let point = this.points.get(position);
    if (!point) {
      point = { tMs: 0, counters: new Map(), histograms: {} };
      this.points.set(position, point);
    }
    point.tMs = Math.max(point.tMs, message.tMs ?? message.tick * this.intervalMs);
    const known = point.counters.get(processIndex);
    // A stage's cut and the rest of its interval carry one tick number; the later message is the later reading.
    if (!known || known.tick <= message.tick)
      point.counters.set(processIndex, { tick: message.tick, values: message.counters });
    addHistograms(point.histograms, message.intervals);
    if (this.points.size > MAX_POINTS) this.fold();
  }

  build(): TimeSeries | undefined {
    const positions = [...this.points.keys()].sort((a, b) => a - b);
    if (positions.length === 0) return undefined;
    const spanMs = this.intervalMs * this.ticksPerPoint;
    const latest = new Map<number, Record<string, number>>();
    const groups: Array<{
      tMs: number;
      counters: Record<string, number>;
      histograms: Record<string, EncodedHistogram>;
    }> = [];
    for (const position of positions) {
      const point = this.points.get(position)!;
      // A process that missed a tick still has its last cumulative counters.
      for (const [process, { values }] of point.counters) latest.set(process, values);
      const group = { tMs: Math.round(point.tMs), counters: sum([...latest.values()]), histograms: point.histograms };
      const previous = groups.at(-1);
      // A last message that lands just after a full interval (clients' timers are not
      // in step) would make a sliver of a point with a wild rate: it joins the point before.
      if (previous && group.tMs - previous.tMs < spanMs / 2) {
        const histograms = { ...previous.histograms };
        addHistograms(histograms, group.histograms);
        groups[groups.length - 1] = { tMs: Math.max(previous.tMs, group.tMs), counters: group.counters, histograms };
      } else groups.push(group);
    }
    const points = groups.map(
      (g): TimeSeriesPoint => ({ tMs: g.tMs, counters: g.counters, latency: latencyOf(g.histograms) }),
    );
    return { intervalMs: spanMs, points };
  }

  /** Halves the points: each pair becomes one point covering both spans. */
  private fold(): void {
    const folded = new Map<number, Point>();
    for (const [position, point] of this.points) {
      const into = folded.get(Math.floor(position / 2));
      if (!into) {
        folded.set(Math.floor(position / 2), point);
        continue;
      }
      into.tMs = Math.max(into.tMs, point.tMs);
      for (const [process, latest] of point.counters) {
        const known = into.counters.get(process);
        if (!known || known.tick < latest.tick) into.counters.set(process, latest);
      }
      addHistograms(into.histograms, point.histograms);
    }
    this.points = folded;
    this.ticksPerPoint *= 2;
  }
}

/** Adds each histogram of `more` into the one of its name in `into` (exactly: counts add up). */
function addHistograms(into: Record<string, EncodedHistogram>, more: Record<string, EncodedHistogram>): void {
  for (const [name, encoded] of Object.entries(more)) {
    const known = into[name];
    into[name] = known ? mergeEncoded([known, encoded]) : encoded;
  }
}

function sum(sets: Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const set of sets) for (const [name, value] of Object.entries(set)) total[name] = (total[name] ?? 0) + value;
  return total;
}

function latencyOf(histograms: Record<string, EncodedHistogram>): TimeSeriesPoint['latency'] {
  const latency: TimeSeriesPoint['latency'] = {};
  for (const [name, encoded] of Object.entries(histograms)) {
    const summary = summarizeEncoded(encoded);
    if (summary) {
      const { count, p50Ms, p99Ms, maxMs, meanMs, p90Ms, p999Ms } = summary;
      // Every statistic a primary latency may name, so its interval can be read interval by interval (src/parent/stats/).
      latency[name] = { count, p50Ms, p99Ms, maxMs, meanMs, p90Ms, p999Ms };
    }
  }
  return latency;
}

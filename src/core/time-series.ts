/**
 * Builds a cell's time series from the clients' progress messages: counters
 * summed over processes, and the latency of each interval merged exactly from
 * the processes' interval histograms. Each client sends one message per
 * interval while its window is open and a last one when it reports, so the
 * series reaches the window's end and its counters add up to the cell's.
 * Long runs are folded into at most MAX_POINTS points so a 10-hour run stays a
 * readable file.
 */
import type { EncodedHistogram, TimeSeries, TimeSeriesPoint } from '../result-types.js';
import type { ProgressTick } from './ipc.js';
import { decodeHistogram, newHistogram, summarizeHistogram } from './metrics.js';

const MAX_POINTS = 900;
/** Windows shorter than this are sampled every SHORT_INTERVAL_MS, so a 2 s cell still gets a curve. */
const SHORT_WINDOW_MS = 10_000;
const SHORT_INTERVAL_MS = 100;
const LONG_INTERVAL_MS = 1000;

/**
 * The progress interval of a cell whose window is expected to last `expectedWindowMs`
 * (undefined: unknown, e.g. a scenario that ends by itself with no duration). An
 * unknown length gets the long interval: a 100 ms tick over hours would hold a
 * hundred thousand interval histograms in memory before folding.
 */
export function progressIntervalMs(expectedWindowMs: number | undefined): number {
  return expectedWindowMs !== undefined && expectedWindowMs > 0 && expectedWindowMs < SHORT_WINDOW_MS ? SHORT_INTERVAL_MS : LONG_INTERVAL_MS;
}

interface Tick {
  /** Cumulative counters, by process index. */
  counters: Map<number, Record<string, number>>;
  intervals: Record<string, EncodedHistogram>[];
  /** Latest window time at which a process read these counters. */
  tMs: number;
}

export class TimeSeriesCollector {
  private readonly ticks = new Map<number, Tick>();

  /** `intervalMs`: the progress interval the clients were given. */
  constructor(readonly intervalMs: number) {}

  add(processIndex: number, message: ProgressTick): void {
    let tick = this.ticks.get(message.tick);
    if (!tick) {
      tick = { counters: new Map(), intervals: [], tMs: 0 };
      this.ticks.set(message.tick, tick);
    }
    tick.counters.set(processIndex, message.counters);
    tick.intervals.push(message.intervals);
    tick.tMs = Math.max(tick.tMs, message.tMs ?? message.tick * this.intervalMs);
  }

  build(): TimeSeries | undefined {
    const numbers = [...this.ticks.keys()].sort((a, b) => a - b);
    if (numbers.length === 0) return undefined;
    const perPoint = Math.ceil(numbers.at(-1)! / MAX_POINTS);
    const latest = new Map<number, Record<string, number>>();
    const groups: Array<{ tMs: number; counters: Record<string, number>; ticks: Tick[] }> = [];
    let ticks: Tick[] = [];
    for (const number of numbers) {
      const tick = this.ticks.get(number)!;
      // A process that missed a tick still has its last cumulative counters.
      for (const [process, counters] of tick.counters) latest.set(process, counters);
      ticks.push(tick);
      if (number % perPoint !== 0 && number !== numbers.at(-1)) continue;
      const group = { tMs: Math.round(Math.max(...ticks.map((t) => t.tMs))), counters: sum([...latest.values()]), ticks };
      const previous = groups.at(-1);
      // A last message that lands just after a full interval (clients' timers are not
      // in step) would make a sliver of a point with a wild rate: it joins the point before.
      if (previous && group.tMs - previous.tMs < (this.intervalMs * perPoint) / 2) {
        groups[groups.length - 1] = { tMs: Math.max(previous.tMs, group.tMs), counters: group.counters, ticks: [...previous.ticks, ...ticks] };
      } else groups.push(group);
      ticks = [];
    }
    const points = groups.map((g): TimeSeriesPoint => ({ tMs: g.tMs, counters: g.counters, latency: mergeIntervals(g.ticks) }));
    return { intervalMs: this.intervalMs * perPoint, points };
  }
}

function sum(sets: Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const set of sets) for (const [name, value] of Object.entries(set)) total[name] = (total[name] ?? 0) + value;
  return total;
}

function mergeIntervals(group: Tick[]): TimeSeriesPoint['latency'] {
  const merged = new Map<string, ReturnType<typeof newHistogram>>();
  for (const tick of group) {
    for (const intervals of tick.intervals) {
      for (const [name, encoded] of Object.entries(intervals)) {
        if (!merged.has(name)) merged.set(name, newHistogram());
        merged.get(name)!.add(decodeHistogram(encoded));
      }
    }
  }
  const latency: TimeSeriesPoint['latency'] = {};
  for (const [name, histogram] of merged) {
    const summary = summarizeHistogram(histogram);
    if (summary) latency[name] = { count: summary.count, p50Ms: summary.p50Ms, p99Ms: summary.p99Ms, maxMs: summary.maxMs };
  }
  return latency;
}

/**
 * Builds a cell's time series from the clients' once-a-second progress messages:
 * counters summed over processes, and the latency of each interval merged
 * exactly from the processes' interval histograms. Long runs are folded into at
 * most MAX_POINTS points so a 10-hour run stays a readable file.
 */
import type { EncodedHistogram, TimeSeries, TimeSeriesPoint } from '../result-types.js';
import type { ProgressMessage } from './ipc.js';
import { decodeHistogram, newHistogram, summarizeHistogram } from './metrics.js';

const MAX_POINTS = 900;

interface Tick {
  /** Cumulative counters, by process index. */
  counters: Map<number, Record<string, number>>;
  intervals: Record<string, EncodedHistogram>[];
}

export class TimeSeriesCollector {
  private readonly ticks = new Map<number, Tick>();

  constructor(private readonly intervalMs: number) {}

  add(processIndex: number, message: ProgressMessage): void {
    let tick = this.ticks.get(message.tick);
    if (!tick) {
      tick = { counters: new Map(), intervals: [] };
      this.ticks.set(message.tick, tick);
    }
    tick.counters.set(processIndex, message.counters);
    tick.intervals.push(message.intervals);
  }

  build(): TimeSeries | undefined {
    const numbers = [...this.ticks.keys()].sort((a, b) => a - b);
    if (numbers.length === 0) return undefined;
    const perPoint = Math.ceil(numbers.at(-1)! / MAX_POINTS);
    const latest = new Map<number, Record<string, number>>();
    const points: TimeSeriesPoint[] = [];
    let group: Tick[] = [];
    for (const number of numbers) {
      const tick = this.ticks.get(number)!;
      // A process that missed a tick still has its last cumulative counters.
      for (const [process, counters] of tick.counters) latest.set(process, counters);
      group.push(tick);
      if (number % perPoint !== 0 && number !== numbers.at(-1)) continue;
      points.push({ tMs: number * this.intervalMs, counters: sum([...latest.values()]), latency: mergeIntervals(group) });
      group = [];
    }
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

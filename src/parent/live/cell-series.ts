/**
 * What a live view knows of one cell run while it goes on, built from the
 * clients' progress messages as the engine passes them on (tick events): the
 * counters summed over processes, the latency of the window so far (every
 * interval histogram merged, exactly), and the window interval by interval.
 *
 * Memory stays bounded however long the window: a tick's interval histograms
 * are merged over processes while its stragglers may still come in, then kept
 * as one encoded histogram per point, and past MAX_LIVE_POINTS points
 * neighbours are merged pairwise (exactly: their histograms add up), so a point
 * covers twice the time. The result file's own time series is built by the
 * engine, not from here.
 */
import type {
  EncodedHistogram,
  IntervalLatency,
  TimeSeries,
  TimeSeriesPoint,
} from '../../shared/types/result-types.js';
import type { ProgressTick } from '../../shared/measure/time-series.js';
import {
  decodeHistogram,
  encodeHistogram,
  mergeEncoded,
  newHistogram,
  summarizeEncoded,
  summarizeHistogram,
  sumCounterSets,
} from '../../shared/measure/metrics.js';

type Histogram = ReturnType<typeof newHistogram>;

/** Points a live series holds at most before it folds pairs of them. */
export const MAX_LIVE_POINTS = 600;
/**
 * A tick stays open to other processes' reports of it until the window has moved
 * on this far past it: clients send about once a second, so a healthy one is in.
 */
const OPEN_TICK_MS = 2500;

/** Samples of some span of the window, merged; their statistics are kept until more samples come. */
interface Span {
  tMs: number;
  histograms: Map<string, Histogram>;
  /** The statistics of `histograms`; undefined when they changed since (percentiles cost a walk of each histogram). */
  latency?: Record<string, IntervalLatency>;
}

interface OpenTick extends Span {
  /** Cumulative counters of each process that reported this tick. */
  counters: Map<number, Record<string, number>>;
}

interface LivePoint extends TimeSeriesPoint {
  encoded: Record<string, EncodedHistogram>;
}

export class LiveCellSeries {
  /** Client counters summed over processes, each process's latest: the cell's counters so far. */
  counters: Record<string, number> = {};
  /** Window time the latest report covers, in ms since the window opened. */
  windowMs = 0;
  /** Every latency sample of the window so far, per histogram, merged over processes. */
  readonly window = new Map<string, Histogram>();
  private readonly open = new Map<number, OpenTick>();
  private readonly points: LivePoint[] = [];
  /** Settled ticks not yet making up a whole point (a point holds `ticksPerPoint` ticks). */
  private pending: (Span & { ticks: number }) | null = null;
  /** Ticks per point: doubles with each fold, so folding costs a constant share of the work per tick. */
  private ticksPerPoint = 1;
  /** Each process's cumulative counters as of the last settled tick: carried into later points. */
  private readonly settledCounters = new Map<number, Record<string, number>>();
  private lastSettledTick = 0;

  /** One tick event: the summed counters, and the progress message of the process that sent it. */
  add(counters: Record<string, number>, progress: { process: number; ticks: ProgressTick[] } | undefined): void {
    this.counters = counters;
    for (const tick of progress?.ticks ?? []) {
      const tMs = tick.tMs ?? 0;
      this.windowMs = Math.max(this.windowMs, tMs);
      const decoded = Object.entries(tick.intervals).map(
        ([name, encoded]) => [name, decodeHistogram(encoded)] as const,
      );
      for (const [name, histogram] of decoded) {
        if (!this.window.has(name)) this.window.set(name, newHistogram());
        this.window.get(name)!.add(histogram);
      }
      // A straggler of a tick already settled still counts in the window, not in its point.
      if (tick.tick <= this.lastSettledTick) continue;
      let open = this.open.get(tick.tick);
      if (!open) this.open.set(tick.tick, (open = { tMs, counters: new Map(), histograms: new Map() }));
      open.tMs = Math.max(open.tMs, tMs);
      open.counters.set(progress!.process, tick.counters);
      for (const [name, histogram] of decoded) addInto(open.histograms, name, histogram);
      delete open.latency;
    }
    this.settle(false);
  }

  /** Settles every open tick (the cell ended: nothing more will come). */
  finish(): void {
    this.settle(true);
  }

  /**
   * What a page keeps of the cell once it ended: its series folded (exactly)
   * to at most `maxPoints` points, and its window's histograms encoded. The
   * live histograms can then go.
   */
  kept(maxPoints: number): { timeSeries: TimeSeries | undefined; histograms: Record<string, EncodedHistogram> } {
    this.finish();
    while (this.points.length > maxPoints) this.fold();
    const histograms: Record<string, EncodedHistogram> = {};
    for (const [name, histogram] of this.window)
      if (histogram.totalCount > 0) histograms[name] = encodeHistogram(histogram);
    return { timeSeries: this.timeSeries(), histograms };
  }

  /** The series as the report's over-time charts read it: settled points, then the ticks still open as they stand. */
  timeSeries(): TimeSeries | undefined {
    const carried = new Map(this.settledCounters);
    const pending = this.pending ? [chartPoint(this.pending, sumCounterSets([...carried.values()]))] : [];
    const open = this.openTicks().map(([, tick]) => {
      for (const [process, counters] of tick.counters) carried.set(process, counters);
      return chartPoint(tick, sumCounterSets([...carried.values()]));
    });
    const points: TimeSeriesPoint[] = [
      ...this.points.map(({ tMs, counters, latency }) => ({ tMs, counters, latency })),
      ...pending,
      ...open,
    ];
    if (points.length === 0) return undefined;
    const intervalMs = Math.round(points.at(-1)!.tMs / points.length);
    return { intervalMs: Math.max(1, intervalMs), points };
  }

  private openTicks(): Array<[number, OpenTick]> {
    return [...this.open].sort(([a], [b]) => a - b);
  }

  private settle(all: boolean): void {
    for (const [number, tick] of this.openTicks()) {
      if (!all && this.windowMs - tick.tMs < OPEN_TICK_MS) break;
      this.open.delete(number);
      this.lastSettledTick = number;
      for (const [process, counters] of tick.counters) this.settledCounters.set(process, counters);
      // A point of one tick is that tick, statistics and all; a second tick changes them.
      const pending = (this.pending ??= {
        tMs: 0,
        histograms: new Map(),
        ticks: 0,
        ...(tick.latency ? { latency: tick.latency } : {}),
      });
      if (pending.ticks > 0) delete pending.latency;
      pending.tMs = Math.max(pending.tMs, tick.tMs);
      for (const [name, histogram] of tick.histograms) addInto(pending.histograms, name, histogram);
      if (++pending.ticks >= this.ticksPerPoint) this.closePending();
    }
    if (all) this.closePending();
    if (this.points.length > MAX_LIVE_POINTS) this.fold();
  }

  private closePending(): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    const encoded: Record<string, EncodedHistogram> = {};
    for (const [name, histogram] of pending.histograms) encoded[name] = encodeHistogram(histogram);
    this.points.push({ ...chartPoint(pending, sumCounterSets([...this.settledCounters.values()])), encoded });
  }

  /** Halves the points: each pair becomes one point covering both intervals, histograms added. */
  private fold(): void {
    const folded: LivePoint[] = [];
    for (let i = 0; i < this.points.length; i += 2) {
      const first = this.points[i]!;
      const second = this.points[i + 1];
      if (!second) {
        folded.push(first);
        continue;
      }
      const names = new Set([...Object.keys(first.encoded), ...Object.keys(second.encoded)]);
      const encoded: Record<string, EncodedHistogram> = {};
      const latency: Record<string, IntervalLatency> = {};
      for (const name of names) {
        encoded[name] = mergeEncoded(
          [first.encoded[name], second.encoded[name]].filter((e): e is EncodedHistogram => e !== undefined),
        );
        const summary = pointLatency(summarizeEncoded(encoded[name]));
        if (summary) latency[name] = summary;
      }
      folded.push({ tMs: second.tMs, counters: second.counters, encoded, latency });
    }
    this.points.splice(0, this.points.length, ...folded);
    this.ticksPerPoint *= 2;
  }
}

/** Merges `histogram` into the set's one of that name; the first of a name is taken as it is (it belongs to no one else). */
function addInto(set: Map<string, Histogram>, name: string, histogram: Histogram): void {
  const target = set.get(name);
  if (target) target.add(histogram);
  else set.set(name, histogram);
}

/** A span as a chart point: the latency of its samples (kept with the span), and the counters as they stood at its end. */
function chartPoint(span: Span, counters: Record<string, number>): TimeSeriesPoint {
  if (!span.latency) {
    span.latency = {};
    for (const [name, histogram] of span.histograms) {
      const summary = intervalLatency(histogram);
      if (summary) span.latency[name] = summary;
    }
  }
  return { tMs: Math.round(span.tMs), counters, latency: span.latency };
}

/** The statistics a time-series point keeps; null for an interval with no samples. */
function intervalLatency(histogram: Histogram): IntervalLatency | null {
  return pointLatency(summarizeHistogram(histogram));
}

function pointLatency(summary: ReturnType<typeof summarizeHistogram>): IntervalLatency | null {
  return summary ? { count: summary.count, p50Ms: summary.p50Ms, p99Ms: summary.p99Ms, maxMs: summary.maxMs } : null;
}

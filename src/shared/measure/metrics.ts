/**
 * HDR histograms and counters: record in-process with no IPC, encode once at the
 * end, merge exactly in the orchestrator.
 */
import type { Counter, MetricsApi, Recorder, SizeRecorder } from '../types/scenario-types.js';
import type { EncodedHistogram, LatencySummary, SizeSummary } from '../types/result-types.js';
import { BucketTally } from './bucket-tally.js';
import {
  decodeHistogram,
  encodeHistogram,
  fillFromEncoded,
  mergeBucketCounts,
  newHistogram,
  type Histogram,
} from './histogram-codec.js';

export { decodeHistogram, encodeHistogram, HISTOGRAM_OPTIONS, newHistogram } from './histogram-codec.js';

/** Sub-microsecond values still count as a sample: they land in the 1 µs bucket. */
function toRecordable(valueUs: number): number {
  return valueUs < 1 ? 1 : Math.round(valueUs);
}

/** Exact merge: bucket counts add up, so percentiles of the merge are those of all samples. */
export function mergeEncoded(parts: EncodedHistogram[]): EncodedHistogram {
  const counted = mergeBucketCounts(parts);
  if (counted) return counted;
  const merged = newHistogram();
  for (const part of parts) merged.add(decodeHistogram(part));
  return encodeHistogram(merged, parts[0]?.unit ?? 'us');
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;
const usToMs = (valueUs: number): number => round3(valueUs / 1000);

/** Statistics of a histogram that holds samples; null for an empty one ("no samples", never 0 ms). */
export function summarizeHistogram(histogram: Histogram): LatencySummary | null {
  const count = histogram.totalCount;
  if (count === 0) return null;
  return {
    count,
    minMs: usToMs(histogram.minNonZeroValue),
    meanMs: usToMs(histogram.mean),
    stdevMs: usToMs(histogram.stdDeviation),
    p50Ms: usToMs(histogram.getValueAtPercentile(50)),
    p90Ms: usToMs(histogram.getValueAtPercentile(90)),
    p99Ms: usToMs(histogram.getValueAtPercentile(99)),
    p999Ms: usToMs(histogram.getValueAtPercentile(99.9)),
    maxMs: usToMs(histogram.maxValue),
  };
}

/** Filled in place by each summary: the orchestrator summarises every point of a time series, hundreds at a time when one folds. */
let summaryHistogram: Histogram | null = null;

export function summarizeEncoded(encoded: EncodedHistogram): LatencySummary | null {
  const histogram = (summaryHistogram ??= newHistogram());
  return summarizeHistogram(fillFromEncoded(histogram, encoded) ? histogram : decodeHistogram(encoded));
}

export function summarizeSizes(encoded: EncodedHistogram): SizeSummary | null {
  const histogram = decodeHistogram(encoded);
  const count = histogram.totalCount;
  if (count === 0) return null;
  return {
    count,
    minBytes: histogram.minNonZeroValue,
    meanBytes: Math.round(histogram.mean * 10) / 10,
    p50Bytes: histogram.getValueAtPercentile(50),
    p99Bytes: histogram.getValueAtPercentile(99),
    maxBytes: histogram.maxValue,
  };
}

/** Summaries of the latency histograms (unit us) of a set that hold samples. */
export function summarizeLatencies(set: Record<string, EncodedHistogram>): Record<string, LatencySummary> {
  return summarizeSet(set, 'us', summarizeEncoded);
}

/** Summaries of the size histograms (unit bytes) of a set that hold samples. */
export function summarizeSizeHistograms(set: Record<string, EncodedHistogram>): Record<string, SizeSummary> {
  return summarizeSet(set, 'bytes', summarizeSizes);
}

function summarizeSet<T>(
  set: Record<string, EncodedHistogram>,
  unit: EncodedHistogram['unit'],
  fn: (h: EncodedHistogram) => T | null,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [name, encoded] of Object.entries(set)) {
    if ((encoded.unit ?? 'us') !== unit) continue;
    const summary = fn(encoded);
    if (summary !== null) out[name] = summary;
  }
  return out;
}

/**
 * One process's named histograms and counters. A latency sample is counted once,
 * into its histogram's open interval (about a second, or a tenth of one in short
 * windows, for latency over time); taking the interval adds it to what the window
 * has recorded, and the report adds the interval still open.
 */
export class MetricsRegistry implements MetricsApi {
  private readonly histograms = new Map<string, BucketTally>();
  private readonly counters = new Map<string, { n: number }>();
  /** Sizes count into a tally too (every message, exactly): hdr-histogram-js's recordValue cost a receive path 3-6 % of its CPU. */
  private readonly sizes = new Map<string, BucketTally>();

  sizeHistogram(name: string): SizeRecorder {
    const target = entryOf(this.sizes, name, () => new BucketTally());
    // A zero-byte message is still a message: it lands in the 1-byte bucket.
    return { recordBytes: (bytes) => target.record(bytes < 1 ? 1 : Math.round(bytes)) };
  }

  histogram(name: string): Recorder {
    const target = entryOf(this.histograms, name, () => new BucketTally());
    return {
      recordUs(valueUs) {
        target.record(valueUs < 1 ? 1 : Math.round(valueUs));
      },
      // HdrHistogram's correction for coordinated omission: a sample that took k expected
      // intervals stands for the k - 1 that could not be sent meanwhile, each one interval shorter.
      recordUsWithInterval(valueUs, intervalUs) {
        const value = toRecordable(valueUs);
        const interval = Math.max(1, Math.round(intervalUs));
        target.record(value);
        for (let missed = value - interval; missed >= interval; missed -= interval) target.record(missed);
      },
    };
  }

  /** Encodes what each histogram recorded since the last call and starts a new interval; histograms with no new sample are left out. */
  takeIntervals(): Record<string, EncodedHistogram> {
    const taken: Record<string, EncodedHistogram> = {};
    for (const [name, tally] of this.histograms) {
      const interval = tally.takeInterval();
      if (interval) taken[name] = interval;
    }
    return taken;
  }

  counter(name: string): Counter {
    const target = entryOf(this.counters, name, () => ({ n: 0 }));
    return {
      add: (amount = 1) => {
        target.n += amount;
      },
      value: () => target.n,
    };
  }

  counterValues(): Record<string, number> {
    return Object.fromEntries([...this.counters].map(([name, cell]) => [name, cell.n]));
  }

  encodeAll(): Record<string, EncodedHistogram> {
    return Object.fromEntries([
      ...[...this.histograms].map(([name, tally]) => [name, tally.encodeAll()]),
      ...[...this.sizes].map(([name, tally]) => [name, { ...tally.encodeAll(), unit: 'bytes' as const }]),
    ]);
  }
}

/** The entry named `name`, made on first use: asking twice for a recorder gives two handles on one tally. */
function entryOf<T>(entries: Map<string, T>, name: string, make: () => T): T {
  let entry = entries.get(name);
  if (entry === undefined) {
    entry = make();
    entries.set(name, entry);
  }
  return entry;
}

/** Merges the same-named histograms of several processes. */
export function mergeHistogramSets(sets: Record<string, EncodedHistogram>[]): Record<string, EncodedHistogram> {
  const byName = new Map<string, EncodedHistogram[]>();
  for (const set of sets) {
    for (const [name, encoded] of Object.entries(set)) {
      byName.set(name, [...(byName.get(name) ?? []), encoded]);
    }
  }
  return Object.fromEntries([...byName].map(([name, parts]) => [name, mergeEncoded(parts)]));
}

/** Adds the same-named counters of several processes. */
export function sumCounterSets(sets: Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const set of sets) {
    for (const [name, value] of Object.entries(set)) total[name] = (total[name] ?? 0) + value;
  }
  return total;
}

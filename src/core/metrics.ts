/**
 * HDR histograms and counters: record in-process with no IPC, encode once at the
 * end, merge exactly in the orchestrator.
 */
import hdr from 'hdr-histogram-js';
import type { Counter, MetricsApi, Recorder, SizeRecorder } from '../scenario-types.js';
import type { EncodedHistogram, LatencySummary, SizeSummary } from '../result-types.js';
import { BucketTally } from './bucket-tally.js';

type Histogram = ReturnType<typeof hdr.build>;

/**
 * 1 µs .. 1 hour at 3 significant digits: 0.1% precision across the whole range. Shard results record these.
 * bucket-tally.ts lays its buckets out for these (lowest 1, 3 digits): change them together.
 */
export const HISTOGRAM_OPTIONS = {
  lowestDiscernibleValue: 1,
  highestTrackableValue: 3_600_000_000,
  numberOfSignificantValueDigits: 3 as const,
  autoResize: true,
  useWebAssembly: false,
};

export function newHistogram(): Histogram {
  return hdr.build(HISTOGRAM_OPTIONS);
}

/** Sub-microsecond values still count as a sample: they land in the 1 µs bucket. */
function toRecordable(valueUs: number): number {
  return valueUs < 1 ? 1 : Math.round(valueUs);
}

export function encodeHistogram(histogram: Histogram, unit: EncodedHistogram['unit'] = 'us'): EncodedHistogram {
  return { unit, hdrBase64: hdr.encodeIntoCompressedBase64(histogram) };
}

export function decodeHistogram(encoded: EncodedHistogram): Histogram {
  return hdr.decodeFromCompressedBase64(encoded.hdrBase64, 32, false);
}

/** Exact merge: bucket counts add up, so percentiles of the merge are those of all samples. */
export function mergeEncoded(parts: EncodedHistogram[]): EncodedHistogram {
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

export function summarizeEncoded(encoded: EncodedHistogram): LatencySummary | null {
  return summarizeHistogram(decodeHistogram(encoded));
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

function summarizeSet<T>(set: Record<string, EncodedHistogram>, unit: EncodedHistogram['unit'], fn: (h: EncodedHistogram) => T | null): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [name, encoded] of Object.entries(set)) {
    if ((encoded.unit ?? 'us') !== unit) continue;
    const summary = fn(encoded);
    if (summary !== null) out[name] = summary;
  }
  return out;
}

/**
 * One process's named histograms and counters. A sample is recorded once, into
 * the histogram of the current interval (about a second, for latency over
 * time); each interval is folded into the whole-window histogram when it is
 * taken, and the report adds the interval still open. One record per sample
 * instead of two halves the cost on the hot path of a load generator at full load.
 */
interface HistogramPair {
  whole: Histogram;
  interval: Histogram;
  /** recordUs() counts here; flushed into `interval` before it is read. */
  tally: BucketTally;
}

export class MetricsRegistry implements MetricsApi {
  private readonly histograms = new Map<string, HistogramPair>();
  private readonly counters = new Map<string, { n: number }>();
  private readonly sizes = new Map<string, Histogram>();

  sizeHistogram(name: string): SizeRecorder {
    let histogram = this.sizes.get(name);
    if (!histogram) {
      histogram = newHistogram();
      this.sizes.set(name, histogram);
    }
    const target = histogram;
    // A zero-byte message is still a message: it lands in the 1-byte bucket.
    return { recordBytes: (bytes) => target.recordValue(bytes < 1 ? 1 : Math.round(bytes)) };
  }

  histogram(name: string): Recorder {
    let pair = this.histograms.get(name);
    if (!pair) {
      const interval = newHistogram();
      pair = { whole: newHistogram(), interval, tally: new BucketTally(interval) };
      this.histograms.set(name, pair);
    }
    const { interval, tally } = pair;
    return {
      recordUs(valueUs) {
        tally.record(valueUs < 1 ? 1 : Math.round(valueUs));
      },
      recordUsWithInterval(valueUs, intervalUs) {
        interval.recordValueWithExpectedInterval(toRecordable(valueUs), Math.max(1, Math.round(intervalUs)));
      },
    };
  }

  /** Encodes what each histogram recorded since the last call, folds it into the whole window, and starts a new interval. */
  takeIntervals(): Record<string, EncodedHistogram> {
    const taken: Record<string, EncodedHistogram> = {};
    for (const [name, pair] of this.histograms) {
      pair.tally.flush();
      if (pair.interval.totalCount === 0) continue;
      taken[name] = encodeHistogram(pair.interval);
      pair.whole.add(pair.interval);
      pair.interval.reset();
    }
    return taken;
  }

  /** Everything a histogram recorded: the intervals taken so far plus the one still open (neither is changed). */
  private wholeOf(pair: HistogramPair): Histogram {
    pair.tally.flush();
    if (pair.interval.totalCount === 0) return pair.whole;
    const all = newHistogram();
    all.add(pair.whole);
    all.add(pair.interval);
    return all;
  }

  counter(name: string): Counter {
    let cell = this.counters.get(name);
    if (!cell) {
      cell = { n: 0 };
      this.counters.set(name, cell);
    }
    const target = cell;
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
      ...[...this.histograms].map(([name, pair]) => [name, encodeHistogram(this.wholeOf(pair))]),
      ...[...this.sizes].map(([name, histogram]) => [name, encodeHistogram(histogram, 'bytes')]),
    ]);
  }
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

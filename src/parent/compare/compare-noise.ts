/**
 * How much a compared number may move between two identical runs, read off
 * the data behind it: the histogram's shape around a percentile, the wander of
 * a rate interval by interval, and the spread between rounds.
 */
import { sampleStandardDeviation } from 'simple-statistics';
import type { HistogramStat } from '../../shared/types/declaration-types.js';
import { decodeHistogram } from '../../shared/measure/metrics.js';
import type { MeasuredCell } from '../../shared/types/result-types.js';
import { MIN_ROUNDS } from '../stats/round-spread.js';

type Histogram = ReturnType<typeof decodeHistogram>;

/** Rates are compared over spans of at least this long. */
const RATE_SPAN_MS = 1000;
/** Fewer per-interval rates than this say nothing about their spread. */
const MIN_INTERVALS = 3;
/**
 * The shortest window intervalRates reads MIN_INTERVALS rates from: MIN_INTERVALS - 1 spans of
 * RATE_SPAN_MS and a last one of at least half a span (2.5 s). A rate or CPU measured in one
 * shorter window has no measured run-to-run noise (see unmeasuredNoise).
 */
export const MIN_NOISE_WINDOW_MS = (MIN_INTERVALS - 0.5) * RATE_SPAN_MS;

/**
 * Which percentile's noise a histogram statistic gets. A percentile is itself;
 * the mean and the standard deviation describe the body of the distribution,
 * so they get the median's; max is the far tail, p99.9's; min the near end,
 * p1's (half of min..p68.7: the minimum rarely tells builds apart). A count
 * is no latency: it falls back to the 5% rule of rates.
 */
export const NOISE_PERCENTILE: Record<HistogramStat, number | null> = {
  p50: 50,
  p90: 90,
  p99: 99,
  p999: 99.9,
  mean: 50,
  stdev: 50,
  max: 99.9,
  min: 1,
  count: null,
};

/**
 * The noise of a percentile, read off the histogram it comes from.
 *
 * Latency samples are not independent (one GC pause or scheduler hiccup
 * delays a burst of them), so the textbook confidence interval of a quantile,
 * which shrinks with 1/sqrt(n), is far narrower than what two identical runs
 * differ by: with 10^4 samples it calls a 25% p50 swing between two runs of
 * the same build on this 2-core box "significant". What does predict how far
 * a percentile moves is how steep the distribution is around it: where a few
 * more or fewer samples in the tail shift the value a lot, the percentile is
 * noisy. So the noise at q is half the spread of values between the
 * percentiles half a "nine" either side of q (tail share (1-q) times and
 * divided by sqrt(10); for p99: p96.8 .. p99.68; for p50: min .. p84.2).
 * A compared change must exceed the larger of the two cells' noise.
 */
const HALF_NINE = Math.sqrt(10);

/** In the histogram's recorded unit (µs for latencies, bytes for sizes). */
export function percentileNoise(histogram: Histogram, percentile: number): number {
  const tail = 1 - percentile / 100;
  const lower = 1 - Math.min(1, tail * HALF_NINE);
  const upper = 1 - tail / HALF_NINE;
  return (histogram.getValueAtPercentile(upper * 100) - histogram.getValueAtPercentile(lower * 100)) / 2;
}

/** percentileNoise of a latency histogram (recorded in µs), in ms. */
export function percentileNoiseMs(histogram: Histogram, percentile: number): number {
  return percentileNoise(histogram, percentile) / 1000;
}

export interface Loaded {
  histogram: Histogram;
  /** Factor from the recorded unit to the metric's: µs -> ms, bytes stay. */
  toUnit: number;
}

export function histogramOf(cell: MeasuredCell, name: string, server: boolean): Loaded | null {
  const encoded = (server ? cell.measurements.serverHistograms : cell.measurements.histograms)[name];
  if (!encoded) return null;
  const histogram = decodeHistogram(encoded);
  return histogram.totalCount > 0 ? { histogram, toUnit: encoded.unit === 'bytes' ? 1 : 1 / 1000 } : null;
}

type RoundValues = ReadonlyArray<number | null | undefined> | undefined;

/**
 * Why a change of a rate or of the server's CPU can be no more than inconclusive, in a few words
 * for the test column ("window too short to measure its noise (0.3 s, 1 round)"); null when both
 * sides measured their noise. `*Rounds`: each side's per-round values of the compared number.
 */
export function unmeasuredSides(
  b: MeasuredCell,
  bRounds: RoundValues,
  n: MeasuredCell,
  nRounds: RoundValues,
): string | null {
  const base = unmeasuredNoise(b, bRounds);
  const next = unmeasuredNoise(n, nRounds);
  if (base === null && next === null) return null;
  const sides =
    base !== null && next !== null
      ? base === next
        ? base
        : `base ${base}; new ${next}`
      : base !== null
        ? `base ${base}`
        : `new ${next}`;
  return `window too short to measure its noise (${sides})`;
}

/**
 * What a side lacks to have measured how far two runs of it differ, in words ("0.3 s, 1 round"), or
 * null when it has it: MIN_ROUNDS rounds with a value of the compared number (`roundValues`), or
 * one window of MIN_NOISE_WINDOW_MS or more per round, long enough for intervalRates. Below both,
 * the only noise a rate or the server's CPU has is the 5% rule of thumb (or the max over mean of
 * two or three CPU samples), while 14 identical 0.3 s runs of echo on a busy 2-core box read 4166
 * to 6970 msg/s: no verdict may rest on that. A latency percentile is not judged by this: its band
 * comes from its histogram, however short the window.
 */
function unmeasuredNoise(cell: MeasuredCell, roundValues: RoundValues): string | null {
  const measuredRounds = (roundValues ?? []).filter((v) => typeof v === 'number' && Number.isFinite(v)).length;
  if (measuredRounds >= MIN_ROUNDS) return null;
  // A repeated cell's window adds its rounds' up; what one window could see is one round's share.
  const rounds = Math.max(1, cell.rounds?.length ?? 1);
  const windowMs = cell.measurements.windowMs / rounds;
  if (windowMs >= MIN_NOISE_WINDOW_MS) return null;
  return `${(windowMs / 1000).toFixed(1)} s, ${rounds} round${rounds === 1 ? '' : 's'}`;
}

/**
 * With --repeat: how much a metric varied between the cell's rounds (sample
 * standard deviation of the per-round values), 0 with fewer than MIN_ROUNDS.
 * Run-to-run spread is the most direct noise there is, so it raises any other floor.
 */
export function roundSpread(cell: MeasuredCell, key: string): number {
  const values = (cell.rounds ?? [])
    .map((r) => r.metrics?.[key])
    .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return values.length >= MIN_ROUNDS ? sampleStandardDeviation(values) : 0;
}

/** Per-interval rates (per second, scaled) of a client counter from the cell's time series, when it has enough intervals. */
export function intervalRates(cell: MeasuredCell, counter: string, scale: number): number[] | null {
  const points = cell.measurements.timeSeries?.points ?? [];
  if (points.some((p) => p.counters[counter] === undefined)) return null;
  const rates: number[] = [];
  let before = { tMs: 0, value: 0 };
  for (const point of points) {
    // Spans of at least a second: the spread of 100 ms rates (short windows are sampled that
    // finely) is mostly scheduling jitter, and would excuse a real drop in throughput as noise.
    if (point.tMs - before.tMs < RATE_SPAN_MS && point !== points.at(-1)) continue;
    const value = point.counters[counter]!;
    if (point.tMs - before.tMs >= RATE_SPAN_MS / 2)
      rates.push(((value - before.value) * scale * 1000) / (point.tMs - before.tMs));
    before = { tMs: point.tMs, value };
  }
  return rates.length >= MIN_INTERVALS ? rates : null;
}

/**
 * Recording: the recorders scenario code feeds (histograms, counters), and the
 * declarations that name them once with what they report, from which the
 * metric keys derive, as values (src/shared/scenario-kit/recorders.ts) and as types
 * (here), so a misspelt name is a compile error.
 */
import type { HistogramStat, MetricRole, MetricUnit, Side } from './declaration-types.js';

/** Records values into a named HDR histogram of this process. */
export interface Recorder {
  /** Records one value in microseconds. */
  recordUs(valueUs: number): void;
  /**
   * Records a value measured from an intended time on a fixed schedule:
   * backfills the samples a stall would have hidden (coordinated omission).
   */
  recordUsWithInterval(valueUs: number, expectedIntervalUs: number): void;
}

/** Records sizes into a named histogram of this process. */
export interface SizeRecorder {
  recordBytes(bytes: number): void;
}

/** A named counter of this process, summed over processes: `add()` counts, `value()` reads this process's total. */
export interface Counter {
  add(amount?: number): void;
  value(): number;
}

/** What every process running scenario code gets, server or client. */
export interface MetricsApi {
  /** A latency histogram, 1 µs .. 1 h, 3 significant digits. */
  histogram(name: string): Recorder;
  /** A histogram of sizes in bytes (e.g. message sizes), 3 significant digits. */
  sizeHistogram(name: string): SizeRecorder;
  counter(name: string): Counter;
}

// ---------------------------------------------------------------- declared recorders

/** The key suffix and header word of each statistic: rtt + P99Ms = rttP99Ms (latencies); messageBytes + P99 (sizes). */
export const STAT_KEYS = {
  count: { suffix: 'Samples', sizeSuffix: 'Samples', word: 'samples' },
  min: { suffix: 'MinMs', sizeSuffix: 'Min', word: 'min' },
  mean: { suffix: 'MeanMs', sizeSuffix: 'Mean', word: 'avg' },
  stdev: { suffix: 'StdevMs', sizeSuffix: 'Stdev', word: 'std' },
  p50: { suffix: 'P50Ms', sizeSuffix: 'P50', word: 'p50' },
  p90: { suffix: 'P90Ms', sizeSuffix: 'P90', word: 'p90' },
  p99: { suffix: 'P99Ms', sizeSuffix: 'P99', word: 'p99' },
  p999: { suffix: 'P999Ms', sizeSuffix: 'P999', word: 'p99.9' },
  max: { suffix: 'MaxMs', sizeSuffix: 'Max', word: 'max' },
} as const satisfies Record<HistogramStat, { suffix: string; sizeSuffix: string; word: string }>;

/** What a histogram holds: latencies (recorded in µs, reported in ms) or sizes in bytes. */
export type HistogramUnit = 'ms' | 'bytes';

/** A histogram as declared: the statistics it reports (made by `histogram()`). */
export interface HistogramDeclaration<
  S extends HistogramStat = HistogramStat,
  U extends HistogramUnit = HistogramUnit,
  Sd extends Side = Side,
> {
  readonly recorder: 'histogram';
  readonly stats: readonly S[];
  readonly primary: readonly S[];
  readonly unit: U;
  readonly side: Sd;
  readonly label?: string;
  readonly description?: string;
}

/** One metric a counter reports, its total or its rate; `key` replaces the derived key. */
export interface CounterReport {
  key?: string;
  header?: string;
  role?: MetricRole;
  better?: 'lower' | 'higher' | 'none';
  description?: string;
  acrossRounds?: 'min' | 'max' | 'mean' | 'sum';
}

/** A counter's rate: a report with its unit and scale. */
export interface CounterRateReport extends CounterReport {
  unit?: MetricUnit;
  scale?: number;
}

/** A counter as declared: the metrics it reports (made by `counter()`). */
export interface CounterDeclaration<T extends string = string, R extends string = string, Sd extends Side = Side> {
  readonly recorder: 'counter';
  readonly total: CounterReport | null;
  readonly rate: CounterRateReport | null;
  readonly side: Sd;
  /** Type only, never set: the keys of its total and its rate, `*` standing for the counter's name. */
  readonly keys?: { total: T; rate: R };
}

export type RecorderDeclaration = HistogramDeclaration | CounterDeclaration;
export type RecorderDeclarations = Record<string, RecorderDeclaration>;

type Named<N extends string, K extends string> = K extends `*${infer Rest}` ? `${N}${Rest}` : K;
type StatSuffix<S extends HistogramStat, U> = U extends 'bytes'
  ? (typeof STAT_KEYS)[S]['sizeSuffix']
  : (typeof STAT_KEYS)[S]['suffix'];

/** The metric keys declaration `Decl` named `N` derives. */
export type DeclaredKeys<N extends string, Decl> =
  Decl extends HistogramDeclaration<infer S, infer U, Side>
    ? `${N}${StatSuffix<S, U>}`
    : Decl extends CounterDeclaration<infer T, infer R, Side>
      ? Named<N, T> | Named<N, R>
      : never;

/** Every metric key the recorders `R` derive. */
export type RecorderKeys<R> = { [N in keyof R & string]: DeclaredKeys<N, R[N]> }[keyof R & string];

/** The histograms the recorders `R` declare, by name (what chart requests may name). */
export type DeclaredHistograms<R> = { [N in keyof R & string]: R[N] extends HistogramDeclaration ? N : never }[keyof R &
  string];

/** The recorder a declaration hands the code that records. */
export type RecorderFor<Decl> = Decl extends { recorder: 'histogram'; unit: infer U }
  ? U extends 'bytes'
    ? SizeRecorder
    : Recorder
  : Counter;

/** `ctx.recorders` of one half: the recorders `R` declares for side `S`, by name. */
export type RecordersOf<R, S extends Side> = {
  readonly [N in keyof R as R[N] extends { side: infer D } ? (S extends D ? N : never) : never]: RecorderFor<R[N]>;
};

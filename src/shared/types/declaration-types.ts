/**
 * What a scenario declares about itself as plain data: its parameters, what each
 * metric means, and which charts it wants. These travel into the result JSON, so
 * every reporter reads meaning from here and never from a metric's name.
 * This file imports nothing: every other type file builds on it.
 */

// ---------------------------------------------------------------- parameters

/** A duration with its unit, as code may write it: '500ms', '5s', '1.5m', '10h'. */
export type DurationText = `${number}${'us' | 'ms' | 's' | 'm' | 'h'}`;
/** A size with its unit: '32b', '4kb', '64KiB', '1MiB' (a plain number is bytes). */
export type SizeText =
  `${number}${'b' | 'kb' | 'mb' | 'gb' | 'KB' | 'MB' | 'GB' | 'KiB' | 'MiB' | 'GiB' | 'kib' | 'mib' | 'gib'}`;

interface ParameterBase {
  description: string;
  /** Accepts several values (an array in code, a comma list on the command line); each becomes its own cell. */
  sweepable?: boolean;
}

export interface IntegerParameter extends ParameterBase {
  kind: 'integer';
  default: number;
  min?: number;
  max?: number;
  /**
   * 'processes': a count the client processes split among themselves with ctx.share() (connections,
   * members). A sharded run whose shard would get none of it is refused before anything starts: that
   * shard would measure nothing, over a window that ends at once.
   */
  spread?: 'processes';
}

export interface NumberParameter extends ParameterBase {
  kind: 'number';
  default: number;
  min?: number;
  max?: number;
}

/** Held in milliseconds; code may also write '5s'. */
export interface DurationParameter extends ParameterBase {
  kind: 'duration';
  default: number | DurationText;
  min?: number | DurationText;
  max?: number | DurationText;
}

/** How a scenario words and bounds the `duration` parameter wsbench gives every scenario, where it differs. */
export type DurationOverride = Partial<Pick<DurationParameter, 'description' | 'default' | 'min' | 'max'>>;

/** Held in bytes; code may also write '4kb'. */
export interface SizeParameter extends ParameterBase {
  kind: 'size';
  default: number | SizeText;
  min?: number | SizeText;
  max?: number | SizeText;
}

export interface BooleanParameter extends ParameterBase {
  kind: 'boolean';
  default: boolean;
}

/** One of a fixed list of words; the value's type is the union of the choices. */
export interface ChoiceParameter<C extends string = string> extends ParameterBase {
  kind: 'choice';
  choices: readonly C[];
  default: C;
}

export interface StringParameter extends ParameterBase {
  kind: 'string';
  default: string;
}

/**
 * How the load changes within the window (src/shared/parsing/stages.ts): held as text, `30s:1000,1m:5000`,
 * '' for none; code and test plans may also give a list of `{ duration, target }`. When a scenario's
 * stages parameter is set, the window lasts their total and every stage is reported on its own.
 * What a target counts is the scenario's to say (its description). One value, never a sweep.
 */
export interface StagesParameter extends ParameterBase {
  kind: 'stages';
  default: '';
  sweepable?: false;
}

export type ParameterSpec =
  | IntegerParameter
  | NumberParameter
  | DurationParameter
  | SizeParameter
  | BooleanParameter
  | ChoiceParameter
  | StringParameter
  | StagesParameter;

export type ParameterKind = ParameterSpec['kind'];

export type ParameterDeclarations = Record<string, ParameterSpec>;

/** A parameter's value once validated: durations in ms, sizes in bytes. */
export type ParameterValue<S extends ParameterSpec> = S extends BooleanParameter
  ? boolean
  : S extends ChoiceParameter<infer C>
    ? C
    : S extends StringParameter | StagesParameter
      ? string
      : number;

/** Every parameter of a scenario, validated; inferred from its declarations. */
export type ParamsOf<D extends ParameterDeclarations> = { readonly [K in keyof D]: ParameterValue<D[K]> };

/** What code may pass for one value: durations and sizes also as text with a unit. */
export type ParameterInput<S extends ParameterSpec> = S extends DurationParameter
  ? number | DurationText
  : S extends SizeParameter
    ? number | SizeText
    : S extends StagesParameter
      ? string | ReadonlyArray<{ duration: DurationText; target: number }>
      : ParameterValue<S>;

/** Parameters as code passes them: any subset; an array sweeps a sweepable parameter. */
export type ParamInputs<D extends ParameterDeclarations> = {
  [K in keyof D]?: ParameterInput<D[K]> | ReadonlyArray<ParameterInput<D[K]>>;
};

/** Validated values of one cell, as they travel to child processes and into the JSON. */
export type ParamValues = Readonly<Record<string, number | boolean | string>>;

/** A parameter as the result JSON records it: defaults and bounds in ms and bytes. */
export interface ParameterInfo {
  kind: ParameterKind;
  description: string;
  default: number | boolean | string;
  min?: number;
  max?: number;
  choices?: readonly string[];
  sweepable?: boolean;
}

// ---------------------------------------------------------------- metrics

/**
 * The unit a metric is in; reporters format and label axes from it. A result file may hold a unit not listed
 * here (a JavaScript scenario's, unchecked by tsc): it is shown as written.
 * @open
 */
export type MetricUnit =
  | 'ms'
  | 'us'
  | 'count'
  | 'msg/s'
  | '/s'
  | 'bytes'
  | 'KB'
  | 'MB'
  | 'bytes/s'
  | 'MB/s'
  | '%'
  | 'ratio';

/**
 * What a metric is for:
 * - `primary-latency`: a headline latency; compared by `compare` (noise read off its histogram)
 *   and drawn by default.
 * - `primary-rate`: the headline throughput; compared, and shown live while a cell runs.
 * - `progress`: shown live while a cell runs, not compared.
 * - `cost`: what a unit of work costs the machine (CPU µs per message, memory per connection); given an
 *   interval from the rounds, ranked in "what to pick" and compared like the primary numbers.
 * - `errors`: something going wrong; any increase fails a compare.
 * - `detail`: recorded and shown where the scenario asks, nothing more.
 */
export type MetricRole = 'primary-latency' | 'primary-rate' | 'cost' | 'progress' | 'errors' | 'detail';

/** A statistic of an HDR histogram. Latencies come out in ms, sizes in bytes. */
export type HistogramStat = 'count' | 'min' | 'mean' | 'stdev' | 'p50' | 'p90' | 'p99' | 'p999' | 'max';

/** Which process measured a histogram or counter. */
export type Side = 'client' | 'server';

/** A statistic of a histogram the scenario records. No samples: the metric is null, with that reason. */
export interface HistogramSource {
  histogram: string;
  stat: HistogramStat;
  /** Default client (merged over client processes). */
  side?: Side;
}

/** A counter's total, or its rate over the measurement window. */
export interface CounterSource {
  counter: string;
  side?: Side;
  /** `total` (default) or `rate`: total divided by the window in seconds. */
  as?: 'total' | 'rate';
  /** Multiplies the value, e.g. 1e-6 to turn bytes/s into MB/s. */
  scale?: number;
}

/** CPU or memory of the server process, or of all client processes together. */
export interface ResourceSource {
  resource: 'server' | 'clients';
  stat: 'cpuMean' | 'cpuMax' | 'rssMax' | 'rssMean';
}

/** Computed by the scenario's own function; `custom` says how, in words. */
export interface CustomSource {
  custom: string;
}

/** Where a metric's value comes from, as the result JSON records it. */
export type MetricSource = HistogramSource | CounterSource | ResourceSource | CustomSource;

/** One metric as the result JSON declares it. */
export interface MetricInfo {
  /** Column header in the table and compare, e.g. "p99 ms". */
  header: string;
  unit: MetricUnit;
  /** Which way is better; `none` for facts that are neither (a count of connections). */
  better: 'lower' | 'higher' | 'none';
  role: MetricRole;
  source: MetricSource;
  /** One sentence, when the header is not enough. */
  description?: string;
  /**
   * With --repeat, a metric is computed once from all rounds pooled (histograms
   * merged, counters and windows added). A metric that is an extreme or a ratio
   * of one round (a largest message, a rate over a known stream length) cannot be
   * pooled that way: it takes the min, max, mean or sum of the rounds' own values.
   */
  acrossRounds?: 'min' | 'max' | 'mean' | 'sum';
}

// ---------------------------------------------------------------- charts

/**
 * A histogram named in a chart request. A plain name is a client-side histogram;
 * `{ histogram, side: 'server' }` one the server recorded. `H`: the names a scenario declared
 * (any string when it declared them as plain strings).
 */
export type HistogramRef<H extends string = string> = H | { histogram: H; side: Side };

/**
 * The chart kinds a scenario can ask for. Each is drawn from the result JSON by a
 * generic builder; a kind whose data a result lacks is left out, never drawn empty.
 * `K`, `H` and `P` are the scenario's metric keys, histogram names and parameter names:
 * defineScenario() fills them in, so a misspelt one is a compile error.
 * A result file may hold a kind this wsbench does not draw (a newer wsbench's) or a request of the wrong
 * shape: `report` names each as not drawn and draws the rest, so the file needs only a `kind`.
 * @open
 */
export type ChartRequest<K extends string = string, H extends string = string, P extends string = string> =
  /** HDR percentile curves, one line per cell, one panel per histogram. */
  | { kind: 'percentiles'; histograms: HistogramRef<H>[]; title?: string }
  /** Server x client squares coloured by each metric (one panel per metric). */
  | { kind: 'heatmap'; metrics: K[]; title?: string }
  /** Per-interval latency of a histogram and/or per-interval rates of counter-rate metrics. */
  | { kind: 'over-time'; histogram?: H; rates?: K[]; title?: string }
  /** Cells arranged by two parameters (rows x columns): percentile curves and mean bars per pair. */
  | { kind: 'grid'; rows: P; columns: P; histogram: H; label?: K; title?: string }
  /**
   * Values against one parameter: metrics as lines (numeric parameter) or bars; histograms as
   * box plots, one panel per parameter value.
   */
  | { kind: 'by-parameter'; parameter: P; metrics?: K[]; histograms?: H[]; title?: string }
  /**
   * Latency against offered load (the open model): p50, p99 and p99.9 of a client-side histogram against
   * each cell's offered rate, swept by `parameter`, one line per pair; cells that delivered (`delivered`, a
   * rate metric) less than offered are marked.
   */
  | { kind: 'offered-load'; parameter: P; histogram: H; delivered: K; title?: string }
  /** Distribution of a size histogram (unit bytes) by percentile. */
  | { kind: 'sizes'; histogram: H; title?: string }
  /**
   * How many samples of a latency histogram are at or below each value, against the value on a
   * linear axis, one line per cell: e.g. clients back against time since a server restart.
   */
  | { kind: 'cumulative'; histogram: H; title?: string }
  /** Server CPU and memory per cell. */
  | { kind: 'resources'; title?: string };

export type ChartKind = ChartRequest['kind'];

/** One stage of `stages`: the load goes in a line to `target` over `durationMs`. */
export interface Stage {
  /** How long the stage lasts, in ms (at least MIN_STAGE_MS). */
  durationMs: number;
  /** Where the load stands at the stage's end. */
  target: number;
}

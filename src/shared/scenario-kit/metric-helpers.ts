/**
 * Short ways to declare the usual metrics. Each returns plain MetricDefinition
 * objects, so a scenario can always write one out in full instead.
 */
import type { CounterSource, HistogramStat, MetricRole, MetricUnit, Side } from '../types/declaration-types.js';
import type { MetricDefinition } from '../types/scenario-types.js';
import { STAT_KEYS } from '../types/recorder-types.js';

type Suffix<S extends HistogramStat> = (typeof STAT_KEYS)[S]['suffix'];

/** Every statistic, in the order tables show them. */
export const ALL_STATS = ['p50', 'p90', 'p99', 'p999', 'max', 'mean', 'min', 'stdev', 'count'] as const;

export interface LatencyMetricOptions<S extends HistogramStat> {
  /** Statistics to declare, default ALL_STATS. */
  stats?: readonly S[];
  /** Statistics that are headline latencies (compared, charted by default). */
  primary?: readonly NoInfer<S>[];
  side?: Side;
  /** Header prefix, e.g. "WS" gives "WS p50 ms"; none by default. */
  label?: string;
  description?: string;
}

/**
 * Latency metrics of one histogram: `latencyMetrics('rtt', { primary: ['p50', 'p99'] })`
 * declares rttP50Ms ... rttMaxMs, rttMeanMs, rttSamples, each read from histogram `rtt`.
 */
export function latencyMetrics<const N extends string, const S extends HistogramStat = (typeof ALL_STATS)[number]>(
  histogram: N,
  options: LatencyMetricOptions<S> = {},
): { [K in S as `${N}${Suffix<K>}`]: MetricDefinition } {
  const stats = options.stats ?? (ALL_STATS as unknown as readonly S[]);
  const prefix = options.label ? `${options.label} ` : '';
  const entries = stats.map((stat) => {
    const counting = stat === 'count';
    const definition: MetricDefinition = {
      header: counting ? `${prefix}samples` : `${prefix}${STAT_KEYS[stat].word} ms`,
      unit: counting ? 'count' : 'ms',
      better: counting ? 'none' : 'lower',
      role: options.primary?.includes(stat) ? 'primary-latency' : 'detail',
      source: { histogram, stat, ...(options.side ? { side: options.side } : {}) },
      ...(options.description ? { description: options.description } : {}),
    };
    return [`${histogram}${STAT_KEYS[stat].suffix}`, definition];
  });
  return Object.fromEntries(entries) as { [K in S as `${N}${Suffix<K>}`]: MetricDefinition };
}

export interface CounterMetricOptions {
  role?: MetricRole;
  better?: 'lower' | 'higher' | 'none';
  side?: Side;
  description?: string;
}

/** A counter's total over the window: `total('errors', 'errors', { role: 'errors' })`. */
export function total(counter: string, header: string, options: CounterMetricOptions = {}): MetricDefinition {
  const role = options.role ?? 'detail';
  return counterMetric(
    { counter },
    header,
    'count',
    role,
    options.better ?? (role === 'errors' ? 'lower' : 'none'),
    options,
  );
}

/** A counter's rate over the window: `rate('received', 'msg/s', { unit: 'msg/s', role: 'primary-rate' })`. */
export function rate(
  counter: string,
  header: string,
  options: CounterMetricOptions & { unit?: MetricUnit; scale?: number } = {},
): MetricDefinition {
  const source: CounterSource = {
    counter,
    as: 'rate',
    ...(options.scale !== undefined ? { scale: options.scale } : {}),
  };
  return counterMetric(
    source,
    header,
    options.unit ?? '/s',
    options.role ?? 'detail',
    options.better ?? 'higher',
    options,
  );
}

function counterMetric(
  source: CounterSource,
  header: string,
  unit: MetricUnit,
  role: MetricRole,
  better: 'lower' | 'higher' | 'none',
  options: CounterMetricOptions,
): MetricDefinition {
  return {
    header,
    unit,
    better,
    role,
    source: { ...source, ...(options.side ? { side: options.side } : {}) },
    ...(options.description ? { description: options.description } : {}),
  };
}

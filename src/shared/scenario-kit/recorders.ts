/**
 * Recorders that declare what they report: `recorders: { rtt: histogram({ stats: ['p50', 'p99'] }),
 * wrong: counter() }` names each histogram and counter once, with the statistics it wants in the
 * result. The metric keys (`rttP50Ms`, `wrong`) and their definitions derive from that one
 * declaration here, and their types in src/shared/types/recorder-types.ts, so the table, the charts and the
 * code that records cannot name a recorder or a key that does not exist.
 */
import type { HistogramStat, MetricUnit, Side } from '../types/declaration-types.js';
import type { MetricDefinition } from '../types/scenario-types.js';
import {
  STAT_KEYS,
  type CounterDeclaration,
  type CounterRateReport,
  type CounterReport,
  type HistogramDeclaration,
  type HistogramUnit,
  type RecorderDeclarations,
} from '../types/recorder-types.js';
import { ALL_STATS } from './metric-helpers.js';

export interface HistogramOptions<S extends HistogramStat, U extends HistogramUnit, Sd extends Side> {
  /** Statistics to report, each a metric: default every one (ALL_STATS). */
  stats?: readonly S[];
  /** Statistics that are headline latencies (compared, charted by default). */
  primary?: readonly NoInfer<S>[];
  /** `ms` (default): a latency `Recorder`; `bytes`: a `SizeRecorder`. */
  unit?: U;
  /** Which half records it: `client` (default) or `server`. */
  side?: Sd;
  /** Header prefix, e.g. "WS" gives "WS p50 ms". */
  label?: string;
  description?: string;
}

/** What counter() takes: which metrics the counter reports (its total, its rate) and which half counts it. */
export interface CounterOptions {
  /** The total over the window, keyed as the counter: the default, unless only `rate` is given (false: none). */
  total?: boolean | CounterReport;
  /** The total per second of the window, keyed `<name>PerSec`. */
  rate?: boolean | CounterRateReport;
  /** Which half counts it: `client` (default) or `server`. */
  side?: Side;
}

/**
 * A histogram and the statistics it reports: `histogram({ stats: ['p50', 'p99'], primary: ['p99'] })`
 * named `rtt` declares `rttP50Ms` and `rttP99Ms` (a `unit: 'bytes'` one named `size`: `sizeP50`, `sizeP99`).
 */
export function histogram<
  const S extends HistogramStat = (typeof ALL_STATS)[number],
  const U extends HistogramUnit = 'ms',
  const Sd extends Side = 'client',
>(options: HistogramOptions<S, U, Sd> = {}): HistogramDeclaration<NoInfer<S>, NoInfer<U>, NoInfer<Sd>> {
  return Object.freeze({
    recorder: 'histogram' as const,
    stats: options.stats ?? (ALL_STATS as unknown as readonly S[]),
    primary: options.primary ?? [],
    unit: options.unit ?? ('ms' as U),
    side: options.side ?? ('client' as Sd),
    ...(options.label !== undefined ? { label: options.label } : {}),
    ...(options.description !== undefined ? { description: options.description } : {}),
  });
}

type KeyOf<Report, Default extends string> = Report extends { key: infer K extends string } ? K : Default;
type TotalKeyOf<O> = O extends { total: false }
  ? never
  : O extends { total: infer T }
    ? KeyOf<T, '*'>
    : O extends { rate: object | true }
      ? never
      : '*';
type RateKeyOf<O> = O extends { rate: infer R } ? (R extends false ? never : KeyOf<R, '*PerSec'>) : never;
type SideOf<O> = O extends { side: infer S extends Side } ? S : 'client';

/**
 * A counter and the metrics it reports: `counter()` its total, keyed as the counter;
 * `counter({ rate: { role: 'primary-rate' } })` its rate, keyed `<name>PerSec`; both when both are given.
 */
// biome-ignore lint/complexity/noBannedTypes: {} is the empty set of recorders, the identity of the intersection
export function counter<const O extends CounterOptions = {}>(
  options?: O,
): CounterDeclaration<TotalKeyOf<O>, RateKeyOf<O>, SideOf<O>> {
  const given: CounterOptions = options ?? {};
  const report = <T extends object>(value: boolean | T | undefined): T | null =>
    value === undefined || value === false ? null : value === true ? ({} as T) : value;
  const onlyRate = given.total === undefined && given.rate !== undefined && given.rate !== false;
  return Object.freeze({
    recorder: 'counter' as const,
    total: onlyRate ? null : given.total === undefined ? {} : report<CounterReport>(given.total),
    rate: report<CounterRateReport>(given.rate),
    side: (given.side ?? 'client') as SideOf<O>,
  });
}

/** The metric definitions the declarations derive, in declaration order (a counter's total before its rate). */
export function recorderMetrics(recorders: RecorderDeclarations): Record<string, MetricDefinition> {
  const metrics: Record<string, MetricDefinition> = {};
  for (const [name, declaration] of Object.entries(recorders)) {
    const side = declaration.side === 'server' ? { side: 'server' as const } : {};
    if (declaration.recorder === 'histogram') {
      const sizes = declaration.unit === 'bytes';
      const prefix = declaration.label ? `${declaration.label} ` : '';
      for (const stat of declaration.stats) {
        const counting = stat === 'count';
        metrics[`${name}${sizes ? STAT_KEYS[stat].sizeSuffix : STAT_KEYS[stat].suffix}`] = {
          header: counting ? `${prefix}samples` : `${prefix}${STAT_KEYS[stat].word} ${sizes ? 'B' : 'ms'}`,
          unit: counting ? 'count' : sizes ? 'bytes' : 'ms',
          better: counting ? 'none' : 'lower',
          role: declaration.primary.includes(stat) ? 'primary-latency' : 'detail',
          source: { histogram: name, stat, ...side },
          ...(declaration.description !== undefined ? { description: declaration.description } : {}),
        };
      }
      continue;
    }
    const { total, rate } = declaration;
    if (total)
      metrics[total.key ?? name] = counterMetric(
        total,
        { counter: name, ...side },
        total.header ?? name,
        'count',
        'none',
      );
    if (rate) {
      const source = {
        counter: name,
        as: 'rate' as const,
        ...(rate.scale !== undefined ? { scale: rate.scale } : {}),
        ...side,
      };
      metrics[rate.key ?? `${name}PerSec`] = counterMetric(
        rate,
        source,
        rate.header ?? `${name}/s`,
        rate.unit ?? '/s',
        'higher',
      );
    }
  }
  return metrics;
}

function counterMetric(
  report: CounterReport,
  source: MetricDefinition['source'],
  header: string,
  unit: MetricUnit,
  better: 'higher' | 'none',
): MetricDefinition {
  const role = report.role ?? 'detail';
  return {
    header,
    unit,
    better: report.better ?? (role === 'errors' ? 'lower' : better),
    role,
    source,
    ...(report.description !== undefined ? { description: report.description } : {}),
    ...(report.acrossRounds !== undefined ? { acrossRounds: report.acrossRounds } : {}),
  };
}

/**
 * Turns a cell's merged measurements into the scenario's declared metrics.
 * Every value comes from its declared source; a value that cannot be had is
 * null with the reason beside it, never a 0 that looks measured.
 */
import type { HistogramSource, HistogramStat, MetricRole, MetricUnit } from '../../shared/types/declaration-types.js';
import type { EncodedHistogram, MetricResolution } from '../../shared/types/result-types.js';
import type {
  AnyScenario,
  MetricDefinition,
  MetricInput,
  ValueWithResolution,
} from '../../shared/types/scenario-types.js';
import { decodeHistogram } from '../../shared/measure/metrics.js';

export const NO_SAMPLES = 'no samples in the window';
/**
 * A counter no process ever made: the code that counts it never ran (or its name is misspelt).
 * Never 0, which would read as counted and none found.
 */
export const NOT_RECORDED = 'not recorded: no process made this counter';

/**
 * The shortest window a rate is computed over. Timers and the clients' schedules work to about a
 * millisecond, and a window must span many of their ticks for what was counted in it to be a rate:
 * a shorter one (a process or shard with nothing to do ends its window at once) would divide a
 * count by next to nothing. Every metric in a rate unit is then null with the reason.
 */
export const MIN_RATE_WINDOW_MS = 10;
const RATE_UNITS: ReadonlySet<MetricUnit> = new Set(['msg/s', '/s', 'bytes/s', 'MB/s']);

/** Why no rate can be computed over a window of `windowMs`; null when one can. */
function rateWindowProblem(windowMs: number): string | null {
  if (!(windowMs > 0)) return 'no measurement window';
  if (windowMs < MIN_RATE_WINDOW_MS)
    return `the window (${Number(windowMs.toPrecision(2))} ms) is too short to hold a rate (under ${MIN_RATE_WINDOW_MS} ms)`;
  return null;
}
export const NOT_REPORTED_BY_SERVER = 'the server did not report it';

export interface MetricValues {
  metrics: Record<string, number | null>;
  missing: Record<string, string>;
  /** Metrics computed with a resolution of their own (see MetricResolution). */
  resolution: Record<string, MetricResolution>;
}

interface MetricContext extends MetricInput {
  /**
   * False when the server sent no report (it crashed, or it is a foreign server without
   * a stats route); 'listed' for a foreign server's stats, which report only the counters
   * they list (any other server-side counter or histogram is null, never 0).
   */
  serverReported: boolean | 'listed';
}

export function computeMetrics(scenario: AnyScenario, context: MetricContext): MetricValues {
  const values: MetricValues = { metrics: {}, missing: {}, resolution: {} };
  const tooShort = rateWindowProblem(context.measurements.windowMs);
  for (const [key, definition] of Object.entries(scenario.metrics as Record<string, MetricDefinition>)) {
    const outcome = tooShort !== null && RATE_UNITS.has(definition.unit) ? tooShort : definedValue(definition, context);
    if (typeof outcome === 'object') setResolved(values, key, definition.unit, outcome);
    else values.metrics[key] = typeof outcome === 'number' ? outcome : null;
    if (typeof outcome === 'string') values.missing[key] = outcome;
  }
  return values;
}

/**
 * Records a value measured with its resolution: the metric holds it only when it is told apart from 0
 * (estimate - resolution > 0); else the metric is null, below its resolution, with the most it can be.
 */
export function setResolved(values: MetricValues, key: string, unit: string, measured: ValueWithResolution): void {
  const { estimate, resolution } = measured;
  const resolved = estimate - resolution > 0;
  const atMost = Math.max(estimate, 0) + resolution;
  values.resolution[key] = { estimate, resolution, resolved, atMost };
  values.metrics[key] = resolved ? estimate : null;
  if (resolved) delete values.missing[key];
  else
    values.missing[key] =
      `below its resolution: ${significant(estimate)} ± ${significant(resolution)} ${unit} from the measurement's own noise, so at most ${significant(atMost)} ${unit}`;
}

const significant = (value: number): string => String(Number(value.toPrecision(3)));

/** The histograms behind null metrics of `role` that are null for lack of samples, if any. */
export function emptyHistograms(scenario: AnyScenario, values: MetricValues, role: MetricRole): string[] {
  const names = Object.entries(scenario.metrics as Record<string, MetricDefinition>)
    .filter(([key, d]) => d.role === role && 'histogram' in d.source && values.missing[key] === NO_SAMPLES)
    .map(([, d]) => (d.source as HistogramSource).histogram);
  return [...new Set(names)];
}

/** A number, a number with its resolution, or the reason there is none. */
function definedValue(definition: MetricDefinition, context: MetricContext): number | ValueWithResolution | string {
  const source = definition.source;
  const m = context.measurements;
  if ('compute' in source) {
    try {
      const value = source.compute(context);
      if (value === null) return 'not applicable to this cell';
      if (typeof value === 'object') {
        if (!Number.isFinite(value.estimate) || !Number.isFinite(value.resolution) || value.resolution < 0)
          return `computed ${value.estimate} ± ${value.resolution}`;
        return { estimate: value.estimate, resolution: value.resolution };
      }
      return Number.isFinite(value) ? value : `computed ${String(value)}`;
    } catch (error) {
      return `failed to compute: ${(error as Error).message.split('\n')[0]}`;
    }
  }
  if ('histogram' in source) {
    const server = source.side === 'server';
    if (server && !context.serverReported) return NOT_REPORTED_BY_SERVER;
    if (server && context.serverReported === 'listed' && !(source.histogram in m.serverHistograms))
      return NOT_REPORTED_BY_SERVER;
    const encoded = (server ? m.serverHistograms : m.histograms)[source.histogram];
    return encoded ? (histogramStat(encoded, source.stat) ?? NO_SAMPLES) : NO_SAMPLES;
  }
  if ('counter' in source) {
    const server = source.side === 'server';
    if (server && !context.serverReported) return NOT_REPORTED_BY_SERVER;
    if (server && context.serverReported === 'listed' && !(source.counter in m.serverCounters))
      return NOT_REPORTED_BY_SERVER;
    const total = (server ? m.serverCounters : m.counters)[source.counter];
    if (total === undefined) return NOT_RECORDED;
    const scale = source.scale ?? 1;
    if (source.as !== 'rate') return total * scale;
    return rateWindowProblem(m.windowMs) ?? (total * scale * 1000) / m.windowMs;
  }
  const resources = context.resources;
  if (source.resource === 'server') {
    const server = resources.server;
    if (!server) return 'server resources not measured';
    return pickResource(server, source.stat);
  }
  if (resources.clients.length === 0) return 'no client process reported';
  return resources.clients.reduce((sum, r) => sum + pickResource(r, source.stat), 0);
}

function pickResource(
  r: MetricContext['resources']['clients'][number],
  stat: 'cpuMean' | 'cpuMax' | 'rssMax' | 'rssMean',
): number {
  switch (stat) {
    case 'cpuMean':
      return r.cpuPercent.mean;
    case 'cpuMax':
      return r.cpuPercent.max;
    case 'rssMax':
      return r.rssBytes.max;
    case 'rssMean':
      return r.rssBytes.mean;
  }
}

const PERCENTILES: Partial<Record<HistogramStat, number>> = { p50: 50, p90: 90, p99: 99, p999: 99.9 };

/** One statistic of a histogram: ms for latencies (recorded in µs), bytes for sizes; null when empty. */
export function histogramStat(encoded: EncodedHistogram, stat: HistogramStat): number | null {
  const histogram = decodeHistogram(encoded);
  if (histogram.totalCount === 0) return null;
  const scale = encoded.unit === 'bytes' ? 1 : 1 / 1000;
  const percentile = PERCENTILES[stat];
  let raw: number;
  if (percentile !== undefined) raw = histogram.getValueAtPercentile(percentile);
  else if (stat === 'count') return histogram.totalCount;
  else if (stat === 'min') raw = histogram.minNonZeroValue;
  else if (stat === 'max') raw = histogram.maxValue;
  else if (stat === 'mean') raw = histogram.mean;
  else raw = histogram.stdDeviation;
  return Math.round(raw * scale * 1000) / 1000;
}

/**
 * Whether any metric is declared to read the server's own histograms or counters (side 'server').
 * Without one, a foreign server's missing stats route costs the cell nothing worth a note. A
 * computed metric is not counted: echo's MB/s is one, and reads only the clients' counters.
 */
export function declaresServerMetrics(scenario: AnyScenario): boolean {
  return Object.values(scenario.metrics as Record<string, MetricDefinition>).some(
    (d) => 'side' in d.source && d.source.side === 'server',
  );
}

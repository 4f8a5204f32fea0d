/**
 * Catches a scenario whose declarations do not hang together when it is
 * defined, not when a reporter trips over it: every metric and chart request
 * has the shape the result file must have (checked against the same JSON
 * Schema `report` checks a result with), the table and the chart requests name
 * declared metrics, parameters and histograms, and every default and preset
 * value is a valid value of its parameter; a server restart it asks for has
 * both its times. Each problem is one line naming its key path.
 */
import type { ChartRequest, HistogramRef, MetricSource, ParameterSpec } from '../types/declaration-types.js';
import { ParameterError } from '../types/errors.js';
import { withCommonParameters } from '../types/common-parameters.js';
import { readValue } from '../parsing/parameter-values.js';
import { declarationProblem } from '../result-schema.js';
import { didYouMean } from '../near-name.js';
import type { ScenarioDefinition } from '../types/scenario-types.js';

const NAME = /^[a-z][a-z0-9-]*$/;

// biome-ignore lint/suspicious/noExplicitAny: any scenario, whatever its parameter and metric types
export function checkDeclarations(definition: ScenarioDefinition<any, any>): void {
  const problem = findProblem(definition);
  if (problem) throw new Error(`scenario ${definition.name || '(unnamed)'}: ${problem}`);
}

// biome-ignore lint/suspicious/noExplicitAny: any scenario, whatever its parameter and metric types
function findProblem(definition: ScenarioDefinition<any, any>): string | null {
  if (!NAME.test(definition.name)) return `name "${definition.name}" must be lower-case letters, digits and dashes`;
  // TypeScript catches these shapes; a scenario written in JavaScript meets them here.
  if (!isObject(definition.parameters)) return 'parameters must be an object of parameter declarations ({} for none)';
  if (!isObject(definition.metrics)) return 'metrics must be an object of metric declarations';
  if (!Array.isArray(definition.table))
    return 'table must list the metrics the terminal table shows (an array of metric names)';
  const metrics = Object.keys(definition.metrics);
  if (isObject(definition.parameters) && 'duration' in definition.parameters && definition.duration !== undefined) {
    return 'declares a duration parameter and also words the common one (duration: { ... }): keep one of them';
  }
  // Throws on a redeclared common parameter, naming it.
  const parameters = withCommonParameters(
    definition.name,
    definition.parameters as Record<string, ParameterSpec>,
    definition.duration,
  );
  try {
    for (const [name, spec] of Object.entries(parameters)) readValue(name, spec, spec.default);
    for (const [preset, values] of Object.entries(definition.presets ?? {}) as Array<
      [string, Record<string, unknown>]
    >) {
      for (const [name, value] of Object.entries(values)) {
        const spec = parameters[name];
        if (!spec) return `preset ${preset} sets "${name}", which is not a parameter`;
        for (const one of Array.isArray(value) ? value : [value]) readValue(name, spec, one);
      }
    }
  } catch (error) {
    if (error instanceof ParameterError) return `parameter ${error.message}`;
    throw error;
  }
  const shapes = shapeProblem(definition.metrics as Record<string, unknown>, definition.charts);
  if (shapes) return shapes;
  const restart = definition.serverRestart as unknown;
  if (
    restart !== undefined &&
    !(
      isObject(restart) &&
      typeof (restart as Record<string, unknown>).atMs === 'function' &&
      typeof (restart as Record<string, unknown>).downtimeMs === 'function'
    )
  ) {
    return 'serverRestart must be { atMs(params), downtimeMs(params) }: two functions giving ms';
  }
  for (const [i, key] of (definition.table as string[]).entries()) {
    if (!metrics.includes(key))
      return `table[${i}] names "${key}", which is not a declared metric${didYouMean(key, metrics)}`;
  }
  const histograms = declaredHistograms(definition.metrics as Record<string, { source: MetricSource }>);
  for (const [i, chart] of (definition.charts ?? []).entries()) {
    const missing = chartReferences(chart).find(([kind, name]) =>
      kind === 'metric'
        ? !metrics.includes(name)
        : kind === 'parameter'
          ? !(name in parameters)
          : !histograms.has(name),
    );
    if (missing) {
      const known =
        missing[0] === 'metric' ? metrics : missing[0] === 'parameter' ? Object.keys(parameters) : [...histograms];
      return `charts[${i}] (${chart.kind}) names ${missing[0]} "${missing[1]}", which is not declared${missing[0] === 'histogram' ? ' (no metric reads it)' : ''}${didYouMean(missing[1], known)}`;
    }
  }
  return null;
}

/**
 * Metrics and charts against the result schema's own definitions (MetricInfo, ChartRequest): what
 * the result file could not hold is refused here. A child process skips it (its orchestrator
 * checked the same module), so ajv never loads where scenario code runs.
 */
function shapeProblem(metrics: Record<string, unknown>, charts: unknown): string | null {
  if (process.env.WSBENCH_ROLE) return null;
  for (const [key, definition] of Object.entries(metrics)) {
    if (!isObject(definition))
      return `metrics.${key} must be a metric declaration, an object (it is ${JSON.stringify(definition) ?? 'undefined'})`;
    const { source, ...rest } = definition as { source?: unknown };
    const computed = isObject(source) && 'compute' in (source as object);
    if (computed && typeof (source as { compute: unknown }).compute !== 'function')
      return `metrics.${key}.source.compute must be a function`;
    // A computed source's function stays in wsbench; the file records how, in words.
    const recorded = computed ? { ...rest, source: { custom: (source as { custom?: unknown }).custom } } : definition;
    const problem = declarationProblem('MetricInfo', recorded, `metrics.${key}`);
    if (problem) return problem;
  }
  if (charts === undefined) return null;
  if (!Array.isArray(charts)) return 'charts must be a list of chart requests';
  for (const [i, chart] of charts.entries()) {
    const problem = declarationProblem('ChartRequest', chart, `charts[${i}]`);
    if (problem) return problem;
  }
  return null;
}

/** The histograms the metrics read, by chart name: `rtt` on the client side, `server:rtt` on the server's. */
function declaredHistograms(metrics: Record<string, { source: MetricSource }>): Set<string> {
  const names = new Set<string>();
  for (const { source } of Object.values(metrics))
    if ('histogram' in source) names.add(source.side === 'server' ? `server:${source.histogram}` : source.histogram);
  return names;
}

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

type Reference = ['metric' | 'parameter' | 'histogram', string];

function chartReferences(chart: ChartRequest): Reference[] {
  const metric = (names: string[] | undefined): Reference[] => (names ?? []).map((n) => ['metric', n]);
  const histogram = (refs: Array<HistogramRef | undefined>): Reference[] =>
    refs.flatMap((ref): Reference[] =>
      ref === undefined
        ? []
        : [
            [
              'histogram',
              typeof ref === 'string' ? ref : ref.side === 'server' ? `server:${ref.histogram}` : ref.histogram,
            ],
          ],
    );
  switch (chart.kind) {
    case 'percentiles':
      return histogram(chart.histograms);
    case 'heatmap':
      return metric(chart.metrics);
    case 'over-time':
      return [...histogram([chart.histogram]), ...metric(chart.rates)];
    case 'grid':
      return [
        ['parameter', chart.rows],
        ['parameter', chart.columns],
        ...histogram([chart.histogram]),
        ...metric(chart.label === undefined ? [] : [chart.label]),
      ];
    case 'by-parameter':
      return [['parameter', chart.parameter], ...metric(chart.metrics), ...histogram(chart.histograms ?? [])];
    case 'sizes':
      return histogram([chart.histogram]);
    default:
      return [];
  }
}

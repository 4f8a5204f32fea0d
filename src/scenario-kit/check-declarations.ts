/**
 * Catches a scenario whose declarations do not hang together when it is
 * defined, not when a reporter trips over it: the table and the chart requests
 * name declared metrics and parameters, and every default and preset value is
 * a valid value of its parameter; a server restart it asks for has both its times.
 */
import type { ChartRequest, ParameterSpec } from '../declaration-types.js';
import { ParameterError } from '../errors.js';
import { withCommonParameters } from '../common-parameters.js';
import { readValue } from '../parsing/parameter-values.js';
import type { ScenarioDefinition } from '../scenario-types.js';

const NAME = /^[a-z][a-z0-9-]*$/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function checkDeclarations(definition: ScenarioDefinition<any, any>): void {
  const problem = findProblem(definition);
  if (problem) throw new Error(`scenario ${definition.name || '(unnamed)'}: ${problem}`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function findProblem(definition: ScenarioDefinition<any, any>): string | null {
  if (!NAME.test(definition.name)) return `name "${definition.name}" must be lower-case letters, digits and dashes`;
  // TypeScript catches these shapes; a scenario written in JavaScript meets them here.
  if (!isObject(definition.parameters)) return 'parameters must be an object of parameter declarations ({} for none)';
  if (!isObject(definition.metrics)) return 'metrics must be an object of metric declarations';
  if (!Array.isArray(definition.table)) return 'table must list the metrics the terminal table shows (an array of metric names)';
  const metrics = Object.keys(definition.metrics);
  if (isObject(definition.parameters) && 'duration' in definition.parameters && definition.duration !== undefined) {
    return 'declares a duration parameter and also words the common one (duration: { ... }): keep one of them';
  }
  // Throws on a redeclared common parameter, naming it.
  const parameters = withCommonParameters(definition.name, definition.parameters as Record<string, ParameterSpec>, definition.duration);
  try {
    for (const [name, spec] of Object.entries(parameters)) readValue(name, spec, spec.default);
    for (const [preset, values] of Object.entries(definition.presets ?? {}) as Array<[string, Record<string, unknown>]>) {
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
  const restart = definition.serverRestart as unknown;
  if (restart !== undefined && !(isObject(restart) && typeof (restart as Record<string, unknown>).atMs === 'function' && typeof (restart as Record<string, unknown>).downtimeMs === 'function')) {
    return 'serverRestart must be { atMs(params), downtimeMs(params) }: two functions giving ms';
  }
  for (const key of definition.table) if (!metrics.includes(key)) return `table names "${key}", which is not a declared metric`;
  for (const chart of definition.charts ?? []) {
    const missing = chartReferences(chart).find(([kind, name]) => !(kind === 'metric' ? metrics.includes(name) : name in parameters));
    if (missing) return `${chart.kind} chart names ${missing[0]} "${missing[1]}", which is not declared`;
  }
  return null;
}

const isObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

function chartReferences(chart: ChartRequest): Array<['metric' | 'parameter', string]> {
  const metric = (names: string[] | undefined): Array<['metric', string]> => (names ?? []).map((n) => ['metric', n]);
  switch (chart.kind) {
    case 'heatmap':
      return metric(chart.metrics);
    case 'over-time':
      return metric(chart.rates);
    case 'grid':
      return [['parameter', chart.rows], ['parameter', chart.columns], ...metric(chart.label === undefined ? [] : [chart.label])];
    case 'by-parameter':
      return [['parameter', chart.parameter], ...metric(chart.metrics)];
    default:
      return [];
  }
}

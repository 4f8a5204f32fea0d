/**
 * A scenario's declarations as the result JSON carries them: plain data, no
 * functions, durations and sizes in ms and bytes. Reporters read only this.
 */
import type { ChartRequest, HistogramSource, MetricInfo } from '../../shared/types/declaration-types.js';
import type { ScenarioInfo } from '../../shared/types/result-types.js';
import type { AnyScenario, MetricDefinition } from '../../shared/types/scenario-types.js';
import { allParameters, parameterInfo } from './params.js';

export function scenarioInfo(scenario: AnyScenario): ScenarioInfo {
  const metrics = Object.fromEntries(
    Object.entries(scenario.metrics as Record<string, MetricDefinition>).map(([key, d]) => [key, metricInfo(d)]),
  );
  return {
    name: scenario.name,
    description: scenario.description,
    parameters: Object.fromEntries(
      Object.entries(allParameters(scenario)).map(([name, spec]) => [name, parameterInfo(name, spec)]),
    ),
    metrics,
    table: [...scenario.table],
    charts: scenario.charts ?? defaultCharts(metrics),
    ...(scenario.connectionFaults === 'measured' ? { connectionFaults: 'measured' as const } : {}),
  };
}

function metricInfo(definition: MetricDefinition): MetricInfo {
  const { source, ...rest } = definition;
  return { ...rest, source: 'compute' in source ? { custom: source.custom } : source };
}

/** Without chart requests: the percentile curve of each primary latency's histogram, and the server's cost. */
function defaultCharts(metrics: Record<string, MetricInfo>): ChartRequest[] {
  const histograms = [
    ...new Set(
      Object.values(metrics)
        .filter((m) => m.role === 'primary-latency' && 'histogram' in m.source)
        .map((m) => (m.source as HistogramSource).histogram),
    ),
  ];
  return [...(histograms.length ? [{ kind: 'percentiles' as const, histograms }] : []), { kind: 'resources' }];
}

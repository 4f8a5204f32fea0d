/**
 * A cell's stages as the result reports them, once the rounds' measurements of
 * each stage are pooled (rounds.ts): the scenario's metrics computed over each stage, its load
 * generator judged, and its counted faults named. Server-side metrics are the
 * whole window's only (the server reports once), so a stage shows them as
 * null with that reason.
 */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { MetricDefinition, AnyScenario } from '../../shared/types/scenario-types.js';
import type { StageResult } from '../../shared/types/result-types.js';
import type { StageMeasured } from '../measure/stage-series.js';
import { computeMetrics } from '../measure/metric-values.js';
import { loadSaturationOf, withScheduleLag } from '../measure/saturation.js';
import { countedErrors, countedErrorsText } from './cell-verdict.js';

/** Why a stage has no server-side number. */
const SERVER_SIDE = 'server-side: the server reports once, for the whole window';

export function stageResults(
  scenario: AnyScenario,
  params: ParamValues,
  clientProcesses: number,
  stages: readonly StageMeasured[],
): StageResult[] {
  const declared = scenario.metrics as Record<string, MetricDefinition>;
  return stages.map((stage) => {
    const values = computeMetrics(scenario, {
      measurements: stage.measurements,
      resources: stage.resources,
      stackDrops: null,
      serverReported: false,
      clientProcesses,
      params,
    });
    for (const [key, definition] of Object.entries(declared))
      if (isServerSide(definition) && values.metrics[key] === null) values.missing[key] = SERVER_SIDE;
    const errors = countedErrorsText(countedErrors(declared, values.metrics));
    const loadSaturation = withScheduleLag(loadSaturationOf(stage.resources.clients), stage.measurements);
    return {
      index: stage.index,
      startMs: stage.startMs,
      endMs: stage.endMs,
      target: stage.target,
      status: errors === null ? 'ok' : 'errors',
      ...(errors !== null ? { reason: errors } : {}),
      metrics: values.metrics,
      missing: values.missing,
      measurements: stage.measurements,
      resources: stage.resources,
      ...(loadSaturation ? { loadSaturation } : {}),
    };
  });
}

/** Measured by the server process (its /proc resources are sampled through the stages, so they are not). */
function isServerSide(definition: MetricDefinition): boolean {
  return (definition.source as { side?: string }).side === 'server';
}

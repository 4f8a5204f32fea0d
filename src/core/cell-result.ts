/**
 * Turns the rounds of one cell into its CellResult: pools what they measured,
 * computes the scenario's metrics once from the pool, and decides the status:
 * failed when a round failed (a headline latency with no samples too: "no
 * samples" is never ok), errors when a round lost connections or could not
 * open some, else ok. The load generator's saturation is judged once, from
 * the pooled resources.
 */
import type { ParamValues } from '../declaration-types.js';
import type { CellIdentity, CellResult, RoundResult } from '../result-types.js';
import type { AnyScenario, MetricDefinition } from '../scenario-types.js';
import type { CellRun } from './cell.js';
import { computeMetrics, emptyHistograms, setResolved, type MetricValues } from './metric-values.js';
import { poolMeasured } from './rounds.js';
import { loadSaturationOf } from './saturation.js';
import { tlsOutcomes } from './tls-sessions.js';

export function cellResult(identity: Omit<CellIdentity, 'elapsedMs'>, scenario: AnyScenario, clientProcesses: number, runs: CellRun[]): CellResult {
  const elapsedMs = runs.reduce((sum, r) => sum + r.elapsedMs, 0);
  const failedRound = runs.findIndex((r) => r.failure !== null);
  const errorsRound = runs.findIndex((r) => r.errors !== null);
  const troubled = failedRound >= 0 ? failedRound : errorsRound;
  const said = (i: number, text: string | null): string | null => (i < 0 ? null : runs.length > 1 ? `round ${i + 1}: ${text}` : text);
  let reason = said(failedRound, runs[failedRound]?.failure ?? null);
  const errors = said(errorsRound, runs[errorsRound]?.errors ?? null);
  const fault = troubled < 0 ? undefined : (runs[troubled]!.fault ?? undefined);
  const measured = runs.flatMap((r) => (r.measured ? [r.measured] : []));
  if (measured.length === 0) return { ...identity, status: 'failed', reason: reason ?? 'nothing was measured', elapsedMs };

  const pooled = poolMeasured(measured);
  const rounds = runs.length > 1 ? runs.map((run) => roundOf(scenario, identity.params, clientProcesses, run)) : null;
  const values = valuesOf(scenario, identity.params, clientProcesses, pooled);
  if (rounds) combineRounds(scenario, values, rounds);
  const empty = emptyHistograms(scenario, values, 'primary-latency');
  if (reason === null && empty.length > 0) reason = `no samples in the window (${empty.join(', ')})${errors ? `; ${errors}` : ''}`;
  const loadSaturation = loadSaturationOf(pooled.resources.clients);
  const tls = tlsOutcomes(pooled.measurements.counters);
  const numbers = {
    metrics: values.metrics,
    missing: values.missing,
    ...(Object.keys(values.resolution).length > 0 ? { resolution: values.resolution } : {}),
    measurements: pooled.measurements,
    resources: pooled.resources,
    stackDrops: pooled.stackDrops,
    notes: pooled.notes,
    ...(tls.length > 0 ? { tls } : {}),
    ...(pooled.saturation ? { saturation: pooled.saturation } : {}),
    ...(loadSaturation ? { loadSaturation } : {}),
    ...(fault ? { fault } : {}),
    ...(rounds ? { rounds } : {}),
    elapsedMs,
  };
  if (reason !== null) return { ...identity, status: 'failed', reason, ...numbers };
  if (errors !== null) return { ...identity, status: 'errors', reason: errors, ...numbers };
  return { ...identity, status: 'ok', ...numbers };
}

function valuesOf(scenario: AnyScenario, params: ParamValues, clientProcesses: number, measured: NonNullable<CellRun['measured']>): MetricValues {
  return computeMetrics(scenario, {
    measurements: measured.measurements,
    resources: measured.resources,
    stackDrops: measured.stackDrops,
    serverReported: measured.serverReported,
    clientProcesses,
    params,
  });
}

function roundOf(scenario: AnyScenario, params: ParamValues, clientProcesses: number, run: CellRun): RoundResult {
  const reason = run.failure ?? run.errors;
  const values = run.measured ? valuesOf(scenario, params, clientProcesses, run.measured) : null;
  return {
    status: run.failure !== null ? 'failed' : run.errors !== null ? 'errors' : 'ok',
    ...(reason !== null ? { reason } : {}),
    ...(values && run.measured ? { metrics: values.metrics, resources: run.measured.resources } : {}),
    ...(values && Object.keys(values.resolution).length > 0 ? { resolution: values.resolution } : {}),
    elapsedMs: run.elapsedMs,
  };
}

/** Metrics declared `acrossRounds` take the min, max, mean or sum of the rounds' own values. */
function combineRounds(scenario: AnyScenario, values: MetricValues, rounds: RoundResult[]): void {
  for (const [key, definition] of Object.entries(scenario.metrics as Record<string, MetricDefinition>)) {
    const how = definition.acrossRounds;
    if (!how) continue;
    // A value with its resolution combines its rounds' estimates, resolved or not, and their resolutions.
    const measured = rounds.flatMap((r) => (r.resolution?.[key] ? [r.resolution[key]] : []));
    if (measured.length > 0) {
      setResolved(values, key, definition.unit, combineResolutions(how, measured));
      continue;
    }
    const per = rounds.map((r) => r.metrics?.[key]).filter((v): v is number => typeof v === 'number');
    if (per.length === 0) {
      values.metrics[key] = null;
      values.missing[key] = values.missing[key] ?? 'no round measured it';
      continue;
    }
    const sum = per.reduce((a, b) => a + b, 0);
    values.metrics[key] = how === 'min' ? Math.min(...per) : how === 'max' ? Math.max(...per) : how === 'sum' ? sum : sum / per.length;
    delete values.missing[key];
  }
}

/** Rounds' estimates combined as the metric declares; the resolution of a mean or sum is the mean or sum of theirs, a min or max keeps its round's. */
function combineResolutions(how: NonNullable<MetricDefinition['acrossRounds']>, rounds: Array<{ estimate: number; resolution: number }>): { estimate: number; resolution: number } {
  if (how === 'min' || how === 'max') {
    const pick = how === 'min' ? Math.min(...rounds.map((r) => r.estimate)) : Math.max(...rounds.map((r) => r.estimate));
    return rounds.find((r) => r.estimate === pick)!;
  }
  const sum = (field: 'estimate' | 'resolution'): number => rounds.reduce((total, r) => total + r[field], 0);
  return how === 'sum' ? { estimate: sum('estimate'), resolution: sum('resolution') } : { estimate: sum('estimate') / rounds.length, resolution: sum('resolution') / rounds.length };
}

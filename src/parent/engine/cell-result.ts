/**
 * Turns the rounds of one cell into its CellResult: pools what they measured,
 * computes the scenario's metrics once from the pool, and decides the status:
 * failed when a round failed (a headline latency with no samples too: "no
 * samples" is never ok), errors when a round lost connections or could not
 * open some or counted a fault (a metric of role errors above zero:
 * cell-verdict.ts), else ok. The load generator's saturation is judged once, from
 * the pooled resources. Each key number gets its confidence interval at `level` (from the
 * rounds, or from the window's own intervals: src/parent/stats/), each round the
 * interval of its own window, and rounds that disagree far beyond those are named.
 */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { CellIdentity, CellResult, RoundResult, ScenarioInfo } from '../../shared/types/result-types.js';
import type { AnyScenario, MetricDefinition } from '../../shared/types/scenario-types.js';
import type { CellRun } from './cell.js';
import { computeMetrics, emptyHistograms, setResolved, type MetricValues } from '../measure/metric-values.js';
import { poolMeasured } from './rounds.js';
import { loadSaturationOf, withScheduleLag } from '../measure/saturation.js';
import { spreadCount } from './params.js';
import { tlsOutcomes } from '../../child/tls-sessions.js';
import { countedErrors, countedErrorsText } from './cell-verdict.js';
import { scenarioInfo } from './scenario-info.js';
import { cellIntervals, windowIntervals } from '../stats/cell-intervals.js';
import { unstableRounds } from '../stats/unstable.js';
import { CONFIDENCE_LEVEL } from '../stats/confidence.js';
import { stageResults } from './stage-results.js';

export function cellResult(
  identity: Omit<CellIdentity, 'elapsedMs'>,
  scenario: AnyScenario,
  clientProcesses: number,
  runs: CellRun[],
  level = CONFIDENCE_LEVEL,
): CellResult {
  const elapsedMs = runs.reduce((sum, r) => sum + r.elapsedMs, 0);
  // A server that cannot run here (a --server-cmd that exited 77) makes the cell n/a, as an unavailable stack does.
  const unavailable = runs.find((r) => r.unavailable !== undefined)?.unavailable;
  if (unavailable !== undefined && runs.every((r) => r.unavailable !== undefined))
    return { ...identity, status: 'skipped', reason: unavailable, elapsedMs };
  const failedRound = runs.findIndex((r) => r.failure !== null);
  const errorsRound = runs.findIndex((r) => r.errors !== null);
  const troubled = failedRound >= 0 ? failedRound : errorsRound;
  const said = (i: number, text: string | null): string | null =>
    i < 0 ? null : runs.length > 1 ? `round ${i + 1}: ${text}` : text;
  let reason = said(failedRound, runs[failedRound]?.failure ?? null);
  let errors = said(errorsRound, runs[errorsRound]?.errors ?? null);
  const fault = troubled < 0 ? undefined : (runs[troubled]!.fault ?? undefined);
  const measured = runs.flatMap((r) => (r.measured ? [r.measured] : []));
  if (measured.length === 0)
    return { ...identity, status: 'failed', reason: reason ?? 'nothing was measured', elapsedMs };

  const pooled = poolMeasured(measured);
  const rounds = runs.length > 1 ? runs.map((run) => roundOf(scenario, identity.params, clientProcesses, run)) : null;
  const values = valuesOf(scenario, identity.params, clientProcesses, pooled);
  if (rounds) combineRounds(scenario, values, rounds);
  // Each round was judged by the same rule (cell.ts); the pool is too, for a count only the rounds together reach.
  errors ??= countedErrorsText(countedErrors(scenario.metrics as Record<string, MetricDefinition>, values.metrics));
  const empty = emptyHistograms(scenario, values, 'primary-latency');
  if (reason === null && empty.length > 0)
    reason = `no samples in the window (${empty.join(', ')})${errors ? `; ${errors}` : ''}`;
  const declared = scenarioInfo(scenario).metrics;
  if (rounds && !pooled.stages)
    rounds.forEach((round, i) => {
      addRoundIntervals(declared, round, runs[i]!);
    });
  const { intervals, noInterval } = cellIntervals(
    declared,
    {
      metrics: values.metrics,
      ...(rounds ? { rounds } : {}),
      ...(pooled.measurements.timeSeries ? { timeSeries: pooled.measurements.timeSeries } : {}),
      staged: pooled.stages !== undefined,
    },
    level,
  );
  const unstable = unstableRounds(declared, rounds ?? undefined);
  const loadSaturation = withScheduleLag(
    loadSaturationOf(pooled.resources.clients, spreadCount(scenario, identity.params)),
    pooled.measurements,
  );
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
    intervals,
    ...(Object.keys(noInterval).length > 0 ? { noInterval } : {}),
    ...(unstable ? { unstable } : {}),
    ...(pooled.stages ? { stages: stageResults(scenario, identity.params, clientProcesses, pooled.stages) } : {}),
    elapsedMs,
  };
  if (reason !== null) return { ...identity, status: 'failed', reason, ...numbers };
  if (errors !== null) return { ...identity, status: 'errors', reason: errors, ...numbers };
  return { ...identity, status: 'ok', ...numbers };
}

function valuesOf(
  scenario: AnyScenario,
  params: ParamValues,
  clientProcesses: number,
  measured: NonNullable<CellRun['measured']>,
): MetricValues {
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

/** A round's own window interval of each key number: how far that round alone could be off. */
function addRoundIntervals(declared: ScenarioInfo['metrics'], round: RoundResult, run: CellRun): void {
  if (!round.metrics || !run.measured) return;
  const intervals = windowIntervals(declared, round.metrics, run.measured.measurements.timeSeries);
  if (Object.keys(intervals).length > 0) round.intervals = intervals;
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
    values.metrics[key] =
      how === 'min' ? Math.min(...per) : how === 'max' ? Math.max(...per) : how === 'sum' ? sum : sum / per.length;
    delete values.missing[key];
  }
}

/** Rounds' estimates combined as the metric declares; the resolution of a mean or sum is the mean or sum of theirs, a min or max keeps its round's. */
function combineResolutions(
  how: NonNullable<MetricDefinition['acrossRounds']>,
  rounds: Array<{ estimate: number; resolution: number }>,
): { estimate: number; resolution: number } {
  if (how === 'min' || how === 'max') {
    const pick =
      how === 'min' ? Math.min(...rounds.map((r) => r.estimate)) : Math.max(...rounds.map((r) => r.estimate));
    return rounds.find((r) => r.estimate === pick)!;
  }
  const sum = (field: 'estimate' | 'resolution'): number => rounds.reduce((total, r) => total + r[field], 0);
  return how === 'sum'
    ? { estimate: sum('estimate'), resolution: sum('resolution') }
    : { estimate: sum('estimate') / rounds.length, resolution: sum('resolution') / rounds.length };
}

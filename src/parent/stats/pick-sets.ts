/**
 * Which rankings a result asks for: per scenario and parameter set, servers
 * and clients on every key number its table shows (src/parent/stats/ranking.ts). The
 * picks under the table, and `run --until-decided`'s check that each is
 * decided, both read them from here, so they are the same rankings.
 */
import type { MetricInfo } from '../../shared/types/declaration-types.js';
import { isMeasured, type CellResult, type ScenarioInfo } from '../../shared/types/result-types.js';
import { parametersText, variedParameters } from '../parameter-labels.js';
import { isKeyMetric } from './cell-intervals.js';
import { CONFIDENCE_LEVEL } from './confidence.js';
import { picksOf, type Pick } from './ranking.js';

/** One parameter set's picks. */
interface PickSet {
  /** The parameters that tell this set from the others (`payload=32B`); '' when the scenario ran one set. */
  variant: string;
  picks: Pick[];
}

/**
 * The metrics ranked on: every key number the table shows (latencies, rates, costs), in its order;
 * with none there, the first primary latency and the first primary rate.
 */
export function rankedMetrics(scenario: ScenarioInfo): Array<[string, MetricInfo]> {
  const shown = scenario.table.filter((k) => isKeyMetric(scenario.metrics[k]));
  if (shown.length > 0) return shown.map((k) => [k, scenario.metrics[k]!]);
  const keys = Object.keys(scenario.metrics);
  const key = (info: MetricInfo | undefined, role: MetricInfo['role']): boolean =>
    isKeyMetric(info) && info.role === role;
  const latency = keys.find((k) => key(scenario.metrics[k], 'primary-latency'));
  const rate = keys.find((k) => key(scenario.metrics[k], 'primary-rate'));
  return [latency, rate].filter((k): k is string => k !== undefined).map((k) => [k, scenario.metrics[k]!]);
}

/** The level the cells' intervals were stated at (a run --until-decided states them at its last look's share). */
export function intervalLevel(cells: ReadonlyArray<CellResult>): number {
  for (const cell of cells) {
    if (!isMeasured(cell)) continue;
    const found = Object.values(cell.intervals ?? {})[0];
    if (found) return found.level;
  }
  return CONFIDENCE_LEVEL;
}

/** The picks of one scenario's cells, per parameter set, at the level their intervals were stated at. */
export function pickSets(scenario: ScenarioInfo, cells: ReadonlyArray<CellResult>): PickSet[] {
  const measured = cells.filter(isMeasured);
  const varied = variedParameters(measured);
  const variants = new Map<string, CellResult[]>();
  for (const cell of measured) {
    const label = parametersText(cell.params, varied, scenario.parameters);
    variants.set(label, [...(variants.get(label) ?? []), cell]);
  }
  const metrics = rankedMetrics(scenario);
  const level = intervalLevel(cells);
  return [...variants].flatMap(([variant, group]) => {
    const picks = picksOf(group, metrics, { level });
    return picks.length ? [{ variant, picks }] : [];
  });
}

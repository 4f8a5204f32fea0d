/**
 * "What to pick", in words, for the table, the HTML and the Markdown: per
 * parameter set, the best server and the best client on the scenario's first
 * primary latency and first primary rate (src/stats/ranking.ts), the stacks
 * tied with it, and each significant difference as a ratio with its interval:
 * "ws: p50 ms 12% [8%, 16%] higher than uws, across 4 clients".
 */
import type { MetricInfo } from '../../declaration-types.js';
import { isMeasured, type CellResult, type ScenarioInfo } from '../../result-types.js';
import { picksOf, type Difference, type Pick } from '../../stats/ranking.js';
import { isKeyMetric } from '../../stats/cell-intervals.js';
import { percentInterval, percentOff } from '../interval-text.js';
import { parametersText, variedParameters } from '../parameter-labels.js';

/** One parameter set's picks, in words. */
export interface PickSection {
  /** The parameters that tell this set from the others (`payload=32B`); '' when the scenario ran one set. */
  variant: string;
  lines: string[];
}

/** The metrics ranked on: the first primary latency and the first primary rate, in the table's order. */
export function rankedMetrics(scenario: ScenarioInfo): Array<[string, MetricInfo]> {
  const keys = [...scenario.table, ...Object.keys(scenario.metrics).filter((k) => !scenario.table.includes(k))];
  const key = (info: MetricInfo | undefined, role: MetricInfo['role']): boolean =>
    isKeyMetric(info) && info.role === role;
  const latency = keys.find((k) => key(scenario.metrics[k], 'primary-latency'));
  const rate = keys.find((k) => key(scenario.metrics[k], 'primary-rate'));
  return [latency, rate].filter((k): k is string => k !== undefined).map((k) => [k, scenario.metrics[k]!]);
}

export function pickSections(scenario: ScenarioInfo, cells: ReadonlyArray<CellResult>): PickSection[] {
  const measured = cells.filter(isMeasured);
  const varied = variedParameters(measured);
  const variants = new Map<string, CellResult[]>();
  for (const cell of measured) {
    const label = parametersText(cell.params, varied, scenario.parameters);
    variants.set(label, [...(variants.get(label) ?? []), cell]);
  }
  const metrics = rankedMetrics(scenario);
  return [...variants].flatMap(([variant, group]) => {
    const picks = picksOf(group, metrics);
    return picks.length
      ? [{ variant, lines: picks.flatMap((p) => pickLines(p, scenario.metrics[p.metric]?.header ?? p.metric)) }]
      : [];
  });
}

/** The picks under a table: a heading, then each parameter set's lines. */
export function pickFootnotes(scenario: ScenarioInfo, cells: ReadonlyArray<CellResult>): string[] {
  const sections = pickSections(scenario, cells);
  if (sections.length === 0) return [];
  return [
    '',
    'what to pick (each ratio with its 95 % interval; stacks whose interval holds no difference are tied):',
    ...sections.flatMap((s) => [
      ...(s.variant ? [`  ${s.variant}:`] : []),
      ...s.lines.map((l) => `${s.variant ? '    ' : '  '}${l}`),
    ]),
  ];
}

function pickLines(pick: Pick, header: string): string[] {
  const best = `${pick.role}s on ${header}: ${pick.best} ${pick.better === 'lower' ? 'lowest' : 'highest'}`;
  const tied = pick.tied.length
    ? `; tied with it: ${pick.tied.map((d) => d.stack).join(', ')}`
    : pick.differs.length
      ? `; no other ${pick.role} tied with it`
      : `; no other ${pick.role} compares with it`;
  return [
    `${best}${tied}`,
    ...pick.differs.map((d) => `  ${differenceText(d, pick, header)}`),
    ...pick.unranked.map((u) => `  ${u.stack}: not ranked (${u.why})`),
  ];
}

/** `ws: p50 ms 12% [8%, 16%] higher than uws, across 4 clients`. */
export function differenceText(d: Difference, pick: Pick, header: string): string {
  const way = d.ratio.ratio > 1 ? 'higher' : 'lower';
  const partner = pick.role === 'server' ? 'client' : 'server';
  const across = d.across.length === 1 ? `with the ${d.across[0]} ${partner}` : `across ${d.across.length} ${partner}s`;
  return `${d.stack}: ${header} ${percentOff(d.ratio.ratio)} ${percentInterval(d.ratio)} ${way} than ${pick.best}, ${across}`;
}

/**
 * "What to pick", in words, for the table, the HTML and the Markdown: per
 * parameter set and key number of the table, the best server and the best
 * client (src/parent/stats/ranking.ts) and how each other stack stands against it:
 * "ws: p50 ms 12% [8%, 16%] higher than uws, across 4 clients", the same
 * (within the margin), cannot tell, or the two tests disagree, each with its
 * interval. A stack is called lowest or highest only when every other differs
 * from it; with no interval to compare, the line says nothing can be ranked.
 */
import type { CellResult, RatioInterval, ScenarioInfo } from '../../../shared/types/result-types.js';
import { NO_INTERVAL, type Difference, type Pick } from '../../stats/ranking.js';
import { pickSets } from '../../stats/pick-sets.js';
import { CONFIDENCE_LEVEL } from '../../stats/confidence.js';
import { levelPercent, percentInterval, percentOff, signedPercent, signedPercentInterval } from '../interval-text.js';

export { rankedMetrics } from '../../stats/pick-sets.js';

/** One parameter set's picks, in words. */
interface PickSection {
  /** The parameters that tell this set from the others (`payload=32B`); '' when the scenario ran one set. */
  variant: string;
  lines: string[];
  /** The picks the lines say. */
  picks: Pick[];
}

/** How to get intervals when nothing has one. */
const HOW_TO_GET_INTERVALS = '--repeat 3 or more gives every key number an interval from its rounds';

export function pickSections(scenario: ScenarioInfo, cells: ReadonlyArray<CellResult>): PickSection[] {
  return pickSets(scenario, cells).map(({ variant, picks }) => ({
    variant,
    picks,
    lines: picks.flatMap((p) => pickLines(p, scenario.metrics[p.metric]?.header ?? p.metric)),
  }));
}

/** The heading of the picks: what the intervals are and when a difference is said. */
export function picksHeading(sections: PickSection[]): string {
  const level = sections[0]?.picks[0]?.level ?? CONFIDENCE_LEVEL;
  const margin = sections[0]?.picks[0]?.marginPct ?? 5;
  return `what to pick (the pooled values' ratio with its ${levelPercent(level)} interval; a difference where the paired-by-round and the unpaired test both find one, "the same" within ±${margin}%, else "cannot tell"):`;
}

/** The picks under a table: a heading, then each parameter set's lines. */
export function pickFootnotes(scenario: ScenarioInfo, cells: ReadonlyArray<CellResult>): string[] {
  const sections = pickSections(scenario, cells);
  if (sections.length === 0) return [];
  return [
    '',
    picksHeading(sections),
    ...sections.flatMap((s) => [
      ...(s.variant ? [`  ${s.variant}:`] : []),
      ...s.lines.map((l) => `${s.variant ? '    ' : '  '}${l}`),
    ]),
  ];
}

function pickLines(pick: Pick, header: string): string[] {
  const what = `${pick.role}s on ${header}`;
  const way = pick.better === 'lower' ? 'lowest' : 'highest';
  if (pick.best === null) {
    return [`${what}: nothing can be ranked: no stack has an interval to compare with (${HOW_TO_GET_INTERVALS})`];
  }
  const open = [...pick.cannotTell, ...pick.split];
  const ranked = pick.differs.length + pick.same.length + open.length > 0;
  const ofRanked = pick.unranked.length > 0 ? ` of those ranked` : '';
  const head = !ranked
    ? `${what}: nothing can be ranked against ${pick.best}`
    : open.length > 0
      ? `${what}: ${way} not decided between ${[pick.best, ...pick.same, ...open].map(nameOf).join(', ')}`
      : pick.same.length > 0
        ? `${what}: ${[pick.best, ...pick.same.map((d) => d.stack)].join(' and ')} ${way}${ofRanked}, the same within ±${pick.marginPct}%`
        : `${what}: ${pick.best} ${way}${ofRanked}`;
  return [
    head,
    ...[...pick.split, ...pick.cannotTell, ...pick.same, ...pick.differs].map(
      (d) => `  ${differenceText(d, pick, header)}`,
    ),
    ...pick.unranked.map(
      (u) => `  ${u.stack}: not ranked (${u.why}${u.why === NO_INTERVAL ? `: ${HOW_TO_GET_INTERVALS}` : ''})`,
    ),
  ];
}

function nameOf(d: Difference | string): string {
  return typeof d === 'string' ? d : d.stack;
}

/**
 * `ws: p50 ms 12% [8%, 16%] higher than uws, across 4 clients`; a tie signed, with its interval:
 * `ws: the same as uws: p50 ms +1.2% [-2.1%, +4.6%], with the ws client`.
 */
function differenceText(d: Difference, pick: Pick, header: string): string {
  const partner = pick.role === 'server' ? 'client' : 'server';
  const across = d.across.length === 1 ? `with the ${d.across[0]} ${partner}` : `across ${d.across.length} ${partner}s`;
  const estimate = pairedBeside(d);
  const best = pick.best!;
  switch (d.standing) {
    case 'differs': {
      const way = d.ratio.ratio > 1 ? 'higher' : 'lower';
      return `${d.stack}: ${header} ${percentOff(d.ratio.ratio)} ${percentInterval(d.ratio)} ${way} than ${best}${estimate}, ${across}`;
    }
    case 'same':
      return `${d.stack}: the same as ${best}: ${header} ${signedChange(d.ratio)}${estimate}, within ±${pick.marginPct}%, ${across}`;
    case 'cannot tell':
      return `${d.stack}: cannot tell from ${best}: ${header} ${signedChange(d.ratio)}${estimate}, ${across}: more rounds narrow it (--until-decided)`;
    case 'split':
      return `${d.stack}: the tests disagree against ${best} on ${header} (${signedPercent(d.ratio.ratio)} pooled): ${d.test.disagreement}, ${across}: more rounds decide (--until-decided)`;
  }
}

/** `+1.2% [-2.1%, +4.6%]`. */
function signedChange(ratio: RatioInterval): string {
  return `${signedPercent(ratio.ratio)} ${signedPercentInterval(ratio)}`;
}

/** `(the rounds' own ratio +9.0%)` beside a paired ratio whose rounds, each weighing the same, read otherwise than the pool. */
function pairedBeside(d: Difference): string {
  if (d.test.pairedEstimate === undefined || d.standing === 'split') return '';
  const paired = signedPercent(d.test.pairedEstimate);
  return paired === signedPercent(d.ratio.ratio) ? '' : ` (paired estimate ${paired})`;
}

/**
 * The lines under a scenario's table about its statistics: what the ± after a
 * number is and how it was read, the key numbers that have none and why, the
 * cells whose rounds disagree far beyond their own spread, and each cell's
 * verdict against `run --slo` where it is not a plain pass.
 */
import {
  isMeasured,
  type CellResult,
  type MeasuredCell,
  type ScenarioInfo,
} from '../../../shared/types/result-types.js';
import { CONFIDENCE_LEVEL } from '../../stats/confidence.js';
import { levelPercent } from '../interval-text.js';

export function statisticsFootnotes(
  scenario: ScenarioInfo,
  cells: CellResult[],
  label: (cell: CellResult) => string,
): string[] {
  const measured = cells.filter(isMeasured);
  return [
    ...intervalLegend(scenario, measured),
    ...noIntervalLines(scenario, measured, label),
    ...unstableLines(measured, label),
    ...sloLines(measured, label),
  ];
}

/** What ± means, by the methods the shown intervals used. */
function intervalLegend(scenario: ScenarioInfo, cells: MeasuredCell[]): string[] {
  const shown = cells.flatMap((c) => scenario.table.flatMap((key) => (c.intervals?.[key] ? [c.intervals[key]] : [])));
  if (shown.length === 0) return [];
  const level = levelPercent(shown[0]?.level ?? CONFIDENCE_LEVEL);
  const rounds = [...new Set(shown.filter((i) => i.method === 'rounds').map((i) => i.samples))].sort((a, b) => a - b);
  const methods = [
    ...(rounds.length ? [`from the spread of the cell's ${rounds.join(' or ')} rounds`] : []),
    ...(shown.some((i) => i.method === 'window')
      ? [
          "from batch means over the cell's own window (one window cannot see how far two runs differ: --repeat 3 or more gives intervals that can)",
        ]
      : []),
  ];
  return [
    '',
    `±    the ${level} confidence interval of the number, ${methods.join('; ')}; docs/reading-results.md says how`,
  ];
}

/** Key numbers in the table with a value and no interval, one line per reason. */
function noIntervalLines(scenario: ScenarioInfo, cells: MeasuredCell[], label: (cell: CellResult) => string): string[] {
  const groups = new Map<string, string[]>();
  for (const cell of cells) {
    for (const key of scenario.table) {
      const reason = cell.noInterval?.[key];
      if (reason === undefined || typeof cell.metrics[key] !== 'number') continue;
      const what = `${scenario.metrics[key]?.header ?? key}: ${reason}`;
      groups.set(what, [...(groups.get(what) ?? []), label(cell)]);
    }
  }
  if (groups.size === 0) return [];
  return ['', ...[...groups].map(([what, pairs]) => `no ±  ${what.replace(/: /, ` of ${pairs.join(', ')}: `)}`)];
}

function unstableLines(cells: MeasuredCell[], label: (cell: CellResult) => string): string[] {
  const lines = cells.flatMap((c) => (c.unstable ? [`  ${label(c)}: ${c.unstable.replace(/^unstable: /, '')}`] : []));
  return lines.length
    ? [
        '',
        "unstable cells (their rounds disagree far beyond each round's own spread; their intervals are wide for it):",
        ...lines,
      ]
    : [];
}

/** `slo p99<10ms: 3 pass, 1 fail, 1 inconclusive`, then why each cell that did not pass did not. */
function sloLines(cells: MeasuredCell[], label: (cell: CellResult) => string): string[] {
  const judged = cells.filter((c) => c.slo);
  if (judged.length === 0) return [];
  const count = (verdict: string): number => judged.filter((c) => c.slo!.verdict === verdict).length;
  const tally = (['pass', 'fail', 'inconclusive'] as const)
    .filter((v) => count(v) > 0)
    .map((v) => `${count(v)} ${v}`)
    .join(', ');
  const clauses = [...new Set(judged.flatMap((c) => c.slo!.clauses.map((k) => k.clause)))].join(', ');
  const lines = judged.flatMap((c) =>
    c.slo!.clauses.filter((k) => k.verdict !== 'pass').map((k) => `  ${label(c)}: ${k.verdict}: ${k.why}`),
  );
  return [
    '',
    `slo  ${clauses}: ${tally} (judged on each value's interval: fail when all of it misses the bound, inconclusive when it straddles it)`,
    ...lines,
  ];
}

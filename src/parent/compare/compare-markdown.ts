/**
 * The comparison as GitHub-flavoured Markdown, for a pull request comment or a
 * step summary: one row per cell with its status and verdict, each compared
 * metric's change with its noise band (in percent of the base), the cells
 * only one file has, and the gate's line. Verdicts follow the same rule as the
 * text table (see compare-text.ts).
 */
import type { CellComparison, Comparison, MetricDelta, UnmatchedCell } from './compare.js';
import { formatChange, type Gate } from './compare-gate.js';
import { intervalText, levelText, noiseLegend, verdictLegend, verdictText } from './compare-text.js';
import { formatNumber } from '../report/run/table.js';
import { markdownCode, markdownTableCell, markdownText } from '../escape/markdown.js';

/** A comparison as Markdown, for a pull request comment or a CI summary. */
export function renderComparisonMarkdown(
  comparison: Comparison,
  names: { base: string; next: string },
  gate: Gate | null = null,
): string {
  const metrics = [
    ...new Set(comparison.cells.flatMap((c) => c.deltas.filter((d) => d.role !== 'status').map((d) => d.metric))),
  ];
  const header = ['cell', 'status', ...metrics, 'verdict'];
  const align = [':--', ':--', ...metrics.map(() => '--:'), ':--'];
  const blank = metrics.map(() => '');
  const rows = [
    ...comparison.cells.map((cell) => [
      markdownText(cell.label),
      statusText(cell),
      ...metrics.map((m) =>
        changeText(
          cell.deltas.find((d) => d.metric === m),
          gate,
        ),
      ),
      cellVerdict(cell, gate),
    ]),
    ...comparison.missingInNext.map((cell) => [
      markdownText(cell.label),
      `${markdownText(cell.status)} → missing`,
      ...blank,
      missingVerdict(cell),
    ]),
    ...comparison.newInNext.map((cell) => [
      markdownText(cell.label),
      `new: ${markdownText(cell.status)}`,
      ...blank,
      'new, not gated',
    ]),
  ];
  // Every user text of a cell went through markdownText above; the cell as a whole only has its pipes escaped.
  const line = (cells: string[]): string => `| ${cells.map(markdownTableCell).join(' | ')} |`;
  const quoted = [
    ...(comparison.environmentNote ? [`> **note**: ${markdownText(comparison.environmentNote)}`] : []),
    ...comparison.warnings.map((w) => `> **warning**: ${markdownText(w)}`),
  ];
  return [
    '### wsbench compare',
    '',
    `base ${markdownCode(names.base)}, new ${markdownCode(names.next)}`,
    '',
    ...(quoted.length ? [quoted.join('\n>\n'), ''] : []),
    line(header.map((h, i) => (i >= 2 && i < header.length - 1 ? markdownText(h) : h))),
    `| ${align.join(' | ')} |`,
    ...rows.map(line),
    '',
    `Each change is new against base in percent, with its interval (${levelText(comparison.intervalLevel)}); bold is what ${gate ? 'the gate counts' : 'regressed'}.`,
    '',
    verdictLegend(gate, comparison.marginPct, comparison),
    '',
    noiseLegend(comparison),
    ...(gate ? ['', gate.summary.replace(/^gate (passed|failed)/, '**gate $1**')] : []),
    '',
  ].join('\n');
}

function statusText(cell: CellComparison): string {
  return markdownText(
    cell.baseStatus === cell.nextStatus ? cell.baseStatus : `${cell.baseStatus} → ${cell.nextStatus}`,
  );
}

/** `+4.1% [-2.0%, +10.3%]`, or `0 → 3` where there is no percentage (a base of 0); bold when it counts as REGRESSED. */
function changeText(d: MetricDelta | undefined, gate: Gate | null): string {
  if (!d) return '';
  if (d.base === null || d.next === null) return 'n/a';
  let text: string;
  if (d.change) text = `${formatChange(d.change.estimatePct)} ${intervalText(d)}`;
  else if (d.changePct === null) text = `${formatNumber(d.base)} → ${formatNumber(d.next)}`;
  else text = formatChange(d.changePct);
  return verdictText(d, gate) === 'REGRESSED' ? `**${text}**` : text;
}

/** The worst that happened to a cell, with the metrics it happened to. */
function cellVerdict(cell: CellComparison, gate: Gate | null): string {
  const worded = cell.deltas.map((d) => ({ d, verdict: verdictText(d, gate) }));
  const what = (d: MetricDelta): string => {
    if (d.role === 'status')
      return markdownText(`${cell.nextStatus} in new${cell.nextReason ? `: ${cell.nextReason}` : ''}`);
    const pct = d.change?.estimatePct ?? d.changePct;
    return pct === null
      ? `${markdownText(d.metric)} ${formatNumber(d.base)} → ${formatNumber(d.next)}`
      : `${markdownText(d.metric)} ${formatChange(pct)}`;
  };
  const list = (verdict: string): string =>
    worded
      .filter((w) => w.verdict === verdict)
      .map((w) => what(w.d))
      .join('; ');
  // The worst first: what the gate counts, then what regressed, improved, could not be told, did not change.
  for (const verdict of ['REGRESSED', 'regressed', 'inconclusive', 'improved']) {
    if (worded.some((w) => w.verdict === verdict))
      return `${verdict === 'REGRESSED' ? '**REGRESSED**' : verdict}: ${list(verdict)}`;
  }
  if (worded.some((w) => w.verdict === 'unchanged')) return 'unchanged';
  return 'n/a';
}

function missingVerdict(cell: UnmatchedCell): string {
  return cell.status === 'skipped' ? 'n/a (skipped in base)' : '**REGRESSED**: missing in new';
}

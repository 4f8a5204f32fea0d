/**
 * The comparison as GitHub-flavoured Markdown, for a pull request comment or a
 * step summary: one row per cell with its status and verdict, each compared
 * metric's change with its noise band (in percent of the base), the cells
 * only one file has, and the gate's line. Verdicts follow the same rule as the
 * text table (see compare-text.ts).
 */
import type { CellComparison, Comparison, MetricDelta, UnmatchedCell } from './compare.js';
import { formatChange, type Gate } from './compare-gate.js';
import { noiseLegend, verdictLegend, verdictText } from './compare-text.js';
import { formatNumber } from './table.js';
import { markdownCode, markdownTableCell, markdownText } from '../escape/markdown.js';

export function renderComparisonMarkdown(comparison: Comparison, names: { base: string; next: string }, gate: Gate | null = null): string {
  const metrics = [...new Set(comparison.cells.flatMap((c) => c.deltas.filter((d) => d.role !== 'status').map((d) => d.metric)))];
  const header = ['cell', 'status', ...metrics, 'verdict'];
  const align = [':--', ':--', ...metrics.map(() => '--:'), ':--'];
  const blank = metrics.map(() => '');
  const rows = [
    ...comparison.cells.map((cell) => [markdownText(cell.label), statusText(cell), ...metrics.map((m) => changeText(cell.deltas.find((d) => d.metric === m), gate)), cellVerdict(cell, gate)]),
    ...comparison.missingInNext.map((cell) => [markdownText(cell.label), `${markdownText(cell.status)} → missing`, ...blank, missingVerdict(cell)]),
    ...comparison.newInNext.map((cell) => [markdownText(cell.label), `new: ${markdownText(cell.status)}`, ...blank, 'new, not gated']),
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
    `Each change is new against base, ± its noise band in percent of base; bold is what ${gate ? 'the gate counts' : 'regressed'}.`,
    '',
    verdictLegend(gate),
    '',
    noiseLegend(comparison),
    ...(gate ? ['', gate.summary.replace(/^gate (passed|failed)/, '**gate $1**')] : []),
    '',
  ].join('\n');
}

function statusText(cell: CellComparison): string {
  return markdownText(cell.baseStatus === cell.nextStatus ? cell.baseStatus : `${cell.baseStatus} → ${cell.nextStatus}`);
}

/** `+4.1% ±2.0%`, or `0 → 3` where there is no percentage (a base of 0); bold when it counts as REGRESSED. */
function changeText(d: MetricDelta | undefined, gate: Gate | null): string {
  if (!d) return '';
  if (d.base === null || d.next === null) return 'n/a';
  let text: string;
  if (d.changePct === null) text = `${formatNumber(d.base)} → ${formatNumber(d.next)}`;
  else {
    const band = d.noise === null || d.base === 0 ? '' : ` ±${((d.noise / Math.abs(d.base)) * 100).toFixed(1)}%`;
    text = `${formatChange(d.changePct)}${band}`;
  }
  return verdictText(d, gate) === 'REGRESSED' ? `**${text}**` : text;
}

/** The worst that happened to a cell, with the metrics it happened to. */
function cellVerdict(cell: CellComparison, gate: Gate | null): string {
  const worded = cell.deltas.map((d) => ({ d, verdict: verdictText(d, gate) }));
  const what = (d: MetricDelta): string => {
    if (d.role === 'status') return markdownText(`${cell.nextStatus} in new${cell.nextReason ? `: ${cell.nextReason}` : ''}`);
    return d.changePct === null ? `${markdownText(d.metric)} ${formatNumber(d.base)} → ${formatNumber(d.next)}` : `${markdownText(d.metric)} ${formatChange(d.changePct)}`;
  };
  const list = (verdict: string): string => worded.filter((w) => w.verdict === verdict).map((w) => what(w.d)).join('; ');
  if (worded.some((w) => w.verdict === 'REGRESSED')) return `**REGRESSED**: ${list('REGRESSED')}`;
  const under = worded.find((w) => w.verdict.startsWith('regressed, under'));
  if (under) return `${under.verdict}: ${list(under.verdict)}`;
  if (worded.some((w) => w.verdict === 'improved')) return `improved: ${list('improved')}`;
  if (worded.some((w) => w.verdict === 'within noise')) return 'within noise';
  return 'n/a';
}

function missingVerdict(cell: UnmatchedCell): string {
  return cell.status === 'skipped' ? 'n/a (skipped in base)' : '**REGRESSED**: missing in new';
}

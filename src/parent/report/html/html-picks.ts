/**
 * The "what to pick" block of report.html: the same sentences as under the
 * terminal's table (report/run/pick-text.ts), as a list per parameter set, and the noise
 * control's reading when the run had one.
 */
import type { CellResult, ScenarioInfo } from '../../../shared/types/result-types.js';
import { escapeHtml } from '../../escape/html.js';
import { pickSections, picksHeading } from '../run/pick-text.js';

export function picksHtml(scenario: ScenarioInfo, cells: ReadonlyArray<CellResult>): string {
  const sections = pickSections(scenario, cells);
  if (sections.length === 0) return '';
  const list = (lines: string[]): string => {
    // A line that starts with two spaces belongs to the line before it.
    const items: string[][] = [];
    for (const line of lines) {
      if (line.startsWith('  ') && items.length > 0) items.at(-1)!.push(line.trim());
      else items.push([line]);
    }
    return `<ul class="picks">\n${items.map(([head, ...rest]) => `<li>${escapeHtml(head!)}${rest.length ? `<ul>${rest.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>` : ''}</li>`).join('\n')}\n</ul>`;
  };
  return [
    '<h3>What to pick</h3>',
    `<p class="fixed">${escapeHtml(picksHeading(sections).replace(/^what to pick \((.*)\):$/, '$1'))} (docs/reading-results.md).</p>`,
    ...sections.map((s) => `${s.variant ? `<h4>${escapeHtml(s.variant)}</h4>\n` : ''}${list(s.lines)}`),
  ].join('\n');
}

/**
 * A run's result as GitHub-flavoured Markdown, for a step summary or a pull
 * request comment (`run --summary FILE`): per scenario the table the terminal
 * shows (each key number with its interval, the SLO column when judged), the
 * "what to pick" lines, the SLO's verdicts and unstable cells, then the noise
 * control. A pure function of the result, from the same strings as the table.
 */
import type { BenchResult } from '../../../shared/types/result-types.js';
import { cellTable } from './table.js';
import { pickSections, picksHeading } from './pick-text.js';
import { controlLines } from './control-text.js';
import { summaryFirstLines } from './noise-first.js';
import { statisticsFootnotes } from './table-stats-notes.js';
import { cellLabel, variedParameters } from '../../parameter-labels.js';
import { visibleControls } from '../../escape/controls.js';
import { markdownCode } from '../../escape/markdown.js';

/** A result as a Markdown table, for a pull request comment or a CI summary. */
export function renderResultMarkdown(result: BenchResult): string {
  const sections = result.scenarios.map((scenario) => {
    const cells = result.cells.filter((c) => c.scenario === scenario.name);
    const table = cellTable(scenario, cells);
    const align = table.header.map((_, i) => (i < table.textColumns ? ':--' : '--:'));
    const rows = table.rows.map((r) =>
      r.values.length === table.header.length
        ? r.values
        : [...r.values, ...Array<string>(table.header.length - r.values.length).fill('')],
    );
    const picks = pickSections(scenario, cells);
    const notes = statisticsFootnotes(scenario, cells, (c) =>
      cellLabel(c, variedParameters(cells), scenario.parameters),
    ).filter((l) => l !== '');
    return [
      `### ${escapeMarkdown(scenario.name)}`,
      '',
      ...(table.fixed ? [markdownCode(table.fixed), ''] : []),
      row(table.header),
      `| ${align.join(' | ')} |`,
      ...rows.map(row),
      '',
      ...(picks.length
        ? [
            `**What to pick** ${escapeMarkdown(picksHeading(picks).replace(/^what to pick /, ''))}`,
            '',
            ...picks.flatMap((p) => [
              ...(p.variant ? [`- ${escapeMarkdown(p.variant)}`] : []),
              ...p.lines.map(
                (l) => `${p.variant ? '  ' : ''}${l.startsWith('  ') ? '  - ' : '- '}${escapeMarkdown(l.trim())}`,
              ),
            ]),
            '',
          ]
        : []),
      ...(notes.length ? ['```', ...notes, '```', ''] : []),
    ].join('\n');
  });
  const control = controlLines(result).filter((l) => l !== '');
  const first = summaryFirstLines(result).map((l) => `> ${escapeMarkdown(l)}\n`);
  return ['## wsbench run', '', ...first, ...sections, ...control.map((l) => `${escapeMarkdown(l)}\n`)].join('\n');
}

function row(values: string[]): string {
  return `| ${values.map((v) => escapeMarkdown(v).replace(/\|/g, '\\|')).join(' | ')} |`;
}

/** Text that is not Markdown: characters that would format are escaped, line breaks become spaces, other control characters visible stand-ins. */
function escapeMarkdown(text: string): string {
  return visibleControls(text.replace(/([\\`*_[\]<>])/g, '\\$1').replace(/\s*\n\s*/g, ' '));
}

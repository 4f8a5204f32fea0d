/** GitHub-flavoured Markdown, for a pull request comment or a CI step summary. */
import type { OutputFormat } from './format-types.js';
import { renderResultMarkdown } from '../report/run/run-markdown.js';
import { renderComparisonMarkdown } from '../compare/compare-markdown.js';

const endLine = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);

export const markdownFormat: OutputFormat = {
  description:
    'GitHub-flavoured Markdown: the tables with their intervals, what to pick, the gate (as --summary appends it)',
  forPeople: true,
  render: {
    run: (result) => endLine(renderResultMarkdown(result)),
    comparison: ({ comparison, names, gate }) => endLine(renderComparisonMarkdown(comparison, names, gate)),
  },
};

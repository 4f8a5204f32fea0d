/** The terminal's tables: what stdout gets when no --format says otherwise. */
import type { OutputFormat } from './format-types.js';
import { renderTable } from '../report/run/table.js';
import { renderCapacityTable } from '../report/capacity/capacity-table.js';
import { renderComparison } from '../compare/compare-text.js';
import { terminalLines } from '../escape/terminal.js';

export const tableFormat: OutputFormat = {
  description: 'the tables the terminal shows (the default on stdout); `text` is another name for it',
  forPeople: true,
  render: {
    // Each table escapes its own text field by field; terminalLines is the net for any that would not.
    run: (result) => `${terminalLines(renderTable(result))}\n`,
    capacity: (result) => `${terminalLines(renderCapacityTable(result))}\n`,
    comparison: ({ comparison, names, gate }) => `${renderComparison(comparison, names, gate)}\n`,
  },
};

/** The result as JSON, indented: for a run or a capacity search the result file's own text; a comparison with its gate. */
import type { OutputFormat } from './format-types.js';

const indented = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

export const jsonFormat: OutputFormat = {
  description:
    'the result JSON, as the result file holds it (a comparison: its deltas and `gate`); `--json` is the same on stdout',
  forPeople: false,
  wholeResult: true,
  render: {
    run: indented,
    capacity: indented,
    comparison: ({ comparison, gate }) => indented({ ...comparison, gate }),
  },
};

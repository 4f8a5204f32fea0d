/** The result as one line of JSON: a shard's result in `kubectl logs`, read back by `wsbench merge`. */
import type { OutputFormat } from './format-types.js';

const oneLine = (value: unknown): string => `${JSON.stringify(value)}\n`;

export const jsonLineFormat: OutputFormat = {
  description:
    'the result JSON on one line (for `kubectl logs`, then `wsbench merge`); `--json-line` is the same on stdout',
  forPeople: false,
  wholeResult: true,
  render: {
    run: oneLine,
    capacity: oneLine,
    comparison: ({ comparison, gate }) => oneLine({ ...comparison, gate }),
  },
};

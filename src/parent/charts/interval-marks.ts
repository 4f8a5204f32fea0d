/**
 * Error bars: a thin rule from each value's 95 % interval low to its high,
 * drawn over a bar or a point where the cell has an interval for the metric
 * (rows carry `low` and `high`; rows without them get none). The caption of a
 * chart that draws them says what they are.
 */
import type { MeasuredCell } from '../../shared/types/result-types.js';

/** Say so in a caption that draws intervals. */
export const INTERVAL_CAPTION = 'Whiskers are the 95 % interval of each value (docs/reading-results.md).';

/** `{ low, high }` of the cell's interval of `key`, rounded like the values; {} without one. */
export function intervalFields(
  cell: MeasuredCell,
  key: string,
  round: (value: number) => number,
): { low?: number; high?: number } {
  const interval = cell.intervals?.[key];
  return interval ? { low: round(interval.low), high: round(interval.high) } : {};
}

/** A layer of rules from `low` to `high`, on the same x (and x offset) as the value's mark. */
export function intervalRules(encoding: Record<string, unknown>) {
  return [
    {
      transform: [{ filter: 'isValid(datum.low) && isValid(datum.high)' }],
      mark: { type: 'rule' as const, color: '#222', strokeWidth: 1.2 },
      encoding: { ...encoding, y: { field: 'low', type: 'quantitative' as const }, y2: { field: 'high' } },
    },
  ];
}

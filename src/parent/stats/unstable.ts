/**
 * A cell whose rounds disagree far more than their own spread: the machine
 * changed under it (on a shared 2-core box the loopback round trip switches
 * between about 0.025 and 0.075 ms for seconds at a time). Its numbers are
 * still what was measured, but a reader must know that the next run may read
 * 3x apart, and its interval (from the rounds) is wide for that reason.
 */
import type { MetricInfo } from '../../shared/types/declaration-types.js';
import type { RoundResult } from '../../shared/types/result-types.js';
import { isKeyMetric } from './cell-intervals.js';

/** Rounds whose largest value is this many times their smallest are unstable ... */
const UNSTABLE_RATIO = 1.5;
/* ... when each round's own interval (where the file has it) is too narrow to explain it: the two do not overlap. */

/** Why the cell is unstable, in words ("rounds differ 2.9x: p50 ms 0.027 to 0.079 ..."); null when it is not. */
export function unstableRounds(
  metrics: Readonly<Record<string, MetricInfo>>,
  rounds: ReadonlyArray<RoundResult> | undefined,
): string | null {
  if (!rounds || rounds.length < 2) return null;
  let worst: { factor: number; text: string } | null = null;
  for (const [key, info] of Object.entries(metrics)) {
    // Latencies and rates: a cost moving between rounds is what it is measured to show, not a machine changing speed.
    if (!isKeyMetric(info) || info.role === 'cost') continue;
    const values = rounds.flatMap((r, i) => {
      const v = r.metrics?.[key];
      return typeof v === 'number' && v > 0 ? [{ v, i }] : [];
    });
    if (values.length < 2) continue;
    const low = values.reduce((a, b) => (b.v < a.v ? b : a));
    const high = values.reduce((a, b) => (b.v > a.v ? b : a));
    const factor = high.v / low.v;
    if (factor < UNSTABLE_RATIO || !beyondOwnSpread(rounds[low.i]!, rounds[high.i]!, key)) continue;
    if (worst === null || factor > worst.factor) {
      const own = rounds[low.i]!.intervals?.[key] ? ", far beyond each round's own interval" : '';
      worst = {
        factor,
        text: `rounds differ ${factor.toFixed(1)}x: ${info.header} ${round(low.v)} (round ${low.i + 1}) to ${round(high.v)} (round ${high.i + 1})${own}`,
      };
    }
  }
  return worst
    ? `unstable: ${worst.text}; the machine changed speed between rounds, so a rerun may read as far apart`
    : null;
}

/** True when the two rounds' own intervals do not overlap, or the file does not have them. */
function beyondOwnSpread(low: RoundResult, high: RoundResult, key: string): boolean {
  const a = low.intervals?.[key];
  const b = high.intervals?.[key];
  return !a || !b || a.high < b.low;
}

function round(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toFixed(3);
}

/**
 * The noise control (`run --control`) in words, for the table and the HTML:
 * how far the same pair, measured twice in every round, read apart, and what
 * that means for the differences the run shows.
 */
import type { BenchResult, RatioInterval } from '../../../shared/types/result-types.js';
import { controlDisagrees } from '../../stats/control.js';

export function controlLines(result: BenchResult): string[] {
  const control = result.control;
  if (!control) return [];
  const metrics = result.scenarios[0]?.metrics ?? {};
  const readings = Object.entries(control.ratios).map(
    ([key, ratio]) => `${metrics[key]?.header ?? key} ${ratio ? ratioText(ratio) : 'n/a'}`,
  );
  const off = controlDisagrees(control);
  // How far apart the two read, by their estimates: the size of a difference that is this machine's noise.
  const apart = Math.max(0, ...Object.values(control.ratios).map((r) => (r ? Math.abs(Math.log(r.ratio)) : 0)));
  const pct = `${((Math.exp(apart) - 1) * 100).toFixed(0)}%`;
  const verdict = off.length
    ? `the two identical cells differ beyond their intervals (${off.map((k) => metrics[k]?.header ?? k).join(', ')}): this machine moved more than the intervals allow, so treat differences up to ${pct} between other cells as noise, and measure again with more rounds (--repeat) or on a quieter machine`
    : `they read up to ${pct} apart, within their intervals: the intervals hold this machine's noise`;
  return [
    '',
    `control: ${control.server} x ${control.client} measured twice in every round (first and last), second over first: ${readings.join(', ')}; ${verdict}`,
  ];
}

/** `1.04 [0.95, 1.13]`. */
function ratioText(ratio: RatioInterval): string {
  return `${ratio.ratio.toFixed(2)} [${ratio.low.toFixed(2)}, ${ratio.high.toFixed(2)}]`;
}

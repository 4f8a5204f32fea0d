/**
 * A number with its interval, compactly, the way the table, the HTML and the
 * summaries show it: `0.027 ±0.001` when the 95 % interval is about as far
 * from the value on both sides (in the value's own decimals), else its bounds,
 * `0.163 [0.092, 0.289]` (intervals are read on the log scale, so a wide one
 * reaches further up than down); and ratios as percentages with their interval.
 */
import type { RatioInterval, ValueInterval } from '../../shared/types/result-types.js';

/** Sides of an interval this close (the longer at most this many times the shorter) are shown as one ±. */
const SYMMETRIC_ENOUGH = 1.25;

/** `0.027 ±0.001`, or `0.163 [0.092, 0.289]`: `value` as the table formats it (`text`), with its interval in the same decimals. */
export function withInterval(text: string, value: number, interval: ValueInterval | undefined): string {
  if (!interval) return text;
  const decimals = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0;
  const below = value - interval.low;
  const above = interval.high - value;
  if (
    Math.max(below, above) <= SYMMETRIC_ENOUGH * Math.min(below, above) ||
    Math.max(below, above).toFixed(decimals) === Math.min(below, above).toFixed(decimals)
  ) {
    return `${text} ±${Math.max(below, above).toFixed(decimals)}`;
  }
  return `${text} [${interval.low.toFixed(decimals)}, ${interval.high.toFixed(decimals)}]`;
}

/** `12%` faster / lower ...: how far a ratio is from 1, in percent, rounded to what its interval allows. */
export function percentOff(ratio: number): string {
  const pct = Math.abs(ratio - 1) * 100;
  return `${pct >= 10 ? pct.toFixed(0) : pct.toFixed(1)}%`;
}

/** `[8%, 16%]`: the interval of a ratio's distance from 1, in the direction the estimate goes (signed when it crosses). */
export function percentInterval(ratio: RatioInterval): string {
  const sign = ratio.ratio >= 1 ? 1 : -1;
  const bounds = [ratio.low, ratio.high].map((r) => sign * (r - 1) * 100).sort((a, b) => a - b);
  const show = (pct: number): string =>
    `${pct < 0 ? '-' : ''}${Math.abs(pct) >= 10 ? Math.abs(pct).toFixed(0) : Math.abs(pct).toFixed(1)}%`;
  return `[${show(bounds[0]!)}, ${show(bounds[1]!)}]`;
}

/** `+12%`, `-4.1%`: a ratio's distance from 1 with its sign. */
export function signedPercent(ratio: number): string {
  const pct = (ratio - 1) * 100;
  return `${pct < 0 ? '-' : '+'}${percentOff(ratio)}`;
}

/** `[-2.1%, +4.6%]`: a ratio's interval as signed distances from 1. */
export function signedPercentInterval(ratio: Pick<RatioInterval, 'low' | 'high'>): string {
  return `[${signedPercent(ratio.low)}, ${signedPercent(ratio.high)}]`;
}

/** `95 %`, `98.5 %`: a level as a sentence says it, to one decimal where it has one. */
export function levelPercent(level: number): string {
  const pct = level * 100;
  return `${Number.isInteger(Number(pct.toFixed(1))) ? pct.toFixed(0) : pct.toFixed(1)} %`;
}

/**
 * Text in a Vega-Lite spec, and so in its SVG. Vega-Lite copies titles into
 * Vega expression strings of its own (each mark's ARIA description) escaping
 * only the double quote: a backslash there ends the string early (`a\"b` in a
 * metric header made `report` die), and a line break or U+2028 is a syntax
 * error. So every text of a spec goes through vegaText: control characters as
 * visible stand-ins, a backslash as the look-alike "∖" (U+2216), the one
 * change that no escaping can avoid, since the same title is drawn as it is on
 * an axis. Expressions wsbench writes itself quote text with vegaString.
 */
import { visibleControls } from './controls.js';

/** Stands in for "\" in spec text: U+2216 SET MINUS, drawn alike by the fonts charts use (DejaVu Sans has it). */
const BACKSLASH_STAND_IN = '\u2216';

export function vegaText(text: string): string {
  return visibleControls(text).replace(/\\/g, BACKSLASH_STAND_IN);
}

/** A Vega expression string literal holding `text` (as vegaText shows it), for an expression wsbench builds. */
export function vegaString(text: string): string {
  return JSON.stringify(vegaText(text));
}

/** Keys whose string values Vega-Lite reads as expressions or field paths: wsbench writes those itself, never a user. */
const STRUCTURAL_KEYS = new Set([
  'expr',
  'labelExpr',
  'filter',
  'calculate',
  'test',
  'field',
  'signal',
  '$schema',
  'type',
  'as',
]);

/**
 * The spec with vegaText applied to every string in it (titles, subtitles,
 * descriptions, data values, sort orders, filter values alike, so that what a
 * filter compares still matches its data), except the structural strings of
 * STRUCTURAL_KEYS. A spec of plain text comes back equal.
 */
export function vegaSafeSpec<T>(spec: T): T {
  return safe(spec, null) as T;
}

function safe(value: unknown, key: string | null): unknown {
  if (typeof value === 'string') return key !== null && STRUCTURAL_KEYS.has(key) ? value : vegaText(value);
  if (Array.isArray(value)) return value.map((item) => safe(item, key));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, safe(v, k)]));
}

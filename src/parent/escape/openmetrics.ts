/**
 * A label value in the Prometheus text format and OpenMetrics: inside its
 * double quotes only `\\`, `\"` and `\n` are escapes, and a raw quote or line
 * break would end the value or the sample. Other control characters are shown
 * as visible stand-ins, so a scrape printed to a terminal cannot recolour it.
 */
import { visibleControls } from './controls.js';

export function openMetricsLabelValue(value: string): string {
  return visibleControls(value, '\n').replace(/[\\"\n]/g, (ch) => (ch === '\n' ? '\\n' : `\\${ch}`));
}

/** HELP text: only `\\` and `\n` are escapes there (a quote stands as it is); other controls become stand-ins. */
export function openMetricsHelp(value: string): string {
  return visibleControls(value, '\n').replace(/[\\\n]/g, (ch) => (ch === '\n' ? '\\n' : '\\\\'));
}

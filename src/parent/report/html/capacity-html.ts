/**
 * The capacity section of report.html: the per-server table (capacity, where
 * and what broke), the search's charts, each server's steps, and the notes on
 * how saturation and invalid steps were decided. The same rows as the
 * terminal's table (report/capacity/capacity-table.ts).
 */
import type { CapacityResult } from '../../../shared/types/result-types.js';
import { capacityNotes, capacitySteps, capacitySummary, capacityTitle } from '../capacity/capacity-table.js';
import { figureHtml, textTableHtml, type RenderedChart } from './html-parts.js';
import { escapeHtml } from '../../escape/html.js';

export function capacitySectionHtml(result: CapacityResult, charts: RenderedChart[]): string {
  const summary = capacitySummary(result.capacity);
  const steps = result.capacity.servers
    .filter((server) => server.steps.length > 0)
    .map((server) => {
      const table = capacitySteps(result, server);
      return `<h3>${escapeHtml(`${server.server} x ${server.client}`)}: steps in the order run</h3>\n${textTableHtml(table.header, table.rows, table.text)}`;
    });
  return [
    '<h2>Capacity</h2>',
    `<p>${escapeHtml(capacityTitle(result))}.</p>`,
    textTableHtml(summary.header, summary.rows, summary.text),
    ...charts.map(figureHtml),
    ...steps,
    `<pre class="footer">${escapeHtml(capacityNotes(result).join('\n'))}</pre>`,
  ].join('\n');
}

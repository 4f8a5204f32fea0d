/**
 * Pieces every part of report.html shares: inline SVG, a chart as a figure
 * with its caption, a plain text table (text escaped by src/parent/escape/html.ts).
 */
import type { ChartSpec } from '../../charts/common.js';
import { escapeHtml } from '../../escape/html.js';

export interface RenderedChart {
  chart: ChartSpec;
  /** The chart as SVG text, as written to charts/<name>.svg. */
  svg: string;
}

/**
 * Inline SVG in HTML needs no namespace declarations; dropping them keeps the
 * page free of any http:// text, so "no external reference" is checkable as
 * "no URL at all". Ids (vega's legend gradients) are numbered per chart, so
 * they get the chart's name as prefix: in one page, the first `gradient_0`
 * would otherwise colour every chart's legend.
 */
function inlineSvg(svg: string, idPrefix: string): string {
  return svg
    .replace(/^<svg([^>]*)>/, (_, attributes: string) => `<svg${attributes.replace(/\s+xmlns(:\w+)?="[^"]*"/g, '')}>`)
    .replace(/\bid="([^"]+)"/g, (_, id: string) => `id="${idPrefix}-${id}"`)
    .replace(/url\(#([^)]+)\)/g, (_, id: string) => `url(#${idPrefix}-${id})`);
}

/** A rendered chart as a figure: the SVG inline, its caption, the name of its spec file. */
export function figureHtml({ chart, svg }: RenderedChart): string {
  const caption = `${escapeHtml(chart.caption)} <small>(charts/${escapeHtml(chart.name)}.vl.json)</small>`;
  return `<figure id="${escapeHtml(chart.name)}">\n${inlineSvg(svg, chart.name)}\n<figcaption>${caption}</figcaption>\n</figure>`;
}

/** A table of text: the columns listed in `text` left-aligned, the rest right-aligned. */
export function textTableHtml(header: string[], rows: string[][], text: number[]): string {
  const cls = (i: number): string => (text.includes(i) ? ' class="text"' : '');
  const head = header.map((h, i) => `<th${cls(i)}>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map((row) => `<tr>${row.map((v, i) => `<td${cls(i)}>${escapeHtml(v)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<div class="cells"><table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table></div>`;
}

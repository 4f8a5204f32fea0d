/**
 * Everything a result file turns into on disk, next to it: charts/<name>.vl.json
 * (data inline, each stands alone), charts/<name>.svg, optionally .png, and
 * report.html. Used by `run` after the JSON is written and by `report`.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { BenchResult } from '../result-types.js';
import { buildCharts } from './charts/index.js';
import { renderHtml, type RenderedScenario } from './html.js';

export interface ArtifactOptions {
  /** Directory for report.html and charts/; defaults to the result file's directory. */
  outDir?: string;
  /** Also write charts/<name>.png. */
  png?: boolean;
}

/** Renders every chart once, for the files and the HTML alike. */
export async function renderCharts(result: BenchResult): Promise<RenderedScenario[]> {
  // vega and vega-lite take a few hundred ms to load: only commands that draw pay for them.
  const { renderSvg } = await import('./render-svg.js');
  const rendered: RenderedScenario[] = [];
  for (const { scenario, charts } of buildCharts(result)) {
    const done = [];
    for (const chart of charts) done.push({ chart, svg: await renderSvg(chart.spec) });
    rendered.push({ scenario, charts: done });
  }
  return rendered;
}

/** Writes the artifacts of `result` (read from or written to `resultPath`); returns the paths written. */
export async function writeArtifacts(result: BenchResult, resultPath: string, options: ArtifactOptions = {}): Promise<string[]> {
  const outDir = options.outDir ?? dirname(resultPath);
  const chartDir = join(outDir, 'charts');
  mkdirSync(chartDir, { recursive: true });
  const rendered = await renderCharts(result);
  const written: string[] = [];
  for (const { chart, svg } of rendered.flatMap((r) => r.charts)) {
    const stem = join(chartDir, chart.name);
    written.push(writeAtomically(`${stem}.vl.json`, JSON.stringify(chart.spec, null, 2) + '\n'));
    written.push(writeAtomically(`${stem}.svg`, svg));
    if (options.png) written.push(writeAtomically(`${stem}.png`, await (await import('./render-svg.js')).renderPng(svg)));
  }
  written.push(writeAtomically(join(outDir, 'report.html'), renderHtml(result, rendered)));
  return written;
}

/** Temp file + rename, like the result JSON: an open browser never sees half a report. */
function writeAtomically(path: string, content: string | Buffer): string {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
  return path;
}

/** Two lines for stderr after a run: where the report and the charts are. */
export function describeArtifacts(paths: string[]): string {
  const html = paths.find((p) => p.endsWith('report.html'));
  const charts = paths.filter((p) => p !== html);
  const chartDir = charts[0] === undefined ? null : dirname(charts[0]);
  return `report: ${html ?? 'not written'}\n` + (chartDir === null ? '' : `charts: ${charts.length} files in ${chartDir}${sep}\n`);
}

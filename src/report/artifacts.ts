/**
 * Everything a result file turns into on disk: report.html and charts/<name>.vl.json
 * (data inline, each stands alone), charts/<name>.svg, optionally .png. By default
 * they go to a folder of the result's own, `<name>.report/` beside `<name>.json`, so
 * runs that share a folder (/tmp, a CI workspace) never mix their charts. Used by
 * `run` after the JSON is written and by `report`.
 *
 * A folder keeps a list of the files wsbench wrote there (.wsbench-files.json).
 * Writing again removes the ones of the previous write that this one did not
 * rewrite (a chart the new result does not have), if they are unchanged since:
 * nothing else in the folder is ever touched.
 */
import { mkdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, extname, join, relative, sep } from 'node:path';
import type { BenchResult } from '../result-types.js';
import { buildCharts } from './charts/index.js';
import { renderHtml, type RenderedScenario } from './html.js';
import { writeAtomically } from '../write-atomically.js';

const MANIFEST = '.wsbench-files.json';

export interface ArtifactOptions {
  /** Directory for report.html and charts/; defaults to `<result name>.report/` beside the result file. */
  outDir?: string;
  /** Also write charts/<name>.png. */
  png?: boolean;
}

/** The default artifacts folder of a result file: results.json -> results.report/ beside it. */
export function artifactsDirOf(resultPath: string): string {
  const name = basename(resultPath);
  const stem = extname(name).toLowerCase() === '.json' ? name.slice(0, -extname(name).length) : name;
  return join(dirname(resultPath), `${stem}.report`);
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
  const outDir = options.outDir ?? artifactsDirOf(resultPath);
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
  replaceManifest(outDir, written);
  return written;
}

/** Size and modification time of each file wsbench wrote, by path relative to the folder. */
type Manifest = Record<string, { size: number; mtimeMs: number }>;

/** Records what this write made, and removes the previous write's files it did not remake, if nobody changed them. */
function replaceManifest(outDir: string, written: string[]): void {
  const path = join(outDir, MANIFEST);
  const previous = readManifest(path);
  const current: Manifest = {};
  for (const file of written) {
    const stat = statSync(file);
    current[relative(outDir, file)] = { size: stat.size, mtimeMs: stat.mtimeMs };
  }
  for (const [file, was] of Object.entries(previous)) {
    if (current[file] || file.includes('..')) continue;
    try {
      const stat = statSync(join(outDir, file));
      if (stat.isFile() && stat.size === was.size && stat.mtimeMs === was.mtimeMs) unlinkSync(join(outDir, file));
    } catch {
      // Already gone.
    }
  }
  writeAtomically(path, JSON.stringify(current, null, 2) + '\n');
}

function readManifest(path: string): Manifest {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Manifest) : {};
  } catch {
    return {};
  }
}

/** Two lines for stderr after a run: where the report and the charts are. */
export function describeArtifacts(paths: string[]): string {
  const html = paths.find((p) => p.endsWith('report.html'));
  const charts = paths.filter((p) => p !== html);
  const chartDir = charts[0] === undefined ? null : dirname(charts[0]);
  return `report: ${html ?? 'not written'}\n` + (chartDir === null ? '' : `charts: ${charts.length} files in ${chartDir}${sep}\n`);
}

/**
 * Everything a result file turns into on disk: report.html and charts/<name>.vl.json
 * (data inline, each stands alone), charts/<name>.svg, optionally .png. By default
 * they go to a folder of the result's own, `<name>.report/` beside `<name>.json`, so
 * runs that share a folder (/tmp, a CI workspace) never mix their charts. Used by
 * `run` after the JSON is written and by `report`.
 *
 * A folder keeps a list of the files wsbench wrote there (.wsbench-files.json).
 * Writing again removes the charts of the previous write that this one did not
 * rewrite (a chart the new result does not have), if they are provably the ones
 * it wrote (see artifacts-manifest.ts): nothing else in the folder is ever
 * touched. Nothing is written through a symlink: the folder and its charts/
 * are real folders or refused, and each file is written to a new temp file
 * and renamed over its name. A name that holds something wsbench did not
 * write there (a file the list does not name, a symlink, a FIFO) is refused
 * before any file is written: wsbench never replaces a file of yours.
 */
import { basename, dirname, extname, join, sep } from 'node:path';
import { UsageError } from '../../../shared/types/errors.js';
import { entryAt, kindOf, realFolder } from '../../../shared/safe-files.js';
import type { BenchResult } from '../../../shared/types/result-types.js';
import { buildChartsAndProblems, type ChartSpec } from '../../charts/index.js';
import type { RenderedChart } from './html-parts.js';
import { renderHtml, type RenderedScenario } from './html.js';
import { MANIFEST, manifestOf, notOwnFile, removeStale } from './artifacts-manifest.js';
import { writeAtomically } from '../../results/write-atomically.js';

/** The refusal of a symlinked folder, one line. */
const REAL_FOLDERS = 'wsbench writes a report folder only through real folders';

/** What writeArtifacts() takes: where the report folder goes (`outDir`) and whether to draw PNGs too. */
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
async function renderCharts(result: BenchResult): Promise<RenderedScenario[]> {
  // vega and vega-lite take a few hundred ms to load: only commands that draw pay for them.
  const { renderSvg } = await import('./render-svg.js');
  const rendered: RenderedScenario[] = [];
  const draw = async (charts: ChartSpec[]): Promise<RenderedChart[]> => {
    const done = [];
    for (const chart of charts) done.push({ chart, svg: await renderSvg(chart.spec) });
    return done;
  };
  for (const { scenario, capacity, charts, notDrawn } of buildChartsAndProblems(result)) {
    rendered.push({ scenario, capacity: await draw(capacity), charts: await draw(charts), notDrawn });
  }
  return rendered;
}

/** Writes the artifacts of `result` (read from or written to `resultPath`); returns the paths written. */
export async function writeArtifacts(
  result: BenchResult,
  resultPath: string,
  options: ArtifactOptions = {},
): Promise<string[]> {
  const outDir = options.outDir ?? artifactsDirOf(resultPath);
  const chartDir = join(outDir, 'charts');
  checkArtifactsFolder(outDir);
  realFolder(outDir, REAL_FOLDERS);
  realFolder(chartDir, REAL_FOLDERS);
  const rendered = await renderCharts(result);
  const charts = rendered.flatMap((r) => [...(r.capacity ?? []), ...r.charts]);
  const names = charts.flatMap(({ chart }) =>
    ['.vl.json', '.svg', ...(options.png ? ['.png'] : [])].map((ext) => join('charts', `${chart.name}${ext}`)),
  );
  refuseOthersFiles(outDir, names);
  const written: string[] = [];
  for (const { chart, svg } of charts) {
    const stem = join(chartDir, chart.name);
    written.push(writeAtomically(`${stem}.vl.json`, `${JSON.stringify(chart.spec, null, 2)}\n`));
    written.push(writeAtomically(`${stem}.svg`, svg));
    if (options.png)
      written.push(writeAtomically(`${stem}.png`, await (await import('./render-svg.js')).renderPng(svg)));
  }
  written.push(writeAtomically(join(outDir, 'report.html'), renderHtml(result, rendered)));
  replaceManifest(outDir, written);
  return written;
}

/** Records what this write made, and removes the previous write's charts it did not remake, if provably its own. */
function replaceManifest(outDir: string, written: string[]): void {
  removeStale(outDir, written);
  writeAtomically(join(outDir, MANIFEST), manifestOf(outDir, written));
}

/**
 * Before anything runs (and again before the report is written): `outDir` can take a report without
 * following a link or replacing a file wsbench did not write: the folder and its charts/ are real folders
 * or absent, and its report.html and file list are wsbench's or absent. Chart names are known only once
 * drawn; writeArtifacts checks them then, before writing any file.
 */
export function checkArtifactsFolder(outDir: string): void {
  for (const folder of [outDir, join(outDir, 'charts')]) {
    const entry = entryAt(folder);
    if (entry?.isSymbolicLink()) throw new UsageError(`${folder} is a symbolic link: ${REAL_FOLDERS}`);
    if (entry && !entry.isDirectory())
      throw new UsageError(
        `${folder} is ${kindOf(entry)}, where the report's ${folder === outDir ? 'folder' : 'charts folder'} goes`,
      );
    if (!entry) return; // No folder, nothing in it to refuse.
    if (folder === outDir) refuseOthersFiles(outDir, ['report.html']);
  }
}

/** Throws when one of `names` (relative to `outDir`) holds something wsbench did not write there. */
function refuseOthersFiles(outDir: string, names: string[]): void {
  const problem = notOwnFile(outDir, names);
  if (problem !== null)
    throw new UsageError(
      `${problem}: wsbench replaces only files it wrote; move it, or write the report to another folder`,
    );
}

/** Two lines for stderr after a run: where the report and the charts are. */
export function describeArtifacts(paths: string[]): string {
  const html = paths.find((p) => p.endsWith('report.html'));
  const charts = paths.filter((p) => p !== html);
  const chartDir = charts[0] === undefined ? null : dirname(charts[0]);
  return `report: ${html ?? 'not written'}\n${chartDir === null ? '' : `charts: ${charts.length} files in ${chartDir}${sep}\n`}`;
}

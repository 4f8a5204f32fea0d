/**
 * A result's files on disk, as `run` and `capacity` write them and as run({ out })
 * does: the JSON first (atomically; somewhere else when the place asked for
 * fails, so a measured run is never lost), then report.html and the charts
 * beside wherever it went. Nothing here prints: the CLI says what happened,
 * the library returns it.
 */
import { checkWritable, saveResult, type SavedResult } from './results/result-file.js';
import type { BenchResult } from '../shared/types/result-types.js';
import { artifactsDirOf, checkArtifactsFolder, writeArtifacts } from './report/html/artifacts.js';

export interface WrittenReport {
  /** Every file of the report folder written: report.html, charts/*.vl.json, .svg (and .png). */
  artifacts: string[];
  /** Why the report was not written (the JSON is, and `wsbench report` can retry); null when it was. */
  problem: string | null;
}

/** What writeResultAndReport() wrote: where the result went (saved) and the report files beside it. */
export interface WrittenOutput extends WrittenReport {
  saved: SavedResult;
}

/** run({ out }) measured, but its files did not all go where asked: where they went, and the result itself. */
export class ResultWriteError extends Error {
  override readonly name = 'ResultWriteError';
  constructor(
    readonly result: BenchResult,
    readonly out: string,
    readonly written: WrittenOutput,
  ) {
    super(
      written.saved.path === null
        ? `results: could not write ${out} (${written.saved.problem}), nor a copy in the temp or the current folder: the result is this error's \`result\``
        : written.saved.problem !== null
          ? `results: could not write ${out} (${written.saved.problem}); saved to ${written.saved.path} instead`
          : `results: ${written.saved.path} written; report and charts not written: ${written.problem}`,
    );
  }
}

/**
 * Before anything runs: `out` can be written (a ParameterError about `out`), and the report folder
 * beside it can take a report without following a link or replacing a file wsbench did not write.
 */
export function checkOutputs(out: string): void {
  checkWritable(out);
  checkArtifactsFolder(artifactsDirOf(out));
}

/** report.html and charts/ beside wherever the JSON was saved; nothing when it was saved nowhere. */
export async function writeReportFiles(
  result: BenchResult,
  saved: SavedResult,
  options: { png?: boolean } = {},
): Promise<WrittenReport> {
  if (saved.path === null) return { artifacts: [], problem: 'the result JSON was not written' };
  try {
    return { artifacts: await writeArtifacts(result, saved.path, { png: options.png === true }), problem: null };
  } catch (error) {
    return { artifacts: [], problem: (error as Error).message.split('\n')[0]! };
  }
}

/** The JSON at `out` (or where it could go: see saveResult), then the report beside it. */
export async function writeResultAndReport(
  result: BenchResult,
  out: string,
  options: { png?: boolean } = {},
): Promise<WrittenOutput> {
  const saved = saveResult(out, result);
  return { saved, ...(await writeReportFiles(result, saved, options)) };
}

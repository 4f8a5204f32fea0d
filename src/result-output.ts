/**
 * A result's files on disk, as `run` and `capacity` write them and as run({ out })
 * does: the JSON first (atomically; somewhere else when the place asked for
 * fails, so a measured run is never lost), then report.html and the charts
 * beside wherever it went. Nothing here prints: the CLI says what happened,
 * the library returns it.
 */
import { saveResult, type SavedResult } from './result-file.js';
import type { BenchResult } from './result-types.js';
import { writeArtifacts } from './report/artifacts.js';

export interface WrittenReport {
  /** Every file of the report folder written: report.html, charts/*.vl.json, .svg (and .png). */
  artifacts: string[];
  /** Why the report was not written (the JSON is, and `wsbench report` can retry); null when it was. */
  problem: string | null;
}

export interface WrittenOutput extends WrittenReport {
  saved: SavedResult;
}

/** report.html and charts/ beside wherever the JSON was saved; nothing when it was saved nowhere. */
export async function writeReportFiles(result: BenchResult, saved: SavedResult, options: { png?: boolean } = {}): Promise<WrittenReport> {
  if (saved.path === null) return { artifacts: [], problem: 'the result JSON was not written' };
  try {
    return { artifacts: await writeArtifacts(result, saved.path, { png: options.png === true }), problem: null };
  } catch (error) {
    return { artifacts: [], problem: (error as Error).message.split('\n')[0]! };
  }
}

/** The JSON at `out` (or where it could go: see saveResult), then the report beside it. */
export async function writeResultAndReport(result: BenchResult, out: string, options: { png?: boolean } = {}): Promise<WrittenOutput> {
  const saved = saveResult(out, result);
  return { saved, ...(await writeReportFiles(result, saved, options)) };
}

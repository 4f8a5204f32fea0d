/**
 * What `run` (and `capacity`) do once the measurements are in. The table (or the JSON) comes
 * first, so the numbers are on the screen whatever happens to the files; then
 * the result file, somewhere else if it cannot go where asked; then the report
 * folder, whose failure never touches the JSON.
 *
 * Exit code: 130 when interrupted; else 1 when a cell failed or when the result
 * file could not be written where asked (it was saved elsewhere, and a CI job
 * must not go on reading a stale file at that path); else 0.
 */
import { saveResult, type SavedResult } from '../result-file.js';
import type { BenchResult } from '../result-types.js';
import { renderTable } from '../report/table.js';
import { describeArtifacts } from '../report/artifacts.js';
import { writeReportFiles } from '../result-output.js';

export interface OutputOptions {
  out: string;
  json: boolean;
  /** With `json`: the JSON on one line (a shard's result in `kubectl logs`, for `wsbench merge`). */
  jsonLine?: boolean;
  png: boolean;
  /** The table stdout gets; default the cells' table. */
  table?: (result: BenchResult) => string;
}

/** Prints the table (or the JSON) on stdout, then writes the result file; says on stderr where it went. */
export function printAndSave(result: BenchResult, options: OutputOptions): SavedResult {
  const table = options.table ?? renderTable;
  process.stdout.write(options.json ? JSON.stringify(result, null, options.jsonLine ? undefined : 2) + '\n' : table(result) + '\n');
  const saved = saveResult(options.out, result);
  if (saved.path === null) {
    process.stderr.write(`results: could not write ${options.out} (${saved.problem}), nor a copy in the temp or the current folder\n`);
    if (!options.json) {
      // The last place left: stdout, after the table, for a redirect or a terminal's scrollback.
      process.stderr.write('results: the result JSON follows the table on stdout\n');
      process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    }
  } else if (saved.problem !== null) {
    process.stderr.write(`results: could not write ${options.out} (${saved.problem}); saved to ${saved.path} instead\n`);
  } else if (!options.json) {
    process.stderr.write(`results: ${saved.path}\n`);
  }
  return saved;
}

/** Writes report.html and the charts beside wherever the JSON went; returns the run's exit code. */
export async function writeReportAndExitCode(result: BenchResult, saved: SavedResult, options: OutputOptions): Promise<number> {
  await writeReport(result, saved, options);
  if (result.interrupted) return 130;
  if (saved.problem !== null) return 1;
  return result.cells.some((c) => c.status === 'failed') ? 1 : 0;
}

/** Writes report.html and the charts beside wherever the JSON went; a failure is one line on stderr, never the JSON's. */
export async function writeReport(result: BenchResult, saved: SavedResult, options: Pick<OutputOptions, 'png'>): Promise<void> {
  if (saved.path === null) return;
  const report = await writeReportFiles(result, saved, options);
  // The JSON is the source of truth and is already written; `wsbench report` can retry the rest.
  process.stderr.write(report.problem === null ? describeArtifacts(report.artifacts) : `charts and report not written: ${report.problem}\n`);
}

/**
 * What `run` (and `capacity` and `recover`) do once the measurements are in. The stdout format
 * (the table, or what --format says) comes first, so the numbers are on the screen whatever
 * happens to the files; then the result file, somewhere else if it cannot go where asked; then
 * the --format files and the report folder, whose failures never touch the JSON.
 *
 * Exit code (docs/running.md has the table): 130 when interrupted (129 by SIGHUP); else 1 when
 * a cell failed, a cell has errors beyond --max-errors (its largest count: connections
 * lost or that could not open, or a metric of role errors), a cell failed --slo, nothing was measured
 * (every cell skipped), the result file could not be written where asked
 * (it was saved elsewhere, and a CI job must not go on reading a stale file at
 * that path), or a --format file could not be written; else 0. A non-zero code says why on stderr, in one line.
 */
import { saveResult, type SavedResult } from '../results/result-file.js';
import type { CapacityResult, ScenarioInfo } from '../../shared/types/result-types.js';
import { countedErrors, errorCount } from '../engine/cell-verdict.js';
import { isMeasured, type BenchResult, type CellResult } from '../../shared/types/result-types.js';
import { describeArtifacts } from '../report/html/artifacts.js';
import { writeReportFiles } from '../result-output.js';
import { terminalLines, terminalText } from '../escape/terminal.js';
import { interruptedExitCode } from './interrupts.js';
import { renderStdout, writeFormatFiles, type Outputs } from './format-flags.js';

/** A run's result, or a capacity search's: what these commands print and save. */
type Kind = 'run' | 'capacity';
type ResultOf<K extends Kind> = K extends 'capacity' ? CapacityResult : BenchResult;

interface OutputOptions<K extends Kind = Kind> {
  out: string;
  /** What stdout gets and which --format files are written (format-flags.ts). */
  outputs: Outputs<K>;
  png: boolean;
  /** The count of errors a cell may have and still let the run exit 0 (--max-errors; cell-verdict.ts says what counts); default 0. */
  maxErrors?: number;
}

/** Prints the stdout format, then writes the result file; says on stderr where it went. */
export function printAndSave<K extends Kind>(result: ResultOf<K>, options: OutputOptions<K>): SavedResult {
  process.stdout.write(renderStdout(options.outputs, result as never));
  // The JSON itself on stdout (--json, --json-line) says where nothing else needs to.
  const whole = options.outputs.stdout.format.wholeResult === true;
  const saved = saveResult(options.out, result);
  if (saved.path === null) {
    process.stderr.write(
      `${terminalText(`results: could not write ${options.out} (${saved.problem}), nor a copy in the temp or the current folder`)}\n`,
    );
    if (!whole) {
      // The last place left: stdout, after the table, for a redirect or a terminal's scrollback.
      process.stderr.write('results: the result JSON follows the table on stdout\n');
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    }
  } else if (saved.problem !== null) {
    process.stderr.write(
      `${terminalText(`results: could not write ${options.out} (${saved.problem}); saved to ${saved.path} instead`)}\n`,
    );
  } else if (!whole) {
    process.stderr.write(`results: ${terminalText(saved.path)}\n`);
  }
  return saved;
}

/** Writes the --format files, then report.html and the charts beside wherever the JSON went; returns the run's exit code. */
export async function writeReportAndExitCode<K extends Kind>(
  result: ResultOf<K>,
  saved: SavedResult,
  options: OutputOptions<K>,
): Promise<number> {
  const unwritten = await writeOutputFiles(result, saved, options);
  if (result.interrupted) return interruptedExitCode();
  if (saved.problem !== null || unwritten > 0) return 1;
  const why = verdictProblem(result, options.maxErrors ?? 0);
  if (why === null) return 0;
  process.stderr.write(`exit 1: ${why}\n`);
  return 1;
}

/** Why the cells make the run fail, in one line; null when they do not. */
export function verdictProblem(result: Pick<BenchResult, 'cells' | 'scenarios'>, maxErrors: number): string | null {
  const { cells } = result;
  if (cells.length > 0 && cells.every((c) => c.status === 'skipped'))
    return `nothing was measured: every cell was skipped (${plural(cells.length, 'cell')})`;
  const failed = cells.filter((c) => c.status === 'failed').length;
  const counts = cells.filter((c) => c.status === 'errors').map((c) => faultCount(c, result.scenarios));
  const beyond = counts.filter((n) => n > maxErrors);
  const missedSlo = cells.filter((c) => isMeasured(c) && c.slo?.verdict === 'fail').length;
  const parts = [
    ...(failed > 0 ? [`${plural(failed, 'cell')} failed`] : []),
    ...(missedSlo > 0 ? [`${plural(missedSlo, 'cell')} failed --slo (the whole interval beyond the bound)`] : []),
    ...(beyond.length > 0
      ? [
          `${plural(beyond.length, 'cell')} with errors (at most ${Math.max(...beyond)} in a cell) beyond --max-errors ${maxErrors}`,
        ]
      : []),
  ];
  return parts.length ? parts.join('; ') : null;
}

/** A cell's count of errors (cell-verdict.ts): connections it lost or could not open, or a metric of role errors, whichever is largest. */
function faultCount(cell: CellResult, scenarios: readonly ScenarioInfo[]): number {
  const fault = 'fault' in cell ? cell.fault : undefined;
  const declared = scenarios.find((s) => s.name === cell.scenario)?.metrics ?? {};
  const counted = 'metrics' in cell ? countedErrors(declared, cell.metrics) : [];
  // An errors cell without its counts (a merged file of an older shard) counts as over any allowance.
  return errorCount(fault, counted) ?? Number.POSITIVE_INFINITY;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The --format files, then the report folder; returns how many --format files could not be written. */
export async function writeOutputFiles<K extends Kind>(
  result: ResultOf<K>,
  saved: SavedResult,
  options: OutputOptions<K>,
): Promise<number> {
  const unwritten = writeFormatFiles(options.outputs, result as never);
  await writeReport(result, saved, options);
  return unwritten;
}

/** Writes report.html and the charts beside wherever the JSON went; a failure is one line on stderr, never the JSON's. */
async function writeReport(
  result: BenchResult,
  saved: SavedResult,
  options: Pick<OutputOptions, 'png'>,
): Promise<void> {
  if (saved.path === null) return;
  const report = await writeReportFiles(result, saved, options);
  // The JSON is the source of truth and is already written; `wsbench report` can retry the rest.
  process.stderr.write(
    terminalLines(
      report.problem === null
        ? describeArtifacts(report.artifacts)
        : `charts and report not written: ${report.problem}\n`,
    ),
  );
}

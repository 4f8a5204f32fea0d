/**
 * `wsbench recover <journal> [--out FILE] [--keep-journal] [--json] [--png]`:
 * the result of a run that stopped without writing it (SIGKILL, the OOM
 * killer, a lost machine), rebuilt from the journal it left beside its --out.
 * It is written, printed and reported as the run's own would have been, marked
 * interrupted with the reason; then the journal goes, unless kept.
 *
 * Exit code: 0 rebuilt and written where asked; 1 written elsewhere (or not at
 * all: the journal then stays); 2 bad input (not a journal, a scenario that
 * cannot be loaded again, a run still going).
 */
import { appendFileSync, unlinkSync } from 'node:fs';
import { parseWords, subcommand } from './subcommand.js';
import { UsageError } from '../errors.js';
import { checkWritable } from '../result-file.js';
import { lockResultFile, type ResultLock } from '../result-lock.js';
import { isJournal } from '../journal/reader.js';
import { recoverJournal } from '../journal/recover.js';
import type { JournalRecord } from '../journal/records.js';
import { printAndSave, writeReportAndExitCode } from './run-output.js';
import { leaveOnInterrupt } from './interrupts.js';

interface RecoverFlags {
  out?: string;
  keepJournal?: boolean;
  json?: boolean;
  png?: boolean;
}

export async function recoverFromArgs(args: string[]): Promise<number> {
  const command = subcommand('wsbench recover')
    .argument('<journal>', 'the journal a run left beside its result file (<out>.journal)')
    .option('--out <file>', 'result JSON file (default: the journal\'s name without .journal, where the run was to write it)')
    .option('--keep-journal', 'keep the journal after the result is written (by default it is removed then)')
    .option('--json', 'print the result JSON on stdout instead of the table')
    .option('--png', 'also write charts/*.png beside the SVGs');
  const { operands: [path], flags } = parseWords<RecoverFlags, [string]>(command, args);
  if (!isJournal(path)) throw new UsageError(`${path} is not a wsbench journal (a run writes one beside its result file, named <out>.journal)`);
  const out = flags.out ?? (path.endsWith('.journal') ? path.slice(0, -'.journal'.length) : `${path}.json`);
  checkWritable(out);
  // An interrupt ends recover at once, and the lock's exit hook releases it (the journal stays for another try).
  // Answered before the lock is taken: a signal between the two would otherwise leave it behind.
  const stopAnswering = leaveOnInterrupt('recover');
  let lock: ResultLock | null = null;
  try {
    lock = lockResultFile(out);
    const { result } = await recoverJournal(path);
    const recovered = result.recovered!;
    process.stderr.write(`${recovered.reason}\n${recovered.notes.map((note) => `  ${note}\n`).join('')}`);
    const output = { out, json: flags.json === true, png: flags.png === true };
    const saved = printAndSave(result, output);
    if (saved.path === out) settleJournal(path, saved.path, flags.keepJournal === true);
    await writeReportAndExitCode(result, saved, output);
    return saved.problem === null ? 0 : 1;
  } finally {
    stopAnswering();
    lock?.release();
  }
}

/** The result is where it was asked for: the journal goes, or is marked as rebuilt so that a run may reuse its --out. */
function settleJournal(path: string, resultPath: string, keep: boolean): void {
  try {
    if (!keep) return unlinkSync(path);
    const end: JournalRecord = { type: 'end', atMs: Date.now(), result: resultPath, by: 'recover' };
    appendFileSync(path, `\n${JSON.stringify(end)}\n`);
  } catch (error) {
    process.stderr.write(`journal: could not ${keep ? 'mark' : 'remove'} ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})\n`);
  }
}

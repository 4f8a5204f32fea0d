/**
 * `wsbench recover <journal> [--out FILE] [--keep-journal] [--format NAME[=FILE]] [--json] [--png]`:
 * the result of a run that stopped without writing it (SIGKILL, the OOM
 * killer, a lost machine), rebuilt from the journal it left beside its --out.
 * It is written, printed and reported as the run's own would have been, marked
 * interrupted with the reason; then the journal goes, unless kept.
 *
 * Exit code: 0 rebuilt and written where asked; 1 written elsewhere (or not at
 * all: the journal then stays), or a --format file not written; 2 bad input (not a journal, a scenario that
 * cannot be loaded again, a run still going).
 */
import { closeSync } from 'node:fs';
import type { Command } from 'commander';
import { parseWords, subcommand } from './subcommand.js';
import { UsageError } from '../../shared/types/errors.js';
import { checkOutputs } from '../result-output.js';
import { lockResultFile, type ResultLock } from '../results/result-lock.js';
import { isJournal } from '../journal/reader.js';
import { recoverJournal } from '../journal/recover.js';
import type { JournalRecord } from '../journal/records.js';
import { appendToFile, openChecked, removeIfSame, type FileIdentity } from '../../shared/safe-files.js';
import { printAndSave, writeOutputFiles } from './run-output.js';
import { runFilesOf, outputsFromFlags, type FormatFlags } from './format-flags.js';
import { addFlags } from './flags/index.js';
import { argsWithPlanOf } from './plan/apply-plan.js';
import { terminalText } from '../escape/terminal.js';
import { leaveOnInterrupt } from './interrupts.js';

interface RecoverFlags extends FormatFlags {
  out?: string;
  keepJournal?: boolean;
  png?: boolean;
}

export async function recoverFromArgs(args: string[]): Promise<number> {
  const command = recoverCommand();
  const words = await argsWithPlanOf('recover', args, recoverCommand, [{ key: 'journal' }]);
  const {
    operands: [path],
    flags,
  } = parseWords<RecoverFlags, [string]>(command, words);
  // A missing file, a FIFO, a folder or a file past the journal limit is said as what it is, at once.
  const { fd, stat } = openChecked(path, 'journal');
  closeSync(fd);
  const identity: FileIdentity = { dev: stat.dev, ino: stat.ino };
  if (!isJournal(path))
    throw new UsageError(
      `${path} is not a wsbench journal (a run writes one beside its result file, named <out>.journal)`,
    );
  const out = flags.out ?? (path.endsWith('.journal') ? path.slice(0, -'.journal'.length) : `${path}.json`);
  checkOutputs(out);
  const outputs = outputsFromFlags(flags, 'run', [...runFilesOf(out), { path, flag: 'journal' }]);
  // An interrupt ends recover at once, and the lock's exit hook releases it (the journal stays for another try).
  // Answered before the lock is taken: a signal between the two would otherwise leave it behind.
  const stopAnswering = leaveOnInterrupt('recover');
  let lock: ResultLock | null = null;
  try {
    lock = lockResultFile(out);
    const { result } = await recoverJournal(path);
    const recovered = result.recovered!;
    process.stderr.write(
      `${terminalText(recovered.reason)}\n${recovered.notes.map((note) => `  ${terminalText(note)}\n`).join('')}`,
    );
    const output = { out, outputs, png: flags.png === true };
    const saved = printAndSave(result, output);
    if (saved.path === out) settleJournal(path, identity, saved.path, flags.keepJournal === true);
    const unwritten = await writeOutputFiles(result, saved, output);
    return saved.problem === null && unwritten === 0 ? 0 : 1;
  } finally {
    stopAnswering();
    lock?.release();
  }
}

function recoverCommand(): Command {
  const command = subcommand('wsbench recover').argument(
    '<journal>',
    'the journal a run left beside its result file (<out>.journal)',
  );
  addFlags(command, 'recover');
  return command;
}

/** The result is where it was asked for: the journal goes, or is marked as rebuilt so that a run may reuse its --out. */
function settleJournal(path: string, read: FileIdentity, resultPath: string, keep: boolean): void {
  try {
    if (keep) {
      const end: JournalRecord = { type: 'end', atMs: Date.now(), result: resultPath, by: 'recover' };
      return appendToFile(path, `\n${JSON.stringify(end)}\n`, 'journal');
    }
    // Only the file that was read goes: a link to it, or a file put at its name since, stays.
    if (!removeIfSame(path, read))
      process.stderr.write(
        `${terminalText(`journal: ${path} is kept: it is not the file that was read (a symbolic link to it, or one put there since)`)}\n`,
      );
  } catch (error) {
    const line =
      error instanceof UsageError
        ? error.message
        : `journal: could not ${keep ? 'mark' : 'remove'} ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    process.stderr.write(`${terminalText(line)}
`);
  }
}

/**
 * A run refuses an --out whose journal holds a run that stopped without
 * writing its result: starting would overwrite the journal, and with it
 * everything that run measured. The user recovers it first, or says to
 * discard it. A journal that ends with its run's result written (kept with
 * --keep-journal) is replaced like the result file it belongs to; one whose
 * run is still going is refused as the result file's lock refuses it.
 *
 * Anything else at `<out>.journal` (a file that is not a journal, a symlink,
 * a FIFO) is not wsbench's to replace or delete: the run is refused before it
 * starts, --discard-journal or not, and the writer checks again when it opens.
 */
import { closeSync, readSync } from 'node:fs';
import { UsageError } from '../../shared/types/errors.js';
import { resultFileWriter } from '../results/result-lock.js';
import { entryAt, kindOf, openChecked } from '../../shared/safe-files.js';
import { isJournal } from './reader.js';
import { journalPathOf } from './records.js';

/** The end of a journal is read to find its last record: a cell-end line can be long, so this much. */
const TAIL_BYTES = 1 << 20;
/** Records that hold measurements: a journal without any has nothing for `wsbench recover`. */
const MEASURED = ['{"type":"tick"', '{"type":"resources"', '{"type":"cell-end"'];

/**
 * Throws the refusal when something other than a journal is at `out`'s journal path, or (unless `discard`)
 * when the journal there waits for `wsbench recover`.
 */
export function checkJournalAtOut(out: string, flag = '--out', discard = false): void {
  const path = journalPathOf(out);
  const foreign = notOwnJournal(path);
  if (foreign !== null)
    throw new UsageError(
      `${flag}: ${foreign}: the run writes its journal there and replaces only a journal of its own; move it, or give another ${flag} (or --no-journal)`,
    );
  if (discard) return;
  const stoppedAt = unfinishedSince(path);
  if (stoppedAt === undefined) return;
  const writer = resultFileWriter(out);
  if (writer !== null)
    throw new UsageError(
      `${flag}: ${out} is being written by another wsbench run (pid ${writer}); give this run another ${flag}`,
    );
  const when = stoppedAt === null ? 'stopped' : `stopped at ${new Date(stoppedAt).toISOString()}`;
  throw new UsageError(
    `${flag}: ${path} holds a run that ${when} without writing its result; rebuild it with "wsbench recover ${path}", or give --discard-journal to start over`,
  );
}

/** "<path> is ..." when something is at `path` that is not a journal wsbench wrote (never followed); null when nothing is, or a journal. */
export function notOwnJournal(path: string): string | null {
  const entry = entryAt(path);
  if (entry === null) return null;
  if (!entry.isFile()) return `${path} is ${kindOf(entry)}`;
  return isJournal(path, { noFollow: true }) ? null : `${path} is not a wsbench journal`;
}

/**
 * undefined: no journal, or one whose run wrote its result; else the wall clock of its last whole
 * record (null when none can be read from its end). Called once notOwnJournal found a journal or nothing.
 */
function unfinishedSince(path: string): number | null | undefined {
  if (entryAt(path) === null) return undefined;
  const { fd, size } = openChecked(path, 'journal', { noFollow: true });
  try {
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    const lines = buffer.toString('utf8').split('\n');
    // A run that stopped before any cell measured (refused by a shard barrier, say) left nothing to recover.
    if (size <= TAIL_BYTES && !lines.some((line) => MEASURED.some((prefix) => line.startsWith(prefix))))
      return undefined;
    for (let i = lines.length - 1; i >= 0; i--) {
      const record = parse(lines[i]!);
      if (!record) continue;
      if (record.type === 'end' && i === lines.length - 2) return undefined;
      return typeof record.atMs === 'number' ? record.atMs : null;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

function parse(line: string): { type?: unknown; atMs?: unknown } | null {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null ? (value as { type?: unknown; atMs?: unknown }) : null;
  } catch {
    return null;
  }
}

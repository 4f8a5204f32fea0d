/**
 * Reads a journal line by line, without holding it in memory (a day-long run
 * writes tens of MB). The first line must be a journal header of a version
 * this wsbench knows. A line that is not a whole record is the torn tail of a
 * write cut short: as the last line it is ignored and reported (only the mark
 * `recover --keep-journal` leaves may follow it); anywhere else the file is
 * not what wsbench wrote, and reading stops with one line.
 */
import { closeSync, createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { UsageError } from '../../shared/types/errors.js';
import { openChecked, readHead } from '../../shared/safe-files.js';
import { JOURNAL_VERSION, type JournalHeader, type JournalRecord } from './records.js';

/** The ignored last line, when a write was cut short. */
export interface TornLine {
  line: number;
  bytes: number;
}

interface JournalVisitor {
  /** The header, before any record: a rebuild loads the scenario here. */
  header(header: JournalHeader): Promise<void> | void;
  record(record: JournalRecord): void;
}

/** Reads `path` into `visitor`; returns the torn last line, if there was one. Only a regular file within the journal limit is read. */
export async function readJournal(path: string, visitor: JournalVisitor): Promise<{ torn: TornLine | null }> {
  const { fd, size } = openChecked(path, 'journal');
  if (size === 0) {
    closeSync(fd);
    throw new UsageError(`${path} is empty: nothing to recover`);
  }
  // What the file held when it was checked, and no more: a file that grows is not read without end.
  const stream = createReadStream('', { fd, encoding: 'utf8', start: 0, end: size - 1 });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  let header: JournalHeader | null = null;
  let damaged: TornLine | null = null;
  try {
    for await (const line of lines) {
      number += 1;
      if (line.trim() === '') continue;
      const parsed = parseRecord(line);
      if (parsed === null) {
        damaged ??= { line: number, bytes: Buffer.byteLength(line) };
        continue;
      }
      // `wsbench recover --keep-journal` marks a journal rebuilt with an end record, after a torn line if there was one.
      if (damaged && parsed.type !== 'end')
        throw new UsageError(
          `${path}: line ${damaged.line} is damaged, and it is not the last line (a write cut short only tears the last): not a journal as wsbench writes it`,
        );
      if (header === null) {
        header = checkedHeader(parsed, path);
        await visitor.header(header);
      } else visitor.record(parsed as unknown as JournalRecord);
    }
  } finally {
    lines.close();
    stream.destroy();
  }
  if (header === null)
    throw new UsageError(
      damaged ? `${path} holds no whole record: nothing to recover` : `${path} is empty: nothing to recover`,
    );
  return { torn: damaged };
}

/**
 * True when the file at `path` is a regular file that starts as a journal does (a result file starts `{`
 * and a newline). Anything else (missing, a FIFO, a folder, no permission) is not a journal: the result
 * file reader says why in one line. `noFollow`: a symlink at `path` is not one either.
 */
export function isJournal(path: string, options: { noFollow?: boolean } = {}): boolean {
  const prefix = '{"type":"journal"';
  try {
    return readHead(path, prefix.length, options).toString('utf8') === prefix;
  } catch {
    return false;
  }
}

function parseRecord(line: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      typeof (value as { type?: unknown }).type === 'string'
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function checkedHeader(record: Record<string, unknown>, path: string): JournalHeader {
  if (record.type !== 'journal')
    throw new UsageError(`${path} is not a wsbench journal (its first line is no journal header)`);
  const version = record.version;
  if (typeof version !== 'number' || version > JOURNAL_VERSION) {
    throw new UsageError(
      `${path} is a journal of version ${String(version)}, newer than this wsbench reads (${JOURNAL_VERSION}); upgrade wsbench`,
    );
  }
  return record as unknown as JournalHeader;
}

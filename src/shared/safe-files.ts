/**
 * The one home of how wsbench touches files (docs/running.md, "What wsbench
 * promises"). Every writer and every reader of a path a user could name goes
 * through here.
 *
 * Writing: a file is created new, with O_CREAT | O_EXCL (which fails on any
 * name that exists, a symlink included, dangling or not) and O_NOFOLLOW, so a
 * link planted at the name is never written through. A file is removed only
 * when it is still the one this process created (same device and inode). A
 * folder wsbench writes into is a real folder, never a symlink.
 *
 * Reading: a file is opened with O_NONBLOCK, so that opening a FIFO never
 * waits for a writer, and judged on the open descriptor (fstat), not on the
 * name, before a byte is read: only a regular file no larger than the limit of
 * its kind is read. A FIFO, a device (/dev/zero never ends), a socket or a
 * folder is one line naming the path (a UsageError: exit 2), at once.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from './types/errors.js';

const MiB = 1024 * 1024;

/**
 * The largest file of each kind wsbench reads. A real file stays far below (a day-long run's result with
 * its time series is tens of MB); the limit bounds the memory a wrong or hostile path can take.
 */
export const READ_LIMITS = {
  /** A result file, or a log of shard results (report, compare, merge). */
  result: 256 * MiB,
  /** A run's journal (recover, report, compare): read as a stream, line by line. */
  journal: 1024 * MiB,
  /** A PEM file (--ca): a whole system bundle of root certificates is about 200 KB. */
  pem: 1 * MiB,
  /** A scenario module given by path. */
  scenario: 16 * MiB,
  /** A test plan (--config): a few dozen keys; the limit also bounds what the YAML parser is given. */
  plan: 1 * MiB,
  /** wsbench's own small files: a lock, a report folder's list of files. */
  own: 1 * MiB,
} as const;

type ReadKind = keyof typeof READ_LIMITS;

const WHAT: Record<ReadKind, string> = {
  result: 'a result file',
  journal: 'a journal',
  pem: 'a PEM file',
  scenario: 'a scenario file',
  plan: 'a test plan',
  own: "a file of wsbench's own",
};

/** A file opened for reading, checked to be a regular file within its limit. */
interface CheckedFile {
  fd: number;
  size: number;
  stat: Stats;
}

/**
 * Opens `path` for reading (following a symlink: a name the user gave may be one) and checks the open
 * descriptor: a regular file no larger than the limit of its `kind`. Throws one line, prefixed with `flag`
 * when the path came from one. `noFollow` is for names wsbench derives itself (a journal, a lock): a
 * symlink there is refused instead.
 */
export function openChecked(path: string, kind: ReadKind, options: ReadOptions = {}): CheckedFile {
  const opened = openRegular(path, options);
  const limit = READ_LIMITS[kind];
  if (opened.size > limit) {
    closeSync(opened.fd);
    throw said(
      options,
      `${path} is ${bytes(opened.size)}, more than ${WHAT[kind]} may be (${bytes(limit)}: see docs/running.md)`,
    );
  }
  return opened;
}

interface ReadOptions {
  /** The flag the path came from, for the message ("--ca: ..."). */
  flag?: string;
  /** Refuse a symlink at the path instead of following it. */
  noFollow?: boolean;
}

/** The whole of a checked file (see openChecked). A file that grows while read is cut at its size when checked. */
export function readChecked(path: string, kind: ReadKind, options: ReadOptions = {}): Buffer {
  const { fd, size } = openChecked(path, kind, options);
  try {
    return readUpTo(fd, size);
  } finally {
    closeSync(fd);
  }
}

/** The first `length` bytes of a regular file (fewer when it is shorter), whatever its size. */
export function readHead(path: string, length: number, options: ReadOptions = {}): Buffer {
  const { fd, size } = openRegular(path, options);
  try {
    return readUpTo(fd, Math.min(size, length));
  } finally {
    closeSync(fd);
  }
}

function openRegular(path: string, options: ReadOptions): CheckedFile {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.noFollow ? constants.O_NOFOLLOW : 0));
  } catch (error) {
    throw said(options, openProblem(path, error));
  }
  let stat: Stats;
  try {
    stat = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw said(options, openProblem(path, error));
  }
  if (!stat.isFile()) {
    closeSync(fd);
    throw said(options, `${path} is ${kindOf(stat)}, not a regular file`);
  }
  return { fd, size: stat.size, stat };
}

function said(options: ReadOptions, problem: string): UsageError {
  return new UsageError(`${options.flag ? `${options.flag}: ` : ''}${problem}`);
}

function readUpTo(fd: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let offset = 0;
  while (offset < length) {
    const read = readSync(fd, buffer, offset, length - offset, offset);
    if (read === 0) break;
    offset += read;
  }
  return offset === length ? buffer : buffer.subarray(0, offset);
}

/** Why `path` could not be opened, in words: a missing file "does not exist". */
function openProblem(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return `${path} does not exist`;
  if (code === 'ENOTDIR') return `${path} does not exist (a part of it is not a folder)`;
  if (code === 'ELOOP') return `${path} is a symbolic link: wsbench does not follow it there`;
  if (code === 'EACCES' || code === 'EPERM') return `cannot read ${path}: permission denied`;
  // What open() answers for a socket (and a device with no driver).
  if (code === 'ENXIO') return `${path} is a socket or a device, not a regular file`;
  return `cannot read ${path}: ${code ?? (error as Error).message.split('\n')[0]}`;
}

/** What a non-regular file is, for a message: "a FIFO", "a device", "a folder", "a socket", "a symbolic link". */
export function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a FIFO';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isSymbolicLink()) return 'a symbolic link';
  return stat.isFile() ? 'a file' : 'not a file';
}

/** What is at `path` itself (never following a symlink there): null when nothing is. */
export function entryAt(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Which file an open descriptor or a stat is, to tell later whether a name still leads to it. */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/**
 * Creates `path` new and opens it for writing: fails (EEXIST) when anything is at the name, a symlink
 * included; never follows one. The caller writes, closes, and removes it only with removeIfSame.
 */
export function openNew(path: string, mode = 0o666): { fd: number; identity: FileIdentity } {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode);
  const { dev, ino } = fstatSync(fd);
  return { fd, identity: { dev, ino } };
}

/** Creates `path` new holding `content` (see openNew). A write that fails removes the file it made, and nothing else. */
export function createNew(path: string, content: string | Buffer, mode = 0o666): FileIdentity {
  const { fd, identity } = openNew(path, mode);
  try {
    writeAll(fd, typeof content === 'string' ? Buffer.from(content) : content);
    closeSync(fd);
  } catch (error) {
    closeQuietly(fd);
    removeIfSame(path, identity);
    throw error;
  }
  return identity;
}

/** Writes all of `data` at the descriptor's position: a write may take part of it (a signal, a nearly full disk). */
export function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) offset += writeSync(fd, data, offset);
}

/** Removes `path` when it is still the file `identity` names; true when removed. A file put there since is left. */
export function removeIfSame(path: string, identity: FileIdentity): boolean {
  const now = entryAt(path);
  if (now === null || !now.isFile() || now.dev !== identity.dev || now.ino !== identity.ino) return false;
  unlinkSync(path);
  return true;
}

/**
 * Appends `text` to `path`, creating it when absent: only to a regular file, never through a symlink, and
 * without waiting on a FIFO (O_NONBLOCK: one with no reader fails at once, one with a reader is refused).
 * Throws a UsageError naming `flag`.
 */
export function appendToFile(path: string, text: string, flag: string): void {
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      0o666,
    );
  } catch (error) {
    throw new UsageError(`${flag}: ${appendProblem(path, error)}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`${flag}: ${path} is ${kindOf(stat)}, not a regular file`);
    writeAll(fd, Buffer.from(text));
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `${flag}: cannot append to ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  } finally {
    closeQuietly(fd);
  }
}

/** Checks, before anything runs, that appendToFile(path) would find a regular file or nothing at the name. */
export function checkAppendable(path: string, flag: string): void {
  const entry = entryAt(path);
  if (entry !== null && !entry.isFile())
    throw new UsageError(`${flag}: ${path} is ${kindOf(entry)}, not a regular file`);
}

function appendProblem(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return `${path} is a symbolic link: wsbench does not write through one`;
  // O_NONBLOCK's answer for a FIFO nobody reads.
  if (code === 'ENXIO') return `${path} is a FIFO, not a regular file`;
  if (code === 'EISDIR') return `${path} is a folder, not a regular file`;
  return `cannot append to ${path}: ${code ?? (error as Error).message.split('\n')[0]}`;
}

/**
 * `path` as a real folder to write into: made (with its parents) when absent; a symlink there, to anywhere,
 * or a file, is refused in one line. Checked again after making it, so a link swapped in is caught.
 */
export function realFolder(path: string, what = 'wsbench writes its files only into real folders'): void {
  let entry = folderEntryAt(path);
  if (entry === null) {
    makeFolders(path);
    entry = folderEntryAt(path);
  }
  if (entry?.isSymbolicLink()) throw new UsageError(`${path} is a symbolic link: ${what}`);
  if (!entry?.isDirectory()) throw new UsageError(`${path} is ${entry ? kindOf(entry) : 'gone'}, not a folder`);
}

/**
 * Makes `path` and its missing parents one at a time. Not mkdirSync's `recursive`: where the parent exists
 * but takes no folder (/proc answers ENOENT), Node's loop retries forever at full CPU.
 */
function makeFolders(path: string): void {
  const missing: string[] = [];
  for (let at = path; folderEntryAt(at) === null && dirname(at) !== at; at = dirname(at)) missing.unshift(at);
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      // Made meanwhile by someone else: what is there is judged by the caller.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new UsageError(`cannot create the folder ${folder}: ${folderProblem(folder, error)}`);
    }
  }
}

/** entryAt() for a folder wsbench is to make: a parent that is a file or cannot be searched is a UsageError. */
export function folderEntryAt(path: string): Stats | null {
  try {
    return entryAt(path);
  } catch (error) {
    throw new UsageError(`cannot create the folder ${path}: ${folderProblem(path, error)}`);
  }
}

function folderProblem(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const words: Record<string, string> = {
    // The parent exists (it was just found): it is one that takes no new entry, as /proc.
    ENOENT: `${dirname(path)} takes no new folder`,
    ENOTDIR: 'a part of its path is not a folder',
    EACCES: 'permission denied',
    EPERM: `not permitted in ${dirname(path)}`,
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    ENAMETOOLONG: 'the name is too long',
  };
  const said = code ? words[code] : undefined;
  return said ? `${said} (${code})` : (code ?? (error as Error).message.split('\n')[0]!);
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closed already.
  }
}

function bytes(n: number): string {
  if (n >= MiB) return `${Math.round((n / MiB) * 10) / 10} MiB`;
  return `${n} bytes`;
}

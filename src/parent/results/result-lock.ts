/**
 * One writer per result file. A run holds `<out>.lock` (its pid and the start
 * time of that pid) from before its first cell until its files are written, so a
 * second run with the same --out is refused instead of silently overwriting the
 * first one's results and report folder. A lock whose process is gone (wsbench
 * was killed with -9) is stale and taken over. Creating the lock is also the
 * first real write in the output folder: a folder that only looks writable
 * (/proc, a read-only mount as root) is refused before anything runs.
 *
 * The lock is created new (safe-files.ts), never through a symlink, and only a
 * lock is ever taken over or removed: anything else at `<out>.lock` (a file
 * that holds no lock, a symlink, a FIFO) refuses the run, naming it.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../../shared/types/errors.js';
import { writeProblem } from './result-file.js';
import { createNew, entryAt, kindOf, readChecked, removeIfSame, type FileIdentity } from '../../shared/safe-files.js';

interface LockOwner {
  pid: number;
  /** Start time of the pid in clock ticks since boot (/proc/<pid>/stat field 22): a recycled pid is not the owner. */
  startTicks: number | null;
}

export interface ResultLock {
  readonly path: string;
  /** Removes the lock file if it is still this process's own. Safe to call twice. */
  release(): void;
}

/** Where the lock of result file `resultPath` is. */
export function lockPathOf(resultPath: string): string {
  return `${resultPath}.lock`;
}

/** Takes the lock of result file `resultPath`, or throws a UsageError naming the run that holds it. */
export function lockResultFile(resultPath: string, flag = '--out'): ResultLock {
  const path = lockPathOf(resultPath);
  const me: LockOwner = { pid: process.pid, startTicks: startTicksOf(process.pid) };
  let mine: FileIdentity;
  for (let attempt = 0; ; attempt++) {
    try {
      // A write that fails (a full disk) removes the file it created: an empty lock would be litter nobody owns.
      mine = createNew(path, `${JSON.stringify(me)}\n`);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST')
        throw new UsageError(`${flag}: cannot write in the folder of ${resultPath} (${writeProblem(error)})`);
      const found = readLock(path);
      if (found.problem !== null)
        throw new UsageError(
          `${flag}: ${found.problem}: wsbench keeps the lock of ${resultPath} there and removes only a lock of its own; move it, or give another ${flag}`,
        );
      const owner = found.owner;
      if (owner && isAlive(owner)) {
        throw new UsageError(
          `${flag}: ${resultPath} is being written by another wsbench run (pid ${owner.pid}); give this run another ${flag}`,
        );
      }
      // Stale: its process is gone. Take it over once; losing that race to a third run is a refusal.
      if (attempt > 0)
        throw new UsageError(
          `${flag}: ${resultPath} is being written by another wsbench run; give this run another ${flag}`,
        );
      removeQuietly(path, found.identity);
    }
  }
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    removeQuietly(path, mine);
  };
  // Whatever way the process leaves (short of SIGKILL), the lock goes with it.
  process.on('exit', release);
  return { path, release };
}

/** The live run writing `resultPath`, if one is: its pid; null when no live lock exists. */
export function resultFileWriter(resultPath: string): number | null {
  const owner = readLock(lockPathOf(resultPath)).owner;
  return owner && isAlive(owner) && owner.pid !== process.pid ? owner.pid : null;
}

interface FoundLock {
  /** The run named in it; null when nothing is there, or it is not a lock (then `problem` says so). */
  owner: LockOwner | null;
  /** "<path> is ..." when what is there is not a wsbench lock: not ours to take over or remove. */
  problem: string | null;
  identity: FileIdentity | null;
}

/** What is at a lock's path, read without following a link or waiting on a FIFO. */
function readLock(path: string): FoundLock {
  const entry = entryAt(path);
  if (entry === null) return { owner: null, problem: null, identity: null };
  if (!entry.isFile()) return { owner: null, problem: `${path} is ${kindOf(entry)}`, identity: null };
  const identity = { dev: entry.dev, ino: entry.ino };
  let text: string;
  try {
    text = readChecked(path, 'own', { noFollow: true }).toString('utf8');
  } catch (error) {
    return { owner: null, problem: (error as Error).message, identity };
  }
  // Between a lock's creation and its one write, or a run killed right there: not provably a lock, nor provably not.
  if (text === '')
    return {
      owner: null,
      problem: `${path} is empty (another run is taking it this instant, or one was killed as it did: remove it if no wsbench run is going)`,
      identity,
    };
  try {
    const data = JSON.parse(text) as Partial<LockOwner>;
    if (
      typeof data === 'object' &&
      data !== null &&
      typeof data.pid === 'number' &&
      Object.keys(data).every((key) => key === 'pid' || key === 'startTicks')
    ) {
      return {
        owner: { pid: data.pid, startTicks: typeof data.startTicks === 'number' ? data.startTicks : null },
        problem: null,
        identity,
      };
    }
  } catch {
    // Not JSON.
  }
  return { owner: null, problem: `${path} is not a wsbench lock`, identity };
}

function isAlive(owner: LockOwner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: alive, but someone else's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process killed with -9 stays a zombie until its parent reaps it: it writes nothing any more.
  if (stateOf(owner.pid) === 'Z') return false;
  const now = startTicksOf(owner.pid);
  return owner.startTicks === null || now === null || now === owner.startTicks;
}

/** Field 3 of /proc/<pid>/stat (R, S, Z ...); null where there is no /proc. */
function stateOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null;
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat; null where there is no /proc. The command name (field 2) may hold spaces: count from its ')'. */
function startTicksOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const value = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

/** Removes the lock at `path` if it is still the file `identity` names. */
function removeQuietly(path: string, identity: FileIdentity | null): void {
  if (identity === null) return;
  try {
    removeIfSame(path, identity);
  } catch {
    // Already gone (the folder was removed, or another run cleaned it up).
  }
}

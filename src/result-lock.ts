/**
 * One writer per result file. A run holds `<out>.lock` (its pid and the start
 * time of that pid) from before its first cell until its files are written, so a
 * second run with the same --out is refused instead of silently overwriting the
 * first one's results and report folder. A lock whose process is gone (wsbench
 * was killed with -9) is stale and taken over. Creating the lock is also the
 * first real write in the output folder: a folder that only looks writable
 * (/proc, a read-only mount as root) is refused before anything runs.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { UsageError } from './errors.js';
import { writeProblem } from './result-file.js';

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

/** Takes the lock of result file `resultPath`, or throws a UsageError naming the run that holds it. */
export function lockResultFile(resultPath: string, flag = '--out'): ResultLock {
  const path = `${resultPath}.lock`;
  const me: LockOwner = { pid: process.pid, startTicks: startTicksOf(process.pid) };
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, JSON.stringify(me) + '\n', { flag: 'wx' });
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        // 'wx' created the file before the write failed (a full disk): an empty lock is litter nobody owns.
        removeQuietly(path);
        throw new UsageError(`${flag}: cannot write in the folder of ${resultPath} (${writeProblem(error)})`);
      }
      const owner = readOwner(path);
      if (owner && isAlive(owner)) {
        throw new UsageError(`${flag}: ${resultPath} is being written by another wsbench run (pid ${owner.pid}); give this run another ${flag}`);
      }
      // Stale: its process is gone. Take it over once; losing that race to a third run is a refusal.
      if (attempt > 0) throw new UsageError(`${flag}: ${resultPath} is being written by another wsbench run; give this run another ${flag}`);
      removeQuietly(path);
    }
  }
  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    const owner = readOwner(path);
    if (owner?.pid === me.pid) removeQuietly(path);
  };
  // Whatever way the process leaves (short of SIGKILL), the lock goes with it.
  process.on('exit', release);
  return { path, release };
}

/** The live run writing `resultPath`, if one is: its pid; null when no live lock exists. */
export function resultFileWriter(resultPath: string): number | null {
  const owner = readOwner(`${resultPath}.lock`);
  return owner && isAlive(owner) && owner.pid !== process.pid ? owner.pid : null;
}

function readOwner(path: string): LockOwner | null {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    if (typeof data.pid !== 'number') return null;
    return { pid: data.pid, startTicks: typeof data.startTicks === 'number' ? data.startTicks : null };
  } catch {
    // Unreadable or half-written: a lock nobody can prove is held is stale.
    return null;
  }
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

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone (the folder was removed, or another run cleaned it up).
  }
}

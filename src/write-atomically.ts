/**
 * Writes a file through a temp file and a rename: a reader (a browser, compare,
 * an interrupted run's next reader) never sees half a file. The temp file has a
 * name nobody can have prepared and is created exclusively, so an existing file
 * or symlink planted there fails the write instead of being followed. It goes
 * when the write fails, so a full disk leaves no litter.
 */
import { randomBytes } from 'node:crypto';
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';

/** Writes `content` to `path` atomically; returns `path`. */
export function writeAtomically(path: string, content: string | Buffer): string {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, content, { flag: 'wx' });
  } catch (error) {
    // EEXIST: the name was taken, by nobody we know: not ours to remove. Else it is our half-written file.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') removeQuietly(temporary);
    throw error;
  }
  try {
    renameSync(temporary, path);
  } catch (error) {
    removeQuietly(temporary);
    throw error;
  }
  return path;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Never created, or its folder is gone.
  }
}

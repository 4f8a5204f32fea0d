/**
 * Writes a file through a temp file and a rename: a reader (a browser, compare,
 * an interrupted run's next reader) never sees half a file. The temp file has a
 * name nobody can have prepared and is created exclusively, so an existing file
 * or symlink planted there fails the write instead of being followed (see
 * safe-files.ts). It goes when the write fails, so a full disk leaves no
 * litter. The rename replaces what is at `path` (a symlink there is replaced,
 * never followed): the caller has decided that `path` is the user's named
 * output or a file wsbench can show it wrote.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, renameSync } from 'node:fs';
import { createNew, removeIfSame, type FileIdentity } from '../../shared/safe-files.js';

/**
 * Writes `content` to `path` atomically; returns `path`. `replace: false` is for a name wsbench made up
 * (a fallback place for a result): the file appears there only if nothing was at the name (EEXIST else).
 */
export function writeAtomically(path: string, content: string | Buffer, options: { replace?: boolean } = {}): string {
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  // A failed write removes its own temp file; EEXIST (the name was taken, by nobody we know) removes nothing.
  const identity = createNew(temporary, content);
  try {
    // A hard link is made only where no name is: the rename that never replaces.
    if (options.replace === false) linkSync(temporary, path);
    else renameSync(temporary, path);
  } catch (error) {
    removeQuietly(temporary, identity);
    throw error;
  }
  if (options.replace === false) removeQuietly(temporary, identity);
  return path;
}

function removeQuietly(path: string, identity: FileIdentity): void {
  try {
    removeIfSame(path, identity);
  } catch {
    // Its folder is gone.
  }
}

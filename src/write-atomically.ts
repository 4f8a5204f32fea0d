/**
 * Writes a file through a temp file and a rename: a reader (a browser, compare,
 * an interrupted run's next reader) never sees half a file. The temp file goes
 * when the write fails, so a full disk leaves no litter.
 */
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';

/** Writes `content` to `path` atomically; returns `path`. */
export function writeAtomically(path: string, content: string | Buffer): string {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, content);
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // Never created, or its folder is gone.
    }
    throw error;
  }
  return path;
}

/**
 * The list of files wsbench wrote in a report folder (.wsbench-files.json),
 * and the cleanup it allows: a file the previous write made and this one did
 * not is removed, but only when wsbench can show it wrote it. The list is
 * plain JSON anyone can edit, so an entry is believed only for a file in the
 * folder's own charts/ (a name wsbench gives charts, no other folder, no
 * link), that is a regular file and not a symlink, with the inode, size and
 * modification time recorded when it was written. Nothing else is ever deleted.
 * A name the list holds may be written again (wsbench wrote a file by that
 * name there); any other name that holds something is refused before writing.
 */
import { lstatSync, statSync, unlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { entryAt, kindOf, readChecked } from '../../../shared/safe-files.js';

export const MANIFEST = '.wsbench-files.json';

/** What wsbench writes under charts/: `<name>.vl.json`, `.svg`, `.png`, names of lower-case letters, digits and dashes. */
const CHART_FILE = /^charts\/[a-z0-9]+(?:-[a-z0-9]+)*\.(?:vl\.json|svg|png)$/;

/** Inode, size and modification time of each file wsbench wrote, by path relative to the folder. */
type Manifest = Record<string, { size: number; mtimeMs: number; ino?: number }>;

/** The record of what this write made, for the next write's cleanup. */
export function manifestOf(outDir: string, written: string[]): string {
  const current: Manifest = {};
  for (const file of written) {
    const stat = statSync(file);
    current[relative(outDir, file)] = { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
  }
  return `${JSON.stringify(current, null, 2)}\n`;
}

/** Removes the previous write's chart files that this write (`written`) did not remake, when they are provably wsbench's. */
export function removeStale(outDir: string, written: string[]): void {
  const remade = new Set(written.map((file) => relative(outDir, file)));
  for (const [file, was] of Object.entries(readManifest(join(outDir, MANIFEST)) ?? {})) {
    if (remade.has(file) || !CHART_FILE.test(file) || typeof was?.ino !== 'number') continue;
    const path = join(outDir, file);
    try {
      const stat = lstatSync(path);
      if (stat.isFile() && stat.ino === was.ino && stat.size === was.size && stat.mtimeMs === was.mtimeMs)
        unlinkSync(path);
    } catch {
      // Already gone.
    }
  }
}

/**
 * The first of `names` (relative to `outDir`) that holds something wsbench did not write, said as
 * "<path> is ...": a symlink, a FIFO, a file the folder's list does not name; or the list itself when
 * it is not one. null when every name is free or wsbench's.
 */
export function notOwnFile(outDir: string, names: string[]): string | null {
  const listPath = join(outDir, MANIFEST);
  const listEntry = entryAt(listPath);
  if (listEntry && !listEntry.isFile()) return `${listPath} is ${kindOf(listEntry)}`;
  const listed = listEntry ? readManifest(listPath) : {};
  if (listed === null) return `${listPath} is not the list of files wsbench writes there`;
  for (const name of names) {
    const path = join(outDir, name);
    const entry = entryAt(path);
    if (entry === null) continue;
    if (!entry.isFile()) return `${path} is ${kindOf(entry)}`;
    if (!Object.hasOwn(listed, name)) return `${path} is not a file wsbench wrote`;
  }
  return null;
}

/** The folder's list; null when the file there is not one (not JSON, not an object of entries). */
function readManifest(path: string): Manifest | null {
  try {
    const data = JSON.parse(readChecked(path, 'own', { noFollow: true }).toString('utf8')) as unknown;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    return Object.values(data).every((entry) => typeof entry === 'object' && entry !== null)
      ? (data as Manifest)
      : null;
  } catch {
    return null;
  }
}

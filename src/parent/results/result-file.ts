/**
 * Writes result JSON atomically, somewhere else when the place asked for fails,
 * and reads it back, any version, checked against the published JSON Schema,
 * with one-line errors for bad files.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ParameterError, UsageError } from '../../shared/types/errors.js';
import { SCHEMA_VERSION, type BenchResult } from '../../shared/types/result-types.js';
import {
  upgradeCapacityV1,
  upgradeV1,
  withCommonDefaults,
  withIntervals,
  CAPACITY_V1_FORMAT,
  type CapacityV1,
  withStepDemand,
  type V1Result,
} from './result-upgrade.js';
import { negativeCount, schemaProblem } from '../../shared/result-schema.js';
import { writeAtomically } from './write-atomically.js';
import { createNew, entryAt, kindOf, readChecked, removeIfSame } from '../../shared/safe-files.js';

/**
 * Fails before any work starts when `path` could not be written later (a ParameterError about `out`: the
 * CLI says --out). The file named is replaced by a rename when written (a symlink there is replaced, never
 * followed); a folder, a FIFO or a device there is refused. Last, a file is made in its folder and removed
 * again: a folder that only looks writable (/proc, a read-only mount as root) is refused now, not after the run.
 */
export function checkWritable(path: string): void {
  checkWritableEntry(path);
  const probe = `${resolve(path)}.${process.pid}.${randomBytes(6).toString('hex')}.probe`;
  try {
    removeIfSame(probe, createNew(probe, ''));
  } catch (error) {
    throw new ParameterError('out', `cannot write in the folder of ${path} (${writeProblem(error)})`);
  }
}

function checkWritableEntry(path: string): void {
  const target = resolve(path);
  const directory = dirname(target);
  if (!existsSync(directory) || !statSync(directory).isDirectory())
    throw new ParameterError('out', `directory ${directory} does not exist`);
  try {
    accessSync(directory, constants.W_OK);
    const entry = entryAt(target);
    if (entry?.isDirectory()) throw new ParameterError('out', `${path} is a directory`);
    if (entry && !entry.isFile() && !entry.isSymbolicLink())
      throw new ParameterError('out', `${path} is ${kindOf(entry)}, not a regular file`);
    if (entry?.isFile()) accessSync(target, constants.W_OK);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new ParameterError('out', `${path} is not writable`);
  }
}

/** Temp file + rename: a reader never sees half a file, even after Ctrl+C. */
export function writeResultFile(path: string, result: BenchResult): void {
  writeAtomically(path, `${JSON.stringify(result, null, 2)}\n`);
}

/** Where a result went: `path` is null when no place would take it; `problem` says why `requested` did not. */
export interface SavedResult {
  requested: string;
  path: string | null;
  problem: string | null;
}

/**
 * Writes `result` to `path`; when that fails (its folder was removed, the disk is
 * full, a path that only looked writable), to wsbench-results-<time>-<pid>.json in
 * the temp folder, then in the current folder. A measured run is never lost to a
 * file system.
 */
export function saveResult(path: string, result: BenchResult): SavedResult {
  const text = `${JSON.stringify(result, null, 2)}\n`;
  const name = `wsbench-results-${result.startedAt.replace(/[:.]/g, '-')}-${process.pid}.json`;
  let problem: string | null = null;
  for (const candidate of [path, join(tmpdir(), name), resolve(name)]) {
    try {
      // The place asked for is replaced; a fallback name wsbench made up is only ever created.
      writeAtomically(candidate, text, { replace: candidate === path });
      return { requested: path, path: candidate, problem };
    } catch (error) {
      problem ??= writeProblem(error);
    }
  }
  return { requested: path, path: null, problem };
}

/** A failed write in words a user reads ("no space left on the device"), else its code. */
export function writeProblem(error: unknown): string {
  const { code, path } = error as NodeJS.ErrnoException;
  const words: Record<string, string> = {
    // /proc and its kind answer ENOENT to a new file in a folder that is there.
    ENOENT:
      path !== undefined && isFolder(dirname(path)) ? 'its folder takes no new files' : 'its folder no longer exists',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'read-only file system',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EISDIR: 'it is a folder',
  };
  return (code && words[code]) ?? code ?? (error as Error).message.split('\n')[0]!;
}

/** Reads a result file of any version this wsbench knows, upgraded to the current shape (a regular file within READ_LIMITS.result). */
export function readResultFile(path: string): BenchResult {
  const text = readChecked(path, 'result').toString('utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not valid JSON (truncated or corrupted?)`);
  }
  return resultFromJson(data, path);
}

/**
 * Checks parsed JSON against the published schema of its version (so no reporter
 * meets a missing field or a wrong type) and upgrades older versions to the current
 * shape: version 1 cells and declarations, version 2 as it is (it has no capacity
 * section), and the capacity file of the versions before one result held a search.
 */
export function resultFromJson(data: unknown, source: string): BenchResult {
  if (isObject(data) && data.format === CAPACITY_V1_FORMAT && data.version === 1)
    return checked(upgradeCapacityV1(data as unknown as CapacityV1), SCHEMA_VERSION, source);
  if (!isObject(data) || !isObject(data.tool) || data.tool.name !== 'wsbench' || !Array.isArray(data.cells)) {
    throw new UsageError(`${source} is not a wsbench result file`);
  }
  const version = data.schemaVersion;
  if (typeof version !== 'number' || version > SCHEMA_VERSION) {
    throw new UsageError(
      `${source} has schemaVersion ${String(version)}, newer than this wsbench reads (${SCHEMA_VERSION}); upgrade wsbench`,
    );
  }
  if (version !== 1 && version !== 2 && version !== 3)
    throw new UsageError(`${source} has schemaVersion ${String(version)}, which no wsbench wrote`);
  checked(data, version, source);
  const result =
    version === 1
      ? withIntervals(upgradeV1(data as unknown as V1Result))
      : withIntervals(
          withStepDemand(withCommonDefaults({ ...(data as unknown as BenchResult), schemaVersion: SCHEMA_VERSION })),
        );
  const impossible = negativeCount(result);
  if (impossible) throw new UsageError(`${source} is not a valid wsbench result: ${impossible}`);
  return result;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function checked<T>(data: T, version: 1 | 2 | 3, source: string): T {
  const problem = schemaProblem(data, version);
  if (problem) throw new UsageError(`${source} is not a valid wsbench result: ${problem}`);
  return data;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

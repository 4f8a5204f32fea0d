/** Writes result JSON atomically and reads it back with clear errors for bad files. */
import { accessSync, constants, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './errors.js';
import { SCHEMA_VERSION, type BenchResult } from './result-types.js';

/** Fails before any work starts when `path` could not be written later. */
export function checkWritable(path: string): void {
  const target = resolve(path);
  const directory = dirname(target);
  if (!existsSync(directory) || !statSync(directory).isDirectory()) throw new UsageError(`--out: directory ${directory} does not exist`);
  try {
    accessSync(directory, constants.W_OK);
    if (existsSync(target)) {
      if (statSync(target).isDirectory()) throw new UsageError(`--out: ${path} is a directory`);
      accessSync(target, constants.W_OK);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--out: ${path} is not writable`);
  }
}

/** Temp file + rename: a reader never sees half a file, even after Ctrl+C. */
export function writeResultFile(path: string, result: BenchResult): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(result, null, 2) + '\n');
  renameSync(temporary, path);
}

export function readResultFile(path: string): BenchResult {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new UsageError(`${path} is not valid JSON (truncated or corrupted?)`);
  }
  const result = data as Partial<BenchResult>;
  if (typeof data !== 'object' || data === null || result.tool?.name !== 'wsbench' || !Array.isArray(result.cells)) {
    throw new UsageError(`${path} is not a wsbench result file`);
  }
  if (typeof result.schemaVersion !== 'number' || result.schemaVersion > SCHEMA_VERSION) {
    throw new UsageError(`${path} has schemaVersion ${String(result.schemaVersion)}, newer than this wsbench reads (${SCHEMA_VERSION}); upgrade wsbench`);
  }
  return result as BenchResult;
}

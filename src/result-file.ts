/**
 * Writes result JSON atomically and reads it back, any version, with one-line
 * errors for bad files.
 */
import { accessSync, constants, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './errors.js';
import { SCHEMA_VERSION, type BenchResult } from './result-types.js';
import { upgradeV1, type V1Result } from './result-upgrade.js';

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

/** Reads a result file of any version this wsbench knows, upgraded to the current shape. */
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
  return resultFromJson(data, path);
}

/** Checks parsed JSON (enough that no reporter meets a missing field) and upgrades older versions. */
export function resultFromJson(data: unknown, source: string): BenchResult {
  if (!isObject(data) || !isObject(data.tool) || data.tool.name !== 'wsbench' || !Array.isArray(data.cells)) {
    throw new UsageError(`${source} is not a wsbench result file`);
  }
  const version = data.schemaVersion;
  if (typeof version !== 'number' || version > SCHEMA_VERSION) {
    throw new UsageError(`${source} has schemaVersion ${String(version)}, newer than this wsbench reads (${SCHEMA_VERSION}); upgrade wsbench`);
  }
  if (version !== 1 && version !== SCHEMA_VERSION) throw new UsageError(`${source} has schemaVersion ${String(version)}, which no wsbench wrote`);
  const problem = resultProblem(data, version);
  if (problem) throw new UsageError(`${source} is not a valid wsbench result: ${problem}`);
  return version === 1 ? upgradeV1(data as unknown as V1Result) : (data as unknown as BenchResult);
}

// A structural check, field by field, of what the reporters read. A JSON Schema
// published with the package will take its place; until then this keeps a bad
// file to one line instead of a TypeError deep in a reporter.

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}

function resultProblem(data: Json, version: number): string | null {
  if (!isObject(data.environment)) return 'environment is missing';
  if (!Array.isArray(data.environment.stacks)) return 'environment.stacks is not a list';
  if (version >= 2 && (!Number.isInteger(data.repeat) || (data.repeat as number) < 1)) return 'repeat is not a whole number of rounds';
  if (!Array.isArray(data.scenarios)) return 'scenarios is not a list';
  for (const [i, scenario] of data.scenarios.entries()) {
    const problem = scenarioProblem(scenario, version);
    if (problem) return `scenarios[${i}]${problem}`;
  }
  for (const [i, cell] of (data.cells as unknown[]).entries()) {
    const problem = cellProblem(cell, version);
    if (problem) return `cells[${i}]${problem}`;
  }
  return null;
}

const ROLES = ['primary-latency', 'primary-rate', 'progress', 'errors', 'detail'];
const BETTER = ['lower', 'higher', 'none'];

function scenarioProblem(s: unknown, version: number): string | null {
  if (!isObject(s)) return ` is ${kindOf(s)}, not a scenario`;
  if (typeof s.name !== 'string') return ' has no name';
  if (typeof s.description !== 'string') return '.description is not text';
  if (version === 1) {
    if (!Array.isArray(s.columns)) return '.columns is not a list';
    const bad = s.columns.findIndex((c) => !isObject(c) || typeof c.key !== 'string' || typeof c.header !== 'string');
    return bad < 0 ? null : `.columns[${bad}] is not { key, header }`;
  }
  if (!isObject(s.parameters)) return '.parameters is not an object';
  if (!isObject(s.metrics)) return '.metrics is not an object';
  for (const [key, m] of Object.entries(s.metrics)) {
    if (!isObject(m) || typeof m.header !== 'string' || typeof m.unit !== 'string' || !isObject(m.source)) {
      return `.metrics.${key} is not a metric declaration`;
    }
    if (!ROLES.includes(m.role as string)) return `.metrics.${key}.role is ${kindOf(m.role)}, not one of ${ROLES.join(', ')}`;
    if (!BETTER.includes(m.better as string)) return `.metrics.${key}.better is ${kindOf(m.better)}, not one of ${BETTER.join(', ')}`;
  }
  if (!Array.isArray(s.table)) return '.table is not a list';
  const unknown = s.table.find((key) => typeof key !== 'string' || !(key in (s.metrics as Json)));
  if (unknown !== undefined) return `.table names ${kindOf(unknown)}, which is not a declared metric`;
  if (!Array.isArray(s.charts) || s.charts.some((c) => !isObject(c) || typeof c.kind !== 'string')) return '.charts is not a list of chart requests';
  return null;
}

function cellProblem(c: unknown, version: number): string | null {
  if (!isObject(c)) return ` is ${kindOf(c)}, not a cell`;
  for (const field of ['scenario', 'server', 'client']) if (typeof c[field] !== 'string') return ` has no ${field} name`;
  if (!isObject(c.params)) return '.params is not an object';
  if (!['ok', 'failed', 'skipped'].includes(c.status as string)) return `.status is ${kindOf(c.status)}, not ok, failed or skipped`;
  if (typeof c.elapsedMs !== 'number') return '.elapsedMs is not a number';
  const v2 = version >= 2;
  if (c.reason !== undefined && typeof c.reason !== 'string') return '.reason is not text';
  if (v2 && c.status !== 'ok' && c.reason === undefined) return ` is ${c.status as string} without a reason`;
  if (c.measurements === undefined) return v2 && c.status === 'ok' ? ' is ok but has no measurements' : null;
  if (c.status === 'skipped') return ' is skipped but has measurements';
  const m = c.measurements;
  if (!isObject(m)) return '.measurements is not an object';
  const tables = ['histograms', 'counters', ...(v2 ? ['latency', 'sizes', 'serverHistograms', 'serverLatency', 'serverCounters'] : [])];
  for (const field of tables) if (!isObject(m[field])) return `.measurements.${field} is not an object`;
  for (const field of ['histograms', 'serverHistograms']) {
    const bad = Object.entries((m[field] ?? {}) as Json).find(([, h]) => !isObject(h) || typeof h.hdrBase64 !== 'string');
    if (bad) return `.measurements.${field}.${bad[0]} is not an encoded histogram`;
  }
  if (typeof m.windowMs !== 'number') return '.measurements.windowMs is not a number';
  if (m.timeSeries !== undefined && (!isObject(m.timeSeries) || !Array.isArray(m.timeSeries.points))) return '.measurements.timeSeries has no points';
  if ((v2 || c.metrics !== undefined) && !isObject(c.metrics)) return '.metrics is not an object';
  const badMetric = Object.entries((c.metrics ?? {}) as Json).find(([, v]) => v !== null && typeof v !== 'number');
  if (badMetric) return `.metrics.${badMetric[0]} is ${kindOf(badMetric[1])}, not a number or null`;
  if (v2 || c.resources !== undefined) {
    const r = c.resources;
    if (!isObject(r) || !Array.isArray(r.clients) || (r.server !== null && !isObject(r.server))) return '.resources is not { server, clients }';
  }
  if (v2 && !isObject(c.missing)) return '.missing is not an object';
  if (v2 && !Array.isArray(c.notes)) return '.notes is not a list';
  if (v2 && c.stackDrops !== null && typeof c.stackDrops !== 'number') return '.stackDrops is not a number or null';
  if (c.rounds !== undefined && (!Array.isArray(c.rounds) || c.rounds.some((r) => !isObject(r)))) return '.rounds is not a list of rounds';
  return null;
}

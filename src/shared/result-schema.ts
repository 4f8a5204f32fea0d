/**
 * Checks a result file against the JSON Schema published with the package
 * (schema/result.schema.json for the version this wsbench writes, 3;
 * result-v2.schema.json and result-v1.schema.json for older files), with ajv,
 * and names the first problem in one line. What a schema cannot say (the
 * table names declared metrics; no count is below 0) is checked here after it. The same schema
 * checks a scenario's declarations where they are made (declarationProblem).
 * ajv is loaded on first use: a child process that loads a scenario never does.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Ajv2020 as Ajv2020Class, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { BenchResult } from './types/result-types.js';

/** The schema files, found beside the package.json this build belongs to (a symlinked build finds the real one). */
function schemaDirectory(): string {
  const packageJson = fileURLToPath(new URL('../../../package.json', import.meta.url));
  return join(dirname(realpathSync(packageJson)), 'schema');
}

/** A result file version this wsbench reads. */
export type ReadableVersion = 1 | 2 | 3;

/** File name of the published schema of each version. */
export const SCHEMA_FILES: Record<ReadableVersion, string> = {
  1: 'result-v1.schema.json',
  2: 'result-v2.schema.json',
  3: 'result.schema.json',
};

/** The published schema of `version`, parsed. */
export function resultSchema(version: ReadableVersion): Record<string, unknown> {
  return JSON.parse(readFileSync(join(schemaDirectory(), SCHEMA_FILES[version]), 'utf8')) as Record<string, unknown>;
}

const compiled = new Map<string, ValidateFunction>();

/** ajv, required on first use (it is CommonJS): loading a scenario alone never loads it. */
function newAjv(): Ajv2020Class {
  const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // allErrors off: the first problem is the one reported, and a broken file stops the walk early.
  return new Ajv2020({ allErrors: false, strict: true, allowUnionTypes: true, strictRequired: false });
}

function validatorOf(version: ReadableVersion): ValidateFunction {
  let validate = compiled.get(String(version));
  if (!validate) {
    validate = newAjv().compile(resultSchema(version));
    compiled.set(String(version), validate);
  }
  return validate;
}

/** The first problem of `data` as a result file of `version`, e.g. `cells[0] must be object (it is null)`; null when valid. */
export function schemaProblem(data: unknown, version: ReadableVersion): string | null {
  const validate = validatorOf(version);
  if (!validate(data)) return describe(firstError(validate.errors ?? []), data, validate.errors ?? []);
  return version >= 2
    ? undeclaredTableMetric(data as { scenarios: Array<{ table: string[]; metrics: object }> })
    : null;
}

/**
 * The first problem of a scenario's declaration, checked against the result schema's own
 * definition of it: `what` names a definition of the schema (`MetricInfo`, `ChartRequest`),
 * `path` where the value sits (`metrics.rtt`). Null when it is one the result file can hold.
 */
export function declarationProblem(what: 'MetricInfo' | 'ChartRequest', value: unknown, path: string): string | null {
  let validate = compiled.get(what);
  if (!validate) {
    const schema = resultSchema(3);
    validate = newAjv().compile({ ...schema, $id: `${String(schema.$id)}:${what}`, $ref: `#/$defs/${what}` });
    compiled.set(what, validate);
  }
  if (validate(value)) return null;
  const problem = describe(firstError(validate.errors ?? []), value, validate.errors ?? []);
  // Problems name the key path inside the value; the declaration's own path goes in front.
  return problem.startsWith('the file') ? problem.replace('the file', path) : `${path}.${problem}`;
}

/** An `if`/`then` failure is reported after the error inside `then`: the inner one says what is wrong. */
function firstError(errors: ErrorObject[]): ErrorObject | undefined {
  return errors.find((e) => e.keyword !== 'if' && e.keyword !== 'allOf') ?? errors[0];
}

function describe(error: ErrorObject | undefined, data: unknown, all: ErrorObject[]): string {
  if (!error) return 'does not match the result schema';
  const path = readablePath(error.instancePath);
  const value = valueAt(data, error.instancePath);
  const at = path === '' ? 'the file' : path;
  switch (error.keyword) {
    case 'required':
      return `${at} has no ${(error.params as { missingProperty: string }).missingProperty}`;
    case 'type': {
      // Branches of an anyOf (a number or null) each report their type: name them all.
      const types = all
        .filter((e) => e.keyword === 'type' && e.instancePath === error.instancePath)
        .map((e) => String((e.params as { type: string }).type));
      return `${at} must be ${[...new Set(types.join(',').split(','))].join(' or ')} (it is ${kindOf(value)})`;
    }
    case 'const':
      return `${at} must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)} (it is ${kindOf(value)})`;
    case 'enum':
      return `${at} must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')} (it is ${kindOf(value)})`;
    case 'false schema':
      return `${at} must not be there`;
    default:
      return `${at} ${error.message ?? 'does not match the result schema'}`;
  }
}

/** `/cells/0/measurements` -> `cells[0].measurements`. */
function readablePath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path === '' ? part : `${path}.${part}`), '');
}

function valueAt(data: unknown, pointer: string): unknown {
  let value = data;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value).slice(0, 60)}`;
}

/**
 * A count no measurement makes: a counter, or a metric its scenario declares a count (unit `count`) or an error
 * (role `errors`), below 0, in a cell or one of its rounds. The schema cannot say which metrics are counts; such a
 * file would read as fewer errors than none ("errors 0 -> -5 improved").
 */
export function negativeCount(result: BenchResult): string | null {
  for (const [c, cell] of result.cells.entries()) {
    if (!('metrics' in cell)) continue;
    const declared = result.scenarios.find((s) => s.name === cell.scenario)?.metrics ?? {};
    const isCount = (key: string): boolean => declared[key]?.unit === 'count' || declared[key]?.role === 'errors';
    const places: Array<[string, Readonly<Record<string, number | null | undefined>>, (key: string) => boolean]> = [
      [`cells[${c}].measurements.counters`, cell.measurements.counters, () => true],
      [`cells[${c}].measurements.serverCounters`, cell.measurements.serverCounters, () => true],
      [`cells[${c}].metrics`, cell.metrics, isCount],
      ...(cell.rounds ?? []).map(
        (round, r): [string, Readonly<Record<string, number | null | undefined>>, (key: string) => boolean] => [
          `cells[${c}].rounds[${r}].metrics`,
          round.metrics ?? {},
          isCount,
        ],
      ),
    ];
    for (const [path, values, counted] of places) {
      const found = Object.entries(values).find(
        ([key, value]) => counted(key) && typeof value === 'number' && value < 0,
      );
      if (found) return `${path}.${found[0]} is ${found[1]}, and a count is never below 0`;
    }
  }
  return null;
}

/** The one cross-reference the schema cannot express: every table column is a declared metric. */
function undeclaredTableMetric(data: { scenarios: Array<{ table: string[]; metrics: object }> }): string | null {
  for (const [i, scenario] of data.scenarios.entries()) {
    const unknown = scenario.table.find((key) => !Object.hasOwn(scenario.metrics, key));
    if (unknown !== undefined) return `scenarios[${i}].table names "${unknown}", which is not a declared metric`;
  }
  return null;
}

#!/usr/bin/env node
/**
 * Writes schema/result.schema.json, the JSON Schema of the result file, from the BenchResult type of
 * src/shared/types/result-types.ts and the types it imports (scripts/schema-from-types.mjs says how types become schema).
 * The types are the one source: change them, run `npm run schema:update`, and commit the two together.
 *
 * With --check it writes nothing, and exits 1 naming what differs when the checked-in file is not what the
 * types make (`npm run schema:check`; test/result-schema.test.ts runs it).
 *
 * Plain JavaScript on the TypeScript compiler API: it needs no build.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { schemaFromTypes } from './schema-from-types.mjs';

const TYPES = fileURLToPath(new URL('../src/shared/types/result-types.ts', import.meta.url));
const SCHEMA = fileURLToPath(new URL('../schema/result.schema.json', import.meta.url));
const SCHEMA_NAME = 'schema/result.schema.json';
/** Differences --check lists before it says how many more there are. */
const LISTED = 20;

function resultSchema() {
  const { defs, constant } = schemaFromTypes(TYPES, 'BenchResult');
  const version = constant('SCHEMA_VERSION');
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:wsbench:result:${version}`,
    title: `wsbench result, schemaVersion ${version}`,
    description:
      'The result JSON that `wsbench run` and `wsbench capacity` write and every reporter reads. Generated from ' +
      'the types of src/shared/types/result-types.ts by scripts/result-schema.mjs (`npm run schema:update`): the types are ' +
      'the source. Objects may carry fields beyond these.',
    $ref: '#/$defs/BenchResult',
    $defs: defs,
  };
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const shown = (value) => {
  const text = JSON.stringify(value);
  return text.length > 70 ? `${text.slice(0, 67)}...` : text;
};

/** Where `made` (from the types) and `kept` (the file) differ, as JSON paths into the schema. */
function differences(made, kept, path) {
  if (JSON.stringify(made) === JSON.stringify(kept)) return [];
  const bothObjects = isObject(made) && isObject(kept);
  if (bothObjects || (Array.isArray(made) && Array.isArray(kept))) {
    const keys = [...new Set([...Object.keys(made), ...Object.keys(kept)])];
    const at = (key) => (bothObjects ? `${path}.${key}` : `${path}[${key}]`);
    const found = keys.flatMap((key) => {
      if (!Object.hasOwn(kept, key)) return [`${at(key)}: in the types, not in the file`];
      if (!Object.hasOwn(made, key)) return [`${at(key)}: in the file, not in the types`];
      return differences(made[key], kept[key], at(key));
    });
    return found.length > 0 ? found : [`${path}: the same fields in another order`];
  }
  return [`${path}: ${shown(kept)} in the file, ${shown(made)} from the types`];
}

const args = process.argv.slice(2);
if (args.some((arg) => arg !== '--check')) {
  console.error('usage: node scripts/result-schema.mjs [--check]');
  process.exit(2);
}
const text = `${JSON.stringify(resultSchema(), null, 2)}\n`;
if (!args.includes('--check')) {
  writeFileSync(SCHEMA, text);
  console.log(`wrote ${SCHEMA_NAME}`);
  process.exit(0);
}
const kept = existsSync(SCHEMA) ? readFileSync(SCHEMA, 'utf8') : null;
if (kept === text) process.exit(0);
let found;
try {
  found = kept === null ? ['the file is missing'] : differences(JSON.parse(text), JSON.parse(kept), '');
} catch (error) {
  found = [`the file is not JSON: ${error.message}`];
}
if (found.length === 0) found = ['the same schema, laid out otherwise'];
console.error(
  [
    `${SCHEMA_NAME} is not what src/shared/types/result-types.ts and the types it imports make:`,
    ...found.slice(0, LISTED).map((line) => `  ${line.replace(/^\./, '')}`),
    ...(found.length > LISTED ? [`  and ${found.length - LISTED} more`] : []),
    'Run `npm run schema:update` and commit the schema with the types.',
  ].join('\n'),
);
process.exit(1);

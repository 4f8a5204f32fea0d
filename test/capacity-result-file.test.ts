/**
 * A capacity result is a result file (schema version 3, its search in the
 * `capacity` section): it validates against the published schema, a broken
 * section is one line, version 2 files still read, and the capacity file of
 * the versions before (test/fixtures/capacity-v1.json, written by wsbench at
 * commit e1e26d3) reads as a result whose report draws its search.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readResultFile, resultFromJson } from '../src/parent/results/result-file.js';
import { SCHEMA_FILES, schemaProblem } from '../src/shared/result-schema.js';
import { SCHEMA_VERSION, type CapacityResult } from '../src/shared/types/result-types.js';
import { capacityResult } from './fixtures/synthetic-capacity.js';
import { cell, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { REPO_ROOT, runCli, tempDir } from './support.js';

const SOURCE_ROOT = dirname(realpathSync(join(REPO_ROOT, 'package.json')));
const OLD_CAPACITY = join(REPO_ROOT, 'test', 'fixtures', 'capacity-v1.json');

function published(version: 2 | 3) {
  return new Ajv2020({ strict: false }).compile(
    JSON.parse(readFileSync(join(SOURCE_ROOT, 'schema', SCHEMA_FILES[version]), 'utf8')),
  );
}

test('a capacity result validates against the published schema; a step without its clause values is one line', () => {
  const data = JSON.parse(
    JSON.stringify(capacityResult([{ server: 'ws', capacity: 10, brokeAt: 11 }])),
  ) as CapacityResult;
  const validate = published(3);
  assert.ok(validate(data), JSON.stringify(validate.errors));
  delete (data.capacity.servers[0]!.steps[1] as Partial<(typeof data.capacity.servers)[0]['steps'][0]>).sloValues;
  assert.equal(schemaProblem(data, SCHEMA_VERSION), 'capacity.servers[0].steps[1] has no sloValues');
});

test('a version 2 file reads as it is, as the current version', () => {
  const v2 = {
    ...result(scenarioInfo('echo', { metrics: {}, table: [], charts: [] }), [
      cell('echo', { server: 'ws', client: 'ws' }),
    ]),
    schemaVersion: 2,
  };
  const data = JSON.parse(JSON.stringify(v2)) as unknown;
  assert.ok(published(2)(data));
  const read = resultFromJson(data, 'v2.json');
  assert.equal(read.schemaVersion, SCHEMA_VERSION);
  assert.equal(read.capacity, undefined);
  assert.equal(read.cells.length, 1);
});

test('the capacity file of earlier versions reads as a result with its search and no cells, and its report draws the search', async () => {
  const old = JSON.parse(readFileSync(OLD_CAPACITY, 'utf8')) as {
    format: string;
    servers: Array<{ steps: Array<{ latencyMs: number }> }>;
  };
  assert.equal(old.format, 'wsbench-capacity', 'the fixture is a real capacity file of before version 3');
  const read = readResultFile(OLD_CAPACITY) as CapacityResult;
  assert.equal(read.schemaVersion, SCHEMA_VERSION);
  assert.deepEqual(read.cells, []);
  assert.equal(read.scenarios[0]?.name, 'echo');
  const [ws] = read.capacity.servers;
  assert.equal(ws?.serverPerStep, 'fresh');
  assert.deepEqual(
    ws?.steps.map((s) => s.sloValues),
    old.servers[0]!.steps.map((s) => [s.latencyMs, 0]),
    'the p99 and the errors each step kept',
  );

  const dir = tempDir();
  const outcome = await runCli(['report', OLD_CAPACITY, '--out', dir]);
  assert.equal(outcome.code, 0, outcome.stderr);
  for (const name of ['echo-capacity', 'echo-capacity-p99', 'echo-capacity-errors'])
    assert.ok(existsSync(join(dir, 'charts', `${name}.svg`)), name);
  assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /<h2>Capacity<\/h2>/);
});

test("a capacity result without steps' cells still gets its report", async () => {
  const dir = tempDir();
  const path = join(dir, 'cap.json');
  writeFileSync(
    path,
    JSON.stringify(
      capacityResult([
        { server: 'ws', capacity: 10, brokeAt: 11 },
        { server: 'uws', capacity: 40, brokeAt: null },
      ]),
    ),
  );
  const outcome = await runCli(['report', path]);
  assert.equal(outcome.code, 0, outcome.stderr);
  const html = readFileSync(join(dir, 'cap.report', 'report.html'), 'utf8');
  assert.match(html, /<td class="text">uws<\/td><td class="text">ws<\/td><td>&gt;= 40<\/td>/);
  assert.match(html, /invalid: load generator saturated/, 'the invalid points are marked in the legend');
});

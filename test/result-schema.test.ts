/**
 * Result files are checked against the JSON Schema published with the package.
 * A real run's file validates; so does every kind of cell; the schema is the one
 * scripts/result-schema.mjs makes from the types in src/shared/types/result-types.ts; and a
 * bad file is one line naming its first problem, with exit 2.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { resultSchema, schemaProblem, SCHEMA_FILES, type ReadableVersion } from '../src/shared/result-schema.js';
import { resultFromJson } from '../src/parent/results/result-file.js';
import { SCHEMA_VERSION, type BenchResult, type CellResult } from '../src/shared/types/result-types.js';
import { REPO_ROOT, runCli, tempDir, runArgs } from './support.js';
import { cell, exponentialHistogram, resources, result, scenarioInfo } from './fixtures/synthetic-results.js';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

const V1_FIXTURE = join(REPO_ROOT, 'test/fixtures/echo-run.json');
/** The source tree (a private build links package.json back to it), for the schema files and their generator. */
const SOURCE_ROOT = dirname(realpathSync(join(REPO_ROOT, 'package.json')));

/** The published file alone, compiled by a fresh validator: what a user's own tooling would see. */
function publishedValidator(version: ReadableVersion) {
  return new Ajv2020({ strict: false }).compile(
    JSON.parse(readFileSync(join(SOURCE_ROOT, 'schema', SCHEMA_FILES[version]), 'utf8')),
  );
}

test('the package publishes the schema, for the version this wsbench writes', () => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    files: string[];
    dependencies: Record<string, string>;
  };
  assert.ok(pkg.files.includes('schema'), 'schema/ is in package.json "files"');
  assert.match(pkg.dependencies.ajv ?? '', /^\d+\.\d+\.\d+$/, 'ajv at an exact version');
  const schema = resultSchema(SCHEMA_VERSION) as {
    $defs: { BenchResult: { properties: { schemaVersion: { const: number } } } };
  };
  assert.equal(schema.$defs.BenchResult.properties.schemaVersion.const, SCHEMA_VERSION);
});

test("a real run's result file validates against the published schema", async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(
    runArgs('echo', 'ws', 'ws,undici', '--duration', '500ms', '--repeat', '2', '--out', out),
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const data = JSON.parse(readFileSync(out, 'utf8')) as unknown;
  const validate = publishedValidator(SCHEMA_VERSION);
  assert.ok(validate(data), JSON.stringify(validate.errors));
  assert.equal(schemaProblem(data, SCHEMA_VERSION), null);
});

const METRICS: Record<string, MetricInfo> = {
  rttP50Ms: latencyMetric('rtt', 'p50'),
  rate: {
    header: 'msg/s',
    unit: 'msg/s',
    better: 'higher',
    role: 'primary-rate',
    source: { counter: 'received', as: 'rate', scale: 1 },
  },
  cpu: {
    header: 'cpu',
    unit: '%',
    better: 'lower',
    role: 'detail',
    source: { resource: 'server', stat: 'cpuMean' },
    acrossRounds: 'max',
  },
  custom: {
    header: 'c',
    unit: 'count',
    better: 'none',
    role: 'detail',
    source: { custom: 'how, in words' },
    description: 'one sentence',
  },
};

/** A result with every kind of cell, every optional field filled where the types allow one. */
function everyKind(): BenchResult {
  const rtt = exponentialHistogram(500, 200, 3);
  const info = scenarioInfo('echo', {
    metrics: METRICS,
    table: Object.keys(METRICS),
    charts: [
      { kind: 'percentiles', histograms: ['rtt', { histogram: 'rtt', side: 'server' }] },
      { kind: 'resources', title: 'r' },
    ],
    parameters: {
      duration: { kind: 'duration', description: 'd', default: 1000, min: 1, max: 10, sweepable: true },
      mode: { kind: 'choice', description: 'm', default: 'a', choices: ['a', 'b'] },
    },
  });
  const ok = cell('echo', {
    server: 'ws',
    client: 'ws',
    histograms: { rtt },
    serverHistograms: { rtt },
    metrics: { rttP50Ms: 0.2, rate: null },
    counters: { received: 9 },
  });
  if (ok.status !== 'ok') throw new Error('fixture');
  ok.missing = { rate: 'no samples' };
  ok.measurements.timeSeries = {
    intervalMs: 100,
    points: [
      { tMs: 100, counters: { received: 9 }, latency: { rtt: { count: 9, p50Ms: 0.2, p99Ms: 0.3, maxMs: 0.4 } } },
    ],
  };
  ok.rounds = [
    {
      status: 'ok',
      metrics: { rttP50Ms: 0.2 },
      resources: { server: null, clients: [resources(1, 2, 3)] },
      elapsedMs: 10,
    },
    { status: 'failed', reason: 'interrupted', elapsedMs: 5 },
  ];
  const failedMeasured = cell('echo', { server: 'uws', client: 'ws', histograms: { rtt }, status: 'failed' });
  const failedEmpty: CellResult = {
    scenario: 'echo',
    server: 'x',
    client: 'ws',
    params: { duration: 1000, flag: true, mode: 'a' },
    elapsedMs: 1,
    status: 'failed',
    reason: 'server did not start',
  };
  const skipped = cell('echo', { server: 'socketio', client: 'ws', status: 'skipped' });
  const errors = cell('echo', { server: 'bun', client: 'ws', histograms: { rtt }, status: 'errors' });
  if (errors.status !== 'errors') throw new Error('fixture');
  errors.fault = { atMs: 1200.5, connections: { opened: 10, failed: 2, lost: 3 }, trafficMs: 2500 };
  errors.loadSaturation = { saturated: [1], starved: [], evidence: 'load generator saturated' };
  errors.resources.clients = [{ ...resources(99, 100, 80), timerLatenessMs: { mean: 250, max: 900 } }];
  const r = result(info, [ok, failedMeasured, failedEmpty, skipped, errors]);
  r.argv = ['run', 'echo', '--duration', '1s'];
  r.host = '127.0.0.1';
  r.environment.kernelVersion = '#1 SMP';
  r.environment.availableParallelism = 2;
  r.environment.stacks = [
    {
      name: 'ws',
      role: 'server',
      protocol: 'websocket',
      availability: { available: true, version: '8', build: { packageName: 'ws', native: false, binary: 'x.node' } },
    },
    {
      name: 'uws',
      role: 'client',
      protocol: 'websocket',
      availability: { available: false, version: null, reason: 'no binary' },
    },
  ];
  return r;
}

test('every kind of cell validates, and the kinds are told apart', () => {
  const r = everyKind();
  const validate = publishedValidator(SCHEMA_VERSION);
  assert.ok(validate(r), JSON.stringify(validate.errors));
  const broken = (change: (cells: Array<Record<string, unknown>>) => void): string | null => {
    const copy = JSON.parse(JSON.stringify(r)) as { cells: Array<Record<string, unknown>> };
    change(copy.cells);
    return schemaProblem(copy, SCHEMA_VERSION);
  };
  assert.equal(
    broken((c) => delete c[4]!.reason),
    'cells[4] has no reason',
  );
  assert.equal(
    broken((c) => delete c[4]!.measurements),
    'cells[4] has no measurements',
  );
  assert.equal(
    broken((c) => ((c[4]!.fault as Record<string, unknown>).atMs = 'soon')),
    'cells[4].fault.atMs must be number or null (it is string "soon")',
  );
  assert.equal(
    broken((c) => delete c[2]!.reason),
    'cells[2] has no reason',
  );
  assert.equal(
    broken((c) => (c[3]!.measurements = c[0]!.measurements)),
    'cells[3].measurements must not be there',
  );
  assert.equal(
    broken((c) => delete c[0]!.measurements),
    'cells[0] has no measurements',
  );
  assert.equal(
    broken((c) => delete (c[1]!.measurements as Record<string, unknown>).windowMs),
    'cells[1].measurements has no windowMs',
  );
});

test('a version 1 file validates against the version 1 schema, and its upgrade against the current one', () => {
  const v1 = JSON.parse(readFileSync(V1_FIXTURE, 'utf8')) as unknown;
  assert.ok(publishedValidator(1)(v1));
  const upgraded = resultFromJson(v1, 'v1.json');
  assert.equal(upgraded.schemaVersion, SCHEMA_VERSION);
  const validate = publishedValidator(SCHEMA_VERSION);
  assert.ok(validate(JSON.parse(JSON.stringify(upgraded))), JSON.stringify(validate.errors));
});

test('a version 2 file validates against the version 2 schema, is read as version 3, and an errors cell is no version 2 cell', () => {
  const v3 = everyKind();
  const v2 = { ...v3, schemaVersion: 2, cells: v3.cells.filter((c) => c.status !== 'errors') } as Record<
    string,
    unknown
  >;
  delete v2.argv;
  delete v2.host;
  assert.ok(publishedValidator(2)(v2), JSON.stringify(publishedValidator(2).errors));
  const upgraded = resultFromJson(JSON.parse(JSON.stringify(v2)), 'v2.json');
  assert.equal(upgraded.schemaVersion, 3);
  assert.deepEqual(
    upgraded.cells.map((c) => c.status),
    ['ok', 'failed', 'failed', 'skipped'],
  );
  assert.ok(publishedValidator(3)(JSON.parse(JSON.stringify(upgraded))));
  assert.match(
    schemaProblem({ ...v3, schemaVersion: 2 }, 2) ?? '',
    /^cells\[4\]\.status must be one of ok, failed, skipped/,
  );
});

// ---------------------------------------------------------------- made from the types

test('the schema is what src/shared/types/result-types.ts makes (npm run schema:update writes it)', () => {
  // The generator's own check: a field added to a result type without regenerating fails here, naming it.
  const check = spawnSync(process.execPath, [join(SOURCE_ROOT, 'scripts', 'result-schema.mjs'), '--check'], {
    cwd: SOURCE_ROOT,
    encoding: 'utf8',
  });
  assert.equal(check.stderr, '');
  assert.equal(check.status, 0);
});

// ---------------------------------------------------------------- bad files through the CLI

test('a file whose cells are not cells, or hold wrong types, is one line naming the first problem, and exit 2', async () => {
  const dir = tempDir();
  const good = everyKind();
  const cases: Array<[string, unknown, string]> = [
    ['null-cell', { ...good, cells: [null] }, 'cells[0] must be object (it is null)'],
    ['empty-cell', { ...good, cells: [{}] }, 'cells[0] has no status'],
    [
      'string-elapsed',
      { ...good, cells: [{ ...good.cells[0], elapsedMs: 'soon' }] },
      'cells[0].elapsedMs must be number (it is string "soon")',
    ],
    [
      'bad-metric',
      { ...good, cells: [{ ...good.cells[0], metrics: { rttP50Ms: '0.2' } }] },
      'cells[0].metrics.rttP50Ms must be number or null (it is string "0.2")',
    ],
    [
      'bad-role',
      {
        ...good,
        scenarios: [{ ...good.scenarios[0], metrics: { x: { ...METRICS.rate, role: 'headline' } }, table: [] }],
      },
      'scenarios[0].metrics.x.role must be one of primary-latency, primary-rate, cost, progress, errors, detail (it is string "headline")',
    ],
  ];
  for (const [name, data] of cases) writeFileSync(join(dir, `${name}.json`), JSON.stringify(data));
  const outcomes = await Promise.all(
    cases.flatMap(([name]) => [
      runCli(['report', join(dir, `${name}.json`), '--out', join(dir, 'site')]),
      runCli(['compare', join(dir, `${name}.json`), V1_FIXTURE]),
    ]),
  );
  cases.forEach(([name, , problem], i) => {
    for (const outcome of outcomes.slice(i * 2, i * 2 + 2)) {
      assert.equal(
        outcome.stderr,
        `wsbench: ${join(dir, `${name}.json`)} is not a valid wsbench result: ${problem}\n`,
        name,
      );
      assert.equal(outcome.code, 2, name);
      assert.equal(outcome.stdout, '', name);
    }
  });
});

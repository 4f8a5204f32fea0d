/**
 * Result files of version 1 still read: upgraded in memory to the current
 * shape, with declarations derived from version 1's column names. A version 2
 * file reads back as written, and a malformed one is one line, not a TypeError.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../src/shared/types/errors.js';
import { readResultFile, resultFromJson, writeResultFile } from '../src/parent/results/result-file.js';
import { SCHEMA_VERSION, isMeasured, type MeasuredCell } from '../src/shared/types/result-types.js';
import { withIntervals } from '../src/parent/results/result-upgrade.js';
import { formatNumber, renderTable } from '../src/parent/report/run/table.js';
import { compareResults } from '../src/parent/compare/compare.js';
import { cell, exponentialHistogram, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { REPO_ROOT, tempDir } from './support.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

const V1_PATH = join(REPO_ROOT, 'test/fixtures/echo-run.json');
const v1Text = readFileSync(V1_PATH, 'utf8');

test('a version 1 file reads as version 2: cells a union, stackDrops, repeat, no empty summaries', () => {
  const raw = JSON.parse(v1Text) as { schemaVersion: number; cells: Array<{ serverStackDrops?: number }> };
  assert.equal(raw.schemaVersion, 1, 'the fixture is a real version 1 run');
  const upgraded = readResultFile(V1_PATH);
  assert.equal(upgraded.schemaVersion, SCHEMA_VERSION);
  assert.equal(upgraded.repeat, 1);
  assert.equal(upgraded.cells.length, raw.cells.length);
  for (const [i, c] of upgraded.cells.entries()) {
    assert.ok(isMeasured(c), `cell ${i} measured`);
    assert.equal(c.stackDrops, raw.cells[i]!.serverStackDrops ?? null);
    assert.deepEqual(c.missing, {});
    assert.deepEqual(c.notes, []);
    assert.deepEqual(c.measurements.sizes, {});
    assert.equal('serverStackDrops' in c, false);
    for (const summary of Object.values(c.measurements.latency)) assert.ok(summary.count > 0);
  }
});

test('its declarations come from the version 1 columns: table, headers, roles and a chart list', () => {
  const [scenario] = readResultFile(V1_PATH).scenarios;
  assert.ok(scenario);
  assert.deepEqual(scenario.table, ['rttP50Ms', 'rttP99Ms', 'rttMaxMs', 'messagesPerSec', 'errors']);
  assert.deepEqual(
    scenario.table.map((k) => scenario.metrics[k]!.header),
    ['p50 ms', 'p99 ms', 'max ms', 'msg/s', 'errors'],
  );
  assert.deepEqual(scenario.metrics.rttP99Ms, {
    header: 'p99 ms',
    unit: 'ms',
    better: 'lower',
    role: 'primary-latency',
    source: { histogram: 'rtt', stat: 'p99' },
  });
  assert.equal(scenario.metrics.rttMaxMs!.role, 'detail');
  assert.deepEqual(scenario.metrics.messagesPerSec!.source, { counter: 'received', as: 'rate' });
  assert.equal(scenario.metrics.messagesPerSec!.role, 'primary-rate');
  assert.equal(scenario.metrics.errors!.role, 'errors');
  assert.equal(scenario.metrics.sent!.role, 'detail');
  assert.ok(scenario.charts.length > 0);
  assert.deepEqual(scenario.charts, [{ kind: 'percentiles', histograms: ['rtt'] }, { kind: 'resources' }]);
  assert.deepEqual(Object.keys(scenario.parameters).sort(), [
    'binary',
    'connections',
    'duration',
    'inflight',
    'messages',
    'payload',
  ]);
});

test('its table renders with the version 1 columns and values', () => {
  const upgraded = readResultFile(V1_PATH);
  const lines = renderTable(upgraded).split('\n');
  assert.match(lines[1]!, /^every cell: /);
  assert.match(
    lines[2]!,
    /^server\s+client\s+status\s+p50 ms\s+p99 ms\s+max ms\s+msg\/s\s+errors\s+srv CPU%\s+srv RSS MB$/,
  );
  const first = upgraded.cells[0]!;
  assert.ok(isMeasured(first));
  assert.match(
    lines[3]!,
    new RegExp(
      `^${first.server}\\s+${first.client}\\s+ok\\s+${formatNumber(first.metrics.rttP50Ms)}\\s+${formatNumber(first.metrics.rttP99Ms)}\\s`,
    ),
  );
  // compare reads it like any other file.
  const comparison = compareResults(upgraded, upgraded);
  assert.deepEqual(
    comparison.cells[0]!.deltas.map((d) => d.metric),
    ['p50 ms', 'p99 ms', 'msg/s', 'errors', 'srv CPU %', 'srv RSS MiB'],
  );
});

test('a version 2 file round-trips unchanged but for the intervals its cells get when read', () => {
  const scenario = scenarioInfo('echo', {
    metrics: {
      rttP50Ms: latencyMetric('rtt', 'p50'),
    },
    table: ['rttP50Ms'],
    charts: [{ kind: 'resources' }],
  });
  const params = { deflate: 'off', tls: 'off', serverProcesses: 1 };
  const written = result(scenario, [
    cell('echo', {
      server: 'ws',
      client: 'ws',
      params,
      histograms: { rtt: exponentialHistogram(100, 300, 1) },
      metrics: { rttP50Ms: 0.3 },
    }),
    cell('echo', { server: 'ws', client: 'socketio', params, status: 'skipped' }),
  ]);
  const path = join(tempDir(), 'v2.json');
  writeResultFile(path, written);
  const read = readResultFile(path);
  assert.deepEqual(read, withIntervals(written));
  const measured = read.cells[0] as MeasuredCell;
  assert.deepEqual(measured.intervals, {}, 'no rounds and no time series: no interval ...');
  assert.match(measured.noInterval?.rttP50Ms ?? '', /no time series/, '... and the reason');
});

test('a version 2 file from before serverProcesses reads with its default, so compare matches its cells to new ones', () => {
  const scenario = scenarioInfo('echo', {
    metrics: {
      rttP50Ms: latencyMetric('rtt', 'p50'),
    },
    table: ['rttP50Ms'],
    charts: [{ kind: 'resources' }],
  });
  const measured = (params: Record<string, string | number>) =>
    result(scenario, [
      cell('echo', {
        server: 'ws',
        client: 'ws',
        params,
        histograms: { rtt: exponentialHistogram(100, 300, 1) },
        metrics: { rttP50Ms: 0.3 },
      }),
    ]);
  const dir = tempDir();
  writeResultFile(join(dir, 'old.json'), measured({ payload: 32, deflate: 'off' }));
  writeResultFile(join(dir, 'new.json'), measured({ payload: 32, deflate: 'off', serverProcesses: 1 }));
  const [old, current] = [readResultFile(join(dir, 'old.json')), readResultFile(join(dir, 'new.json'))];
  assert.equal(old.cells[0]!.params.serverProcesses, 1);
  const comparison = compareResults(old, current);
  assert.deepEqual([comparison.onlyInBase, comparison.onlyInNext], [[], []]);
  assert.equal(comparison.cells.length, 1);
});

test('a version 1 cell that failed before measuring, or was skipped, becomes its union member', () => {
  const raw = JSON.parse(v1Text) as { cells: Array<Record<string, unknown>> };
  const { metrics: _m, measurements: _ms, resources: _r, serverStackDrops: _d, ...identity } = raw.cells[0]!;
  raw.cells = [
    { ...identity, status: 'failed', reason: 'server did not start' },
    { ...identity, status: 'skipped' },
  ];
  const upgraded = resultFromJson(raw, 'old.json');
  assert.deepEqual(
    upgraded.cells.map((c) => [c.status, c.status === 'ok' ? null : c.reason, isMeasured(c)]),
    [
      ['failed', 'server did not start', false],
      ['skipped', 'skipped (no reason recorded)', false],
    ],
  );
});

test('cells that are not cells give one line naming the cell, never a TypeError', () => {
  const path = join(tempDir(), 'bad.json');
  for (const [cells, message] of [
    [[null], /^.*bad\.json is not a valid wsbench result: cells\[0\] must be object \(it is null\)$/],
    [[{}], /cells\[0\] has no status$/],
    [
      [{ scenario: 'echo', server: 'ws', client: 'ws', params: {}, status: 'ok', elapsedMs: 1 }],
      /cells\[0\] has no metrics$/,
    ],
    [
      [{ scenario: 'echo', server: 'ws', client: 'ws', params: {}, status: 'done', elapsedMs: 1 }],
      /cells\[0\]\.status must be one of ok, failed, skipped \(it is string "done"\)$/,
    ],
  ] as const) {
    const file = { ...(JSON.parse(v1Text) as object), schemaVersion: 2, repeat: 1, scenarios: [], cells };
    writeFileSync(path, JSON.stringify(file));
    assert.throws(
      () => readResultFile(path),
      (error: Error) => error instanceof UsageError && !error.message.includes('\n') && message.test(error.message),
    );
  }
  const v1 = JSON.parse(v1Text) as { cells: unknown[] };
  v1.cells[1] = null;
  writeFileSync(path, JSON.stringify(v1));
  assert.throws(() => readResultFile(path), /cells\[1\] must be object \(it is null\)/);
  const undeclared = JSON.parse(
    JSON.stringify(result(scenarioInfo('echo', { metrics: {}, table: ['rttP50Ms'], charts: [] }), [])),
  );
  assert.throws(
    () => resultFromJson(undeclared, 'x.json'),
    /scenarios\[0\]\.table names "rttP50Ms", which is not a declared metric/,
  );
  assert.throws(
    () => resultFromJson({ ...undeclared, schemaVersion: SCHEMA_VERSION + 1 }, 'x.json'),
    /newer than this wsbench reads/,
  );
});

/**
 * Every result says what was run: the table has a line with the parameters
 * every cell of a scenario shares (the varied ones have their own columns),
 * and report.html shows the same line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ParameterInfo } from '../src/shared/types/declaration-types.js';
import { renderTable } from '../src/parent/report/run/table.js';
import { renderHtml } from '../src/parent/report/html/html.js';
import { readResultFile } from '../src/parent/results/result-file.js';
import { REPO_ROOT } from './support.js';
import { cell, result, scenarioInfo } from './fixtures/synthetic-results.js';

const PARAMETERS: Record<string, ParameterInfo> = {
  connections: { kind: 'integer', description: 'made up', default: 1, sweepable: true },
  payload: { kind: 'size', description: 'made up', default: 32, sweepable: true },
  duration: { kind: 'duration', description: 'made up', default: 5000 },
  deflate: { kind: 'choice', description: 'made up', default: 'off', choices: ['off', 'on'] },
};

test('the table and the HTML name the parameters every cell shares, with units', () => {
  const info = scenarioInfo('echo', { parameters: PARAMETERS, metrics: {}, table: [], charts: [] });
  const params = { connections: 1, payload: 1000, duration: 5000, deflate: 'off' };
  const r = result(info, [
    cell('echo', { server: 'ws', client: 'ws', params }),
    cell('echo', { server: 'uws', client: 'ws', params }),
  ]);
  const lines = renderTable(r).split('\n');
  assert.match(lines[0]!, /^echo: /);
  assert.equal(lines[1], 'every cell: connections=1 payload=1kB duration=5s deflate=off');
  assert.match(lines[2]!, /^server\s+client\s+status/);
  assert.ok(renderHtml(r, []).includes('every cell: connections=1 payload=1kB duration=5s deflate=off'));
});

test('a swept parameter is a column, not on the line; a scenario with nothing shared has no line', () => {
  const swept = renderTable(
    result(
      scenarioInfo('echo', { parameters: PARAMETERS, metrics: {}, table: [], charts: [] }),
      [32, 4096].map((payload) => cell('echo', { server: 'ws', client: 'ws', params: { payload, duration: 2000 } })),
    ),
  ).split('\n');
  assert.equal(swept[1], 'every cell: duration=2s');
  assert.match(swept[2]!, /^payload\s+server\s+client\s+status/);
  assert.match(swept[3]!, /^32B\s+ws/);
  const bare = renderTable(
    result(scenarioInfo('echo', { metrics: {}, table: [], charts: [] }), [
      cell('echo', { server: 'ws', client: 'ws', params: {} }),
    ]),
  ).split('\n');
  assert.match(bare[1]!, /^server\s+client\s+status/);
});

test('a version 1 file, whose parameters were never declared, still lists them', () => {
  const lines = renderTable(readResultFile(join(REPO_ROOT, 'test/fixtures/echo-run.json'))).split('\n');
  assert.equal(
    lines[1],
    'every cell: deflate=off tls=off serverProcesses=1 connections=1 payload=32 binary=false inflight=1 duration=1000 messages=0',
  );
});

/**
 * A per-connection memory smaller than the noise of RSS sampling is never a
 * value: idle's own metric functions, given a server whose RSS fell after its
 * baseline (Bun once read -3.73 KB a connection), give null with the reason and
 * the estimate beside it; the table prints `< atMost` with a line saying why,
 * and the result validates against the schema.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import idle from '../scenarios/idle.js';
import { computeMetrics } from '../src/parent/measure/metric-values.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import { renderTable } from '../src/parent/report/run/table.js';
import { schemaProblem } from '../src/shared/result-schema.js';
import type { CellResult, MeasuredCell } from '../src/shared/types/result-types.js';
import { cell, resources, result } from './fixtures/synthetic-results.js';

/** 100 connections; baseline 40 MB; the window's RSS peaks 373 kB below it and swings 254 kB. */
function bunLikeCell(): CellResult {
  const server = { ...resources(1, 2, 0), rssBytes: { mean: 39_500_000, max: 39_627_000 } };
  const base = cell('idle', {
    server: 'bun',
    client: 'ws',
    params: { connections: 100 },
    counters: { connected: 100 },
    serverResources: server,
  }) as MeasuredCell;
  const measurements = { ...base.measurements, serverCounters: { serverRssBaselineBytes: 40_000_000 } };
  const values = computeMetrics(idle, {
    measurements,
    resources: base.resources,
    stackDrops: 0,
    serverReported: true,
    clientProcesses: 1,
    params: base.params,
  });
  return {
    ...base,
    measurements,
    metrics: values.metrics,
    missing: values.missing,
    resolution: values.resolution,
  } as CellResult;
}

test('a memory per connection below the RSS noise is null with its estimate and bound, and the table says < bound', () => {
  const below = bunLikeCell() as Extract<CellResult, { metrics: object }>;
  assert.equal(below.metrics.serverRssPerConnectionKB, null);
  assert.equal(below.metrics.serverRssPerConnectionBytes, null);
  assert.deepEqual(below.resolution!.serverRssPerConnectionBytes, {
    estimate: -3730,
    resolution: 2540,
    resolved: false,
    atMost: 2540,
  });
  assert.match(
    below.missing.serverRssPerConnectionKB!,
    /^below its resolution: -3\.73 ± 2\.54 KB from the measurement's own noise, so at most 2\.54 KB$/,
  );

  const r = result(scenarioInfo(idle), [below]);
  assert.equal(schemaProblem(JSON.parse(JSON.stringify(r)), 3), null);
  const table = renderTable(r);
  const row = table.split('\n').find((line) => line.startsWith('bun'))!;
  assert.match(row, /< 2\.54/, row);
  assert.ok(!/-\d/.test(row), `no negative number in the row: ${row}`);
  assert.match(table, /^<\s+srv KB\/conn of bun x ws: below its resolution: -3\.73 ± 2\.54 KB/m);
});

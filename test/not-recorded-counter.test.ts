/**
 * A counter no process ever made reads "not recorded" (null, with that reason),
 * never 0: a misspelt counter name in a metric's source, or a declared counter
 * the code never took. One the code took and never fed is a measured 0. The
 * table says "not recorded" in the cell, as it says "no samples".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { isMeasured, run } from '../src/parent/index.js';
import { computeMetrics, NOT_RECORDED } from '../src/parent/measure/metric-values.js';
import { renderTable } from '../src/parent/report/run/table.js';
import { declarationsOnly } from './fixtures/cell-runs.js';
import { total } from '../src/shared/scenario-kit/index.js';

const SCENARIO = fileURLToPath(new URL('./fixtures/unrecorded-counter.js', import.meta.url));

test('a metric reading a counter no process made is null, "not recorded"; one made and never fed is 0', () => {
  const scenario = declarationsOnly(
    'misspelt',
    { errors: total('errors', 'errors'), errros: total('errros', 'errros') },
    ['errors', 'errros'],
  );
  const measurements = {
    histograms: {},
    latency: {},
    sizes: {},
    counters: { errors: 0 },
    serverHistograms: {},
    serverLatency: {},
    serverCounters: {},
    windowMs: 1000,
  };
  const values = computeMetrics(scenario, {
    measurements,
    params: {},
    resources: { server: null, clients: [] },
    stackDrops: null,
    clientProcesses: 1,
    serverReported: true,
  });
  assert.deepEqual(values.metrics, { errors: 0, errros: null });
  assert.deepEqual(values.missing, { errros: NOT_RECORDED });
});

test('declared recorders, end to end: never taken reads not recorded, taken and never fed reads 0', {
  timeout: 60_000,
}, async () => {
  const result = await run({ scenario: SCENARIO, servers: ['ws'], clients: ['ws'], params: { duration: '300ms' } });
  const [cell] = result.cells;
  assert.ok(cell?.status === 'ok' && isMeasured(cell), cell && 'reason' in cell ? cell.reason : 'no cell');
  assert.ok((cell.metrics.replies ?? 0) > 0);
  assert.equal(cell.metrics.watched, 0);
  assert.equal(cell.metrics.forgotten, null);
  assert.equal(cell.missing.forgotten, NOT_RECORDED);
  const row = renderTable(result)
    .split('\n')
    .find((line) => line.startsWith('ws '));
  assert.match(row ?? '', / 0 +not recorded/);
});

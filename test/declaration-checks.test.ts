/**
 * A scenario's metric and chart declarations are checked where they are made,
 * against the same JSON Schema the result file is checked with: a mistake is
 * one line naming its key path and exit 2, before any process starts (not a
 * run whose result wsbench's own `report` then refuses).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { runCli, tempDir, usageErrorLine } from './support.js';

const BAD_METRIC = fileURLToPath(new URL('./fixtures/scenario-bad-metric.js', import.meta.url));
const CHART_GHOST = fileURLToPath(new URL('./fixtures/scenario-chart-ghost.js', import.meta.url));

const cases: Array<[string, string, string]> = [
  [
    'a metric of the wrong shape',
    BAD_METRIC,
    'scenario bad-metric: metrics.rttP50Ms.better must be one of lower, higher, none (it is string "smaller")',
  ],
  [
    'a chart naming an undeclared histogram',
    CHART_GHOST,
    'scenario chart-ghost: charts[0] (percentiles) names histogram "ghost", which is not declared (no metric reads it)',
  ],
];

for (const [name, file, expected] of cases) {
  test(`declaration checked where it is made: ${name}`, async () => {
    const outcome = await runCli(['run', file, '--duration', '200ms', '--out', join(tempDir(), 'r.json')]);
    const line = usageErrorLine(outcome);
    assert.ok(line.includes(expected), line);
  });
}

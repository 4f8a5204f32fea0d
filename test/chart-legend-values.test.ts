/**
 * Chart legends, facet headers and labels print parameter values the way the
 * table does: `maxSize=1kB`, `hold=10ms`, never the raw number in the unit the
 * JSON keeps (`maxSize=1000`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCharts } from '../src/parent/charts/index.js';
import type { ChartRequest, MetricInfo, ParameterInfo } from '../src/shared/types/declaration-types.js';
import { cell, exponentialHistogram, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

const PARAMETERS: Record<string, ParameterInfo> = {
  maxSize: { kind: 'size', description: 'made up', default: 1000, sweepable: true },
  hold: { kind: 'duration', description: 'made up', default: 0, sweepable: true },
  mode: { kind: 'choice', description: 'made up', default: 'a', choices: ['a', 'b'] },
};
const METRICS: Record<string, MetricInfo> = {
  lagP50Ms: latencyMetric('lag', 'p50', 'lag p50 ms'),
};

test('legends, facets and heatmap rows print values with their units, as the table does', () => {
  const cells = [1000, 4096].flatMap((maxSize, s) =>
    [0, 10].map((hold, h) =>
      cell('sized', {
        server: 'ws',
        client: 'ws',
        params: { maxSize, hold, mode: 'a' },
        histograms: { lag: exponentialHistogram(500, 300, s * 2 + h) },
        metrics: { lagP50Ms: 1 + s + h },
      }),
    ),
  );
  const charts: ChartRequest[] = [
    { kind: 'percentiles', histograms: ['lag'] },
    { kind: 'heatmap', metrics: ['lagP50Ms'] },
    { kind: 'grid', rows: 'hold', columns: 'maxSize', histogram: 'lag' },
    { kind: 'resources' },
  ];
  const r = result(
    scenarioInfo('sized', { parameters: PARAMETERS, metrics: METRICS, table: ['lagP50Ms'], charts }),
    cells,
  );
  const built = buildCharts(r)[0]!.charts;
  const text = JSON.stringify(built.map((c) => c.spec));
  for (const label of [
    'ws x ws maxSize=1kB hold=0ms',
    'ws x ws maxSize=4KiB hold=10ms',
    'maxSize=1kB hold=10ms',
    'hold=10ms',
    'maxSize=4KiB',
  ]) {
    assert.ok(text.includes(`"${label}"`), `a chart shows "${label}"`);
  }
  for (const raw of [
    'maxSize=1000',
    'maxSize=4096',
    'hold=10,',
    'hold = 10 ms',
    'ws x ws maxSize=1kB hold=0ms mode=a',
  ]) {
    assert.ok(!text.includes(raw), `no chart shows "${raw}"`);
  }
  assert.ok(text.includes('"every cell: mode=a"'), 'what every cell shares is said once, under the title');
});

/**
 * A result whose chart declarations are wrong (a request of the wrong shape,
 * a histogram no cell recorded, a metric or parameter not declared, a kind
 * this wsbench does not draw) never crashes `report`: what can be drawn is
 * drawn, and each request that was not is named by its key path, with the
 * reason, on stderr and in report.html.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChartRequest } from '../src/shared/types/declaration-types.js';
import { runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

test('bad chart requests are named on stderr and in the report; the good ones are drawn', async () => {
  const charts = [
    { kind: 'sizes', histograms: ['bulk'] },
    { kind: 'percentiles', histograms: ['rtt', 'nosuch'] },
    { kind: 'percentiles', histograms: ['ghost'] },
    { kind: 'heatmap', metrics: ['rttP50Ms', 'undeclared'] },
    { kind: 'by-parameter', parameter: 'nothing', metrics: ['rttP50Ms'] },
    { kind: 'pie' },
    { kind: 'sizes', histogram: 'rtt' },
  ] as unknown as ChartRequest[];
  const info = scenarioInfo('echo', {
    metrics: {
      rttP50Ms: latencyMetric('rtt', 'p50'),
    },
    table: ['rttP50Ms'],
    charts,
  });
  const cells = ['ws', 'uws'].map((server, i) =>
    cell('echo', {
      server,
      client: 'ws',
      histograms: { rtt: exponentialHistogram(500, 300, i) },
      metrics: { rttP50Ms: 0.3 + i },
    }),
  );
  const dir = tempDir();
  const path = join(dir, 'r.json');
  writeFileSync(path, JSON.stringify(result(info, cells)));
  const outcome = await runCli(['report', path, '--out', join(dir, 'site')]);
  assert.equal(outcome.code, 0, outcome.stderr);
  const expected = [
    'scenarios[0].charts[0] (sizes): not drawn: "histogram" must be a histogram name (it is missing)',
    'scenarios[0].charts[1] (percentiles): "nosuch" not drawn: no cell recorded a histogram "nosuch"',
    'scenarios[0].charts[2] (percentiles): not drawn: no cell recorded a histogram "ghost"',
    'scenarios[0].charts[3] (heatmap): "undeclared" not drawn: the scenario declares no metric "undeclared"',
    'scenarios[0].charts[4] (by-parameter): not drawn: no cell has a parameter "nothing"',
    'scenarios[0].charts[5] (pie): not drawn: this wsbench draws no chart of kind "pie" (it draws percentiles, heatmap, over-time, grid, by-parameter, sizes, cumulative, resources, offered-load)',
    'scenarios[0].charts[6] (sizes): not drawn: histogram "rtt" holds latencies, not sizes',
  ];
  assert.deepEqual(
    outcome.stderr.trimEnd().split('\n'),
    expected.map((line) => `warning: ${path}: ${line}`),
  );
  assert.ok(existsSync(join(dir, 'site', 'charts', 'echo-percentiles.svg')), 'the good part of a request is drawn');
  assert.ok(existsSync(join(dir, 'site', 'charts', 'echo-heatmap.svg')));
  const html = readFileSync(join(dir, 'site', 'report.html'), 'utf8');
  for (const line of expected) assert.ok(html.includes(line.replace(/"/g, '&quot;')), `the report says: ${line}`);
});

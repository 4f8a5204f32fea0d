/**
 * One cell has one name: the table's footer, the charts' legends, compare's
 * rows and gate lines, and the merge warnings all call a cell
 * `uws x ws payload=1kB delay=10ms` (with the scenario in front where several
 * can mix), values printed with their units.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MetricInfo, ParameterInfo } from '../src/shared/types/declaration-types.js';
import { isMeasured, type BenchResult, type CellResult } from '../src/shared/types/result-types.js';
import { renderTable } from '../src/parent/report/run/table.js';
import { buildCharts } from '../src/parent/charts/index.js';
import { compareResults } from '../src/parent/compare/compare.js';
import { renderComparison } from '../src/parent/compare/compare-text.js';
import { gate } from '../src/parent/compare/compare-gate.js';
import { shardWarnings } from '../src/parent/shard/merge-warnings.js';
import type { ShardInfo } from '../src/shared/types/shard-types.js';
import { cell, exponentialHistogram, resources, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { shardInfo } from './fixtures/shard-info.js';
import { rateMetric } from './fixtures/metric-declarations.js';

const PARAMETERS: Record<string, ParameterInfo> = {
  payload: { kind: 'size', description: 'made up', default: 32, sweepable: true },
  delay: { kind: 'duration', description: 'made up', default: 0, sweepable: true },
};
const METRICS: Record<string, MetricInfo> = {
  messagesPerSec: rateMetric(),
};
const INFO = scenarioInfo('echo', {
  parameters: PARAMETERS,
  metrics: METRICS,
  table: ['messagesPerSec'],
  charts: [{ kind: 'percentiles', histograms: ['rtt'] }],
});

function cells(status: 'ok' | 'failed', clientCpu = 10): CellResult[] {
  return [
    [32, 0],
    [1000, 10],
  ].map(([payload, delay], i) => {
    const c = cell('echo', {
      server: 'uws',
      client: 'ws',
      params: { payload: payload!, delay: delay! },
      histograms: { rtt: exponentialHistogram(300, 300, i) },
      metrics: { messagesPerSec: 1000 },
      status: i === 1 ? status : 'ok',
    });
    if (isMeasured(c)) c.resources.clients = [resources(clientCpu, clientCpu, 80)];
    return c;
  });
}

test('table, charts, compare and merge warnings name a cell alike', () => {
  const base = result(INFO, cells('ok'));
  const next = result(INFO, cells('failed'));
  const name = 'uws x ws payload=1kB delay=10ms';

  assert.match(renderTable(next), new RegExp(`^  ${name}: server crashed$`, 'm'), 'the failed-cells footer');
  const legend = JSON.stringify(buildCharts(next)[0]!.charts[0]!.spec);
  assert.ok(legend.includes(`"${name}"`), 'the percentile legend');
  const comparison = compareResults(base, next);
  assert.match(renderComparison(comparison, { base: 'a', next: 'b' }), new RegExp(`^echo ${name}\\s+status`, 'm'));
  assert.deepEqual(
    gate(comparison, 10).regressions.map((r) => r.cell),
    [`echo ${name}`],
  );

  const shard = (index: number): { shard: ShardInfo; result: BenchResult } => ({
    shard: shardInfo(index, { count: 1 }),
    result: result(INFO, cells('ok', 99)),
  });
  const warnings = shardWarnings([shard(0)], INFO, []);
  assert.ok(
    warnings.some((w) =>
      w.startsWith(`shard 0, echo ${name}: load generator saturated (from 85% of a core): CPU 99% of a core`),
    ),
    warnings.join('\n'),
  );
});

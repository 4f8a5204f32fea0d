/**
 * Chart titles and axes use the headers the table uses, from the metric's
 * declaration: `msg/s over time`, never the metric's key (`messagesPerSec`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCharts } from '../src/parent/charts/index.js';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import { isMeasured } from '../src/shared/types/result-types.js';
import { cell, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { rateMetric } from './fixtures/metric-declarations.js';

const METRICS: Record<string, MetricInfo> = {
  messagesPerSec: rateMetric(),
  bytesPerSec: {
    header: 'MB/s',
    unit: 'MB/s',
    better: 'higher',
    role: 'progress',
    source: { counter: 'octets', as: 'rate', scale: 1e-6 },
  },
};

test('an over-time chart of a metric whose header is its unit is titled with the header', () => {
  const c = cell('echo', { server: 'ws', client: 'ws', metrics: { messagesPerSec: 1000, bytesPerSec: 1 } });
  assert.ok(isMeasured(c));
  c.measurements.timeSeries = {
    intervalMs: 1000,
    points: [1, 2, 3].map((t) => ({ tMs: t * 1000, counters: { received: t * 1000, octets: t * 1e6 }, latency: {} })),
  };
  const info = scenarioInfo('echo', {
    metrics: METRICS,
    table: ['messagesPerSec'],
    charts: [
      { kind: 'over-time', rates: ['messagesPerSec', 'bytesPerSec'] },
      { kind: 'heatmap', metrics: ['messagesPerSec'] },
    ],
  });
  const [overTime, heatmap] = buildCharts(result(info, [c]))[0]!.charts;
  assert.equal((overTime!.spec.title as { text: string }).text, 'echo: msg/s, MB/s over time');
  const text = JSON.stringify([overTime!.spec, heatmap!.spec]);
  assert.doesNotMatch(text, /messagesPerSec \(|bytesPerSec \(|"messagesPerSec"[^,]*over time/);
  assert.ok(text.includes('"title":"msg/s"'), 'the axis says msg/s once, not "msg/s (msg/s)" nor the key');
  assert.ok(!overTime!.caption.includes('messagesPerSec'), overTime!.caption);
});

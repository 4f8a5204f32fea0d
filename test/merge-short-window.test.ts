/**
 * No impossible rate survives a short window. Two shards of one run, one of
 * which had nothing to do and closed its window at once (0.42 ms): merged, the
 * rates are over the window that holds every count (the first opening to the
 * last close), and the cell says why, instead of the shards' counts over the
 * 0.42 ms they had in common (millions of messages a second). And any window
 * too short to hold a rate gives no rate at all, with the reason, whatever
 * reads it afterwards (table, report, compare read the metrics).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMeasured, type BenchResult, type MeasuredCell } from '../src/shared/types/result-types.js';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import { mergeShards } from '../src/parent/shard/merge.js';
import { computeMetrics, MIN_RATE_WINDOW_MS } from '../src/parent/measure/metric-values.js';
import { defineScenario } from '../src/shared/scenario-kit/index.js';
import { cell, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { shardInfo } from './fixtures/shard-info.js';
import { rateMetric } from './fixtures/metric-declarations.js';

const METRICS: Record<string, MetricInfo> = {
  received: { header: 'recv', unit: 'count', better: 'none', role: 'detail', source: { counter: 'received' } },
  messagesPerSec: rateMetric(),
};
const INFO = scenarioInfo('sharded', { metrics: METRICS, table: Object.keys(METRICS), charts: [] });
const OPENED_AT = 1_700_000_000_000;

function shardResult(index: number, received: number, windowMs: number): BenchResult {
  const shard = shardInfo(index, { start: { mode: 'barrier', atEpochMs: OPENED_AT } });
  const c = cell('sharded', { server: 'target', client: 'ws', counters: { received } }) as MeasuredCell;
  Object.assign(c.measurements, { windowMs, windowOpenedAtEpochMs: OPENED_AT });
  return { ...result(INFO, [c]), shard };
}

test("merge: a shard that closed its window at once does not shrink the others' into an impossible rate", async () => {
  const merged = await mergeShards([
    { source: 'shard-0.json', result: shardResult(0, 230_000, 2000) },
    { source: 'shard-1.json', result: shardResult(1, 0, 0.42) },
  ]);
  const [c] = merged.cells;
  assert.ok(c && isMeasured(c));
  assert.equal(c.measurements.windowMs, 2000);
  assert.equal(c.metrics.messagesPerSec, 115_000);
  assert.ok(
    c.notes.includes(
      'shard 1 measured for 0.42 ms, another shard for 2.00 s, and all of them at once for 0.42 ms (a shard with nothing to do, or windows that did not line up): ' +
        "rates are over the 2.00 s from the first window's opening to the last one's close, which holds every count, and so read low rather than high",
    ),
    c.notes.join('\n'),
  );
});

test('merge: shards whose windows line up keep the common window, without a note', async () => {
  const merged = await mergeShards([
    { source: 'shard-0.json', result: shardResult(0, 100_000, 2000) },
    { source: 'shard-1.json', result: shardResult(1, 100_000, 1990) },
  ]);
  const [c] = merged.cells;
  assert.ok(c && isMeasured(c));
  assert.equal(c.measurements.windowMs, 1990);
  assert.deepEqual(c.notes, []);
});

test(`a window under ${MIN_RATE_WINDOW_MS} ms gives no rate, with the reason, declared or computed`, () => {
  const scenario = defineScenario({
    name: 'rates',
    description: 'two rates',
    parameters: {},
    async client() {},
    metrics: {
      received: { header: 'recv', unit: 'count', better: 'none', role: 'detail', source: { counter: 'received' } },
      perSec: rateMetric(),
      computed: {
        header: 'B/s',
        unit: 'bytes/s',
        better: 'higher',
        role: 'detail',
        source: {
          custom: 'received x 32 / window',
          compute: ({ measurements: m }) => ((m.counters.received ?? 0) * 32 * 1000) / m.windowMs,
        },
      },
    },
    table: ['received', 'perSec', 'computed'],
  });
  const measured = (windowMs: number) =>
    computeMetrics(scenario, {
      measurements: {
        histograms: {},
        latency: {},
        sizes: {},
        counters: { received: 48 },
        serverHistograms: {},
        serverLatency: {},
        serverCounters: {},
        windowMs,
      },
      resources: { server: null, clients: [] },
      stackDrops: null,
      serverReported: false,
      clientProcesses: 1,
      params: {},
    });
  const short = measured(0.42);
  assert.deepEqual(short.metrics, { received: 48, perSec: null, computed: null });
  assert.equal(
    short.missing.perSec,
    `the window (0.42 ms) is too short to hold a rate (under ${MIN_RATE_WINDOW_MS} ms)`,
  );
  assert.equal(short.missing.computed, short.missing.perSec);
  assert.deepEqual(measured(1000).metrics, { received: 48, perSec: 48, computed: 1536 });
});

/**
 * Shards merge exactly: histograms add bucket by bucket, so the merged
 * percentiles are those of the union of every shard's samples; counters sum;
 * a missing shard is named; shards of another run are refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeHistogram, newHistogram } from '../src/shared/measure/metrics.js';
import { histogramStat } from '../src/parent/measure/metric-values.js';
import { isMeasured, type BenchResult } from '../src/shared/types/result-types.js';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import { mergeShards } from '../src/parent/shard/merge.js';
import { cell, result, scenarioInfo, seededRandom } from './fixtures/synthetic-results.js';
import { shardInfo } from './fixtures/shard-info.js';
import { latencyMetric, rateMetric } from './fixtures/metric-declarations.js';

const METRICS: Record<string, MetricInfo> = {
  delayP50Ms: latencyMetric('delay', 'p50'),
  delayP99Ms: latencyMetric('delay', 'p99'),
  received: { header: 'recv', unit: 'count', better: 'none', role: 'detail', source: { counter: 'received' } },
  messagesPerSec: rateMetric(),
};
const INFO = scenarioInfo('sharded', { metrics: METRICS, table: Object.keys(METRICS), charts: [] });

/** Each shard's own delay samples (µs), seeded so the test knows every value. */
function samples(shard: number, count: number): number[] {
  const random = seededRandom(100 + shard);
  return Array.from({ length: count }, () => Math.round(200 + 5000 * random() * random() * (shard + 1)));
}

function shardResult(index: number, count: number, values: number[], runId = 'run-1'): BenchResult {
  const histogram = newHistogram();
  for (const v of values) histogram.recordValue(v);
  const delay = encodeHistogram(histogram);
  const shard = shardInfo(index, { runId, count, clockOffsetMs: index === 0 ? 0 : 0.2 });
  const c = cell('sharded', {
    server: 'target',
    client: 'ws',
    histograms: { delay },
    counters: { received: values.length },
  });
  if (isMeasured(c)) c.metrics = { delayP50Ms: histogramStat(delay, 'p50'), received: values.length };
  return { ...result(INFO, [c]), shard };
}

test("merged percentiles are exactly those of the union of all shards' samples; counters sum", async () => {
  const perShard = [samples(0, 3000), samples(1, 5000), samples(2, 2000)];
  const merged = await mergeShards(
    perShard.map((values, i) => ({ source: `shard-${i}.json`, result: shardResult(i, 3, values) })),
  );
  const union = newHistogram();
  for (const v of perShard.flat()) union.recordValue(v);
  const [cell] = merged.cells;
  assert.ok(cell && isMeasured(cell) && cell.status === 'ok');
  for (const stat of ['p50', 'p99'] as const) {
    assert.equal(cell.metrics[`delay${stat === 'p50' ? 'P50' : 'P99'}Ms`], histogramStat(encodeHistogram(union), stat));
  }
  assert.equal(cell.measurements.latency.delay?.count, 10_000);
  assert.equal(cell.metrics.received, 10_000);
  assert.equal(cell.resources.clients.length, 3, "every shard's load generator is kept");
  assert.deepEqual(
    merged.merge?.shards.map((s) => s.status),
    ['ok', 'ok', 'ok'],
  );
  assert.equal(merged.merge?.shards[1]?.cells[0]?.metrics.received, 5000, 'each shard keeps its own numbers');
});

test('a missing shard is named in the merge and fails the cell, never silently dropped', async () => {
  const merged = await mergeShards(
    [0, 2].map((i) => ({ source: `shard-${i}.json`, result: shardResult(i, 3, samples(i, 100)) })),
  );
  const [cell] = merged.cells;
  assert.equal(cell?.status, 'failed');
  assert.match(cell.reason, /shard 1: missing/);
  assert.deepEqual(
    merged.merge?.shards.map((s) => s.status),
    ['ok', 'missing', 'ok'],
  );
  assert.ok(merged.merge?.warnings.some((w) => w.startsWith('shard 1 of 3 missing')));
});

test('shards of different runs, or a shard given twice, are refused with one line', async () => {
  await assert.rejects(
    mergeShards([
      { source: 'a.json', result: shardResult(0, 2, [1]) },
      { source: 'b.json', result: shardResult(1, 2, [1], 'run-2') },
    ]),
    { message: 'merge: b.json has another run id than a.json (run-2 vs run-1)' },
  );
  await assert.rejects(
    mergeShards([
      { source: 'a.json', result: shardResult(0, 2, [1]) },
      { source: 'b.json', result: shardResult(0, 2, [1]) },
    ]),
    { message: 'merge: shard 0 appears twice (a.json and b.json)' },
  );
  const { shard: _, ...plain } = shardResult(0, 1, [1]);
  await assert.rejects(mergeShards([{ source: 'plain.json', result: plain }]), {
    message: 'plain.json is not a shard result (run with --shard i/N)',
  });
});

test('a cell run in stages merges stage by stage: histograms added, counters summed, the load model kept', async () => {
  const perShard = [samples(0, 3000), samples(1, 5000)];
  const shards = perShard.map((values, i) => {
    const r = shardResult(i, 2, values);
    const c = r.cells[0]!;
    assert.ok(isMeasured(c));
    c.load = { model: 'open', text: 'open model, from 100/s in stages', says: ['rate'] };
    // Two stages: the first third of the samples in the first, the rest in the second.
    const cut = Math.floor(values.length / 3);
    c.stages = [values.slice(0, cut), values.slice(cut)].map((part, index) => {
      const h = newHistogram();
      for (const v of part) h.recordValue(v);
      const delay = encodeHistogram(h);
      const staged = cell('sharded', {
        server: 'target',
        client: 'ws',
        histograms: { delay },
        counters: { received: part.length },
      });
      assert.ok(isMeasured(staged));
      return {
        index,
        startMs: index * 1000,
        endMs: (index + 1) * 1000,
        target: (index + 1) * 100,
        status: 'ok' as const,
        metrics: {},
        missing: {},
        measurements: staged.measurements,
        resources: staged.resources,
      };
    });
    return { source: `shard-${i}.json`, result: r };
  });
  const [merged] = (await mergeShards(shards)).cells;
  assert.ok(merged && isMeasured(merged));
  assert.equal(merged.load?.text, 'open model, from 100/s in stages');
  assert.deepEqual(
    merged.stages?.map((s) => [
      s.index,
      s.target,
      s.measurements.counters.received,
      s.measurements.latency.delay?.count,
    ]),
    [
      [0, 100, 1000 + 1666, 1000 + 1666],
      [1, 200, 2000 + 3334, 2000 + 3334],
    ],
  );
  const firstStage = newHistogram();
  for (const v of [...perShard[0]!.slice(0, 1000), ...perShard[1]!.slice(0, 1666)]) firstStage.recordValue(v);
  assert.equal(merged.stages?.[0]?.metrics.delayP99Ms, histogramStat(encodeHistogram(firstStage), 'p99'));
});

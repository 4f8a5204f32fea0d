import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsRegistry } from '../src/shared/measure/metrics.js';
import { TimeSeriesCollector } from '../src/shared/measure/time-series.js';

/** A process's progress message for `tick`, with `values` recorded during that interval. */
function progress(registry: MetricsRegistry, tick: number, values: number[], received: number) {
  for (const v of values) registry.histogram('rtt').recordUs(v);
  registry.counter('received').add(received);
  return { type: 'progress' as const, tick, counters: registry.counterValues(), intervals: registry.takeIntervals() };
}

test("points sum counters over processes and merge each interval's latency exactly", () => {
  const a = new MetricsRegistry();
  const b = new MetricsRegistry();
  const collector = new TimeSeriesCollector(1000);
  collector.add(0, progress(a, 1, [100, 200], 2));
  collector.add(1, progress(b, 1, [300], 1));
  collector.add(0, progress(a, 2, [1000], 1));
  // Process 1 missed tick 2: its cumulative counters carry over.
  const series = collector.build()!;
  assert.equal(series.intervalMs, 1000);
  assert.deepEqual(
    series.points.map((p) => p.tMs),
    [1000, 2000],
  );
  assert.deepEqual(
    series.points.map((p) => p.counters.received),
    [3, 4],
  );
  assert.deepEqual(series.points[0]!.latency.rtt, {
    count: 3,
    p50Ms: 0.2,
    p99Ms: 0.3,
    maxMs: 0.3,
    meanMs: 0.2,
    p90Ms: 0.3,
    p999Ms: 0.3,
  });
  assert.deepEqual(series.points[1]!.latency.rtt, {
    count: 1,
    p50Ms: 1,
    p99Ms: 1,
    maxMs: 1,
    meanMs: 1,
    p90Ms: 1,
    p999Ms: 1,
  });
});

test('a long run folds into at most 900 points without losing a sample', () => {
  const registry = new MetricsRegistry();
  const collector = new TimeSeriesCollector(1000);
  for (let tick = 1; tick <= 2000; tick++) collector.add(0, progress(registry, tick, [tick], 1));
  const series = collector.build()!;
  // Neighbours merge pairwise each time the points pass 900: 2000 ticks make 500 points of 4.
  assert.equal(series.intervalMs, 4000);
  assert.equal(series.points.length, 500);
  assert.equal(
    series.points.reduce((n, p) => n + p.latency.rtt!.count, 0),
    2000,
  );
  assert.equal(series.points.at(-1)!.counters.received, 2000);
});

test('no progress, no series', () => {
  assert.equal(new TimeSeriesCollector(1000).build(), undefined);
});

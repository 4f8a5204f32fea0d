/** The live series of a cell: points merged over processes, stragglers, and folding that keeps every sample. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsRegistry, sumCounterSets } from '../src/shared/measure/metrics.js';
import type { ProgressTick } from '../src/shared/measure/time-series.js';
import { LiveCellSeries, MAX_LIVE_POINTS } from '../src/parent/live/cell-series.js';

/** One process's tick `tick` at `tMs`, with `values` (µs) recorded and `received` counted during it. */
function tick(
  registry: MetricsRegistry,
  number: number,
  tMs: number,
  values: number[],
  received: number,
): ProgressTick {
  for (const v of values) registry.histogram('rtt').recordUs(v);
  registry.counter('received').add(received);
  return { tick: number, tMs, counters: registry.counterValues(), intervals: registry.takeIntervals() };
}

/** What the engine's tick event carries: every process's latest counters summed, and this process's message. */
function feeder(series: LiveCellSeries) {
  const latest = new Map<number, Record<string, number>>();
  return (process: number, ticks: ProgressTick[]): void => {
    latest.set(process, ticks.at(-1)!.counters);
    series.add(sumCounterSets([...latest.values()]), { process, ticks });
  };
}

test('a point merges the interval of every process and carries the counters of one that missed it', () => {
  const a = new MetricsRegistry();
  const b = new MetricsRegistry();
  const series = new LiveCellSeries();
  const feed = feeder(series);
  feed(0, [tick(a, 1, 1000, [100, 200], 2)]);
  feed(1, [tick(b, 1, 1010, [300], 1)]);
  feed(0, [tick(a, 2, 2000, [1000], 1)]);
  const points = series.timeSeries()!.points;
  assert.deepEqual(
    points.map((p) => p.tMs),
    [1010, 2000],
  );
  assert.deepEqual(
    points.map((p) => p.counters.received),
    [3, 4],
  );
  assert.deepEqual(points[0]!.latency.rtt, { count: 3, p50Ms: 0.2, p99Ms: 0.3, maxMs: 0.3 });
  assert.deepEqual(points[1]!.latency.rtt, { count: 1, p50Ms: 1, p99Ms: 1, maxMs: 1 });
  assert.equal(series.window.get('rtt')!.totalCount, 4);
  assert.deepEqual(series.counters, { received: 4 });
});

test('a tick reported after its point was settled still counts in the window', () => {
  const a = new MetricsRegistry();
  const b = new MetricsRegistry();
  const series = new LiveCellSeries();
  const feed = feeder(series);
  for (let n = 1; n <= 5; n++) feed(0, [tick(a, n, n * 1000, [500], 1)]);
  feed(1, [tick(b, 1, 1000, [700, 700], 2)]);
  const points = series.timeSeries()!.points;
  assert.equal(points[0]!.latency.rtt!.count, 1, 'tick 1 had settled before process 1 reported it');
  assert.equal(series.window.get('rtt')!.totalCount, 7);
});

test(`past ${MAX_LIVE_POINTS} points, neighbours fold without losing a sample`, () => {
  const registry = new MetricsRegistry();
  const series = new LiveCellSeries();
  const feed = feeder(series);
  const ticks = MAX_LIVE_POINTS * 2 + 50;
  for (let n = 1; n <= ticks; n++) feed(0, [tick(registry, n, n * 100, [n], 1)]);
  series.finish();
  const points = series.timeSeries()!.points;
  assert.ok(points.length <= MAX_LIVE_POINTS, `${points.length} points`);
  assert.equal(
    points.reduce((sum, p) => sum + p.latency.rtt!.count, 0),
    ticks,
  );
  assert.equal(points.at(-1)!.counters.received, ticks);
  assert.equal(points.at(-1)!.tMs, ticks * 100);
});

test('no tick, no series', () => {
  assert.equal(new LiveCellSeries().timeSeries(), undefined);
});

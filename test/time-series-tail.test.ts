/**
 * A cell's time series covers its whole window: short windows are sampled every
 * 100 ms, and each client sends a last, shorter interval up to the window's end
 * before it reports, so the series ends at the window's end and its counters are
 * the cell's own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, isMeasured } from '../src/parent/index.js';
import { MetricsRegistry } from '../src/shared/measure/metrics.js';
import { TimeSeriesCollector, progressIntervalMs } from '../src/shared/measure/time-series.js';

test('the progress interval is sized to the window', () => {
  assert.equal(progressIntervalMs(2999), 100);
  assert.equal(progressIntervalMs(9999), 100);
  assert.equal(progressIntervalMs(10_000), 1000);
  assert.equal(progressIntervalMs(10 * 3_600_000), 1000);
  assert.equal(progressIntervalMs(undefined), 1000, 'an unknown length: the long interval');
});

test('a 2.5 s window: the series ends at 2500 ms within one interval, and its counters add up to the cell', async () => {
  const result = await run({
    scenario: 'echo',
    servers: ['ws'],
    clients: ['ws'],
    clientProcesses: 2,
    params: { duration: '2500ms' },
  });
  const [cell] = result.cells;
  assert.ok(
    cell && isMeasured(cell) && cell.status === 'ok',
    cell?.status === 'ok' ? '' : `cell ${cell?.status}: ${cell?.reason}`,
  );
  const series = cell.measurements.timeSeries!;
  assert.equal(series.intervalMs, 100);
  const last = series.points.at(-1)!;
  assert.ok(Math.abs(last.tMs - 2500) <= series.intervalMs, `last point at ${last.tMs} ms`);
  assert.ok(series.points.length >= 10, `${series.points.length} points`);
  assert.deepEqual(last.counters, cell.measurements.counters, 'the last point holds every count');
  const samples = series.points.reduce((n, p) => n + (p.latency.rtt?.count ?? 0), 0);
  assert.equal(samples, cell.measurements.latency.rtt!.count, 'every round trip is in one interval');
  const times = series.points.map((p) => p.tMs);
  assert.deepEqual(
    times,
    [...times].sort((a, b) => a - b),
    'points in time order',
  );
});

/** A process's progress message, with `values` recorded since its last one. */
function progress(registry: MetricsRegistry, tick: number, tMs: number, values: number[]) {
  for (const v of values) registry.histogram('rtt').recordUs(v);
  registry.counter('received').add(values.length);
  return {
    type: 'progress' as const,
    tick,
    tMs,
    counters: registry.counterValues(),
    intervals: registry.takeIntervals(),
  };
}

test('a last message just past a full interval joins the point before, so no point covers a sliver of time', () => {
  const a = new MetricsRegistry();
  const b = new MetricsRegistry();
  const collector = new TimeSeriesCollector(100);
  collector.add(0, progress(a, 1, 100, [10]));
  collector.add(1, progress(b, 1, 101, [20]));
  // a's window ended at 150: its last message is its tick 2, counted with b's tick 2.
  collector.add(0, progress(a, 2, 150, [30]));
  // b's timer fired at 200 before its window ended at 204: the 4 ms sliver joins 200.
  collector.add(1, progress(b, 2, 200, [40]));
  collector.add(1, progress(b, 3, 204, [50]));
  const series = collector.build()!;
  assert.deepEqual(
    series.points.map((p) => p.tMs),
    [101, 204],
  );
  assert.deepEqual(
    series.points.map((p) => p.counters.received),
    [2, 5],
  );
  assert.deepEqual(
    series.points.map((p) => p.latency.rtt!.count),
    [2, 3],
  );
});

/**
 * Folding a long window's series makes no histogram per merge. hdr-histogram-js
 * gives each histogram it builds or decodes a 94 KB counts array; a fold used to
 * make about four per pair of points, ~1,000 at once, and the orchestrator's RSS
 * stepped up at each fold of a long run and stayed there.
 */
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsRegistry, sumCounterSets } from '../src/shared/measure/metrics.js';
import type { ProgressTick } from '../src/shared/measure/time-series.js';
import { TimeSeriesCollector } from '../src/shared/measure/time-series.js';
import { LiveCellSeries, MAX_LIVE_POINTS } from '../src/parent/live/cell-series.js';

/** A histogram's counts array: 23 x 1024 entries for 1 µs .. 1 hour at 3 digits; nothing else here makes one this long. */
const COUNTS_ARRAY_LENGTH = 16_384;
const Original = globalThis.Uint32Array;
let made = 0;

/** Counts every histogram counts array hdr-histogram-js makes from now on (its 32-bit histograms hold Uint32Arrays). */
function countHistograms(): void {
  made = 0;
  globalThis.Uint32Array = class extends Original {
    constructor(...args: ConstructorParameters<Uint32ArrayConstructor>) {
      super(...(args as unknown as [number]));
      if (this.length >= COUNTS_ARRAY_LENGTH) made++;
    }
  } as Uint32ArrayConstructor;
}

afterEach(() => {
  globalThis.Uint32Array = Original;
});

/** `count` ticks of one process, 1 s apart, each with a few hundred samples of two histograms. */
function ticks(count: number): ProgressTick[] {
  const registry = new MetricsRegistry();
  return Array.from({ length: count }, (_, i) => {
    for (let s = 0; s < 300; s++) {
      registry.histogram('latency').recordUs(100 + ((s * 7919 + i) % 5000));
      registry.histogram('assembly').recordUs(10 + (s % 90));
    }
    registry.counter('received').add(300);
    return {
      tick: i + 1,
      tMs: (i + 1) * 1000,
      counters: registry.counterValues(),
      intervals: registry.takeIntervals(),
    };
  });
}

test('the result time series folds (past 900 points) without building a histogram', () => {
  const all = ticks(2000);
  const series = new TimeSeriesCollector(1000);
  countHistograms();
  for (const tick of all) series.add(0, tick);
  assert.equal(made, 0, 'histograms built or decoded while 2,000 ticks went in (one fold)');
  const built = series.build()!;
  assert.ok(built.points.length <= 900 && built.points.length >= 450);
  assert.equal(
    built.points.reduce((sum, p) => sum + p.latency.latency!.count, 0),
    2000 * 300,
  );
});

test(`the live series folds (past ${MAX_LIVE_POINTS} points) without a histogram per merged pair`, () => {
  const all = ticks(MAX_LIVE_POINTS * 2 + 100);
  const series = new LiveCellSeries();
  countHistograms();
  for (const tick of all) series.add(sumCounterSets([tick.counters]), { process: 0, ticks: [tick] });
  // Each tick's own intervals are decoded once (two histograms) and the window has one per name: no more.
  assert.equal(made, all.length * 2 + 2, 'histograms built or decoded while the ticks went in (two folds)');
  const points = series.timeSeries()!.points;
  assert.equal(
    points.reduce((sum, p) => sum + (p.latency.latency?.count ?? 0), 0),
    all.length * 300,
  );
});

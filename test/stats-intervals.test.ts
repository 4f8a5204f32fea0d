/**
 * A cell's confidence intervals against exact fixtures: the t quantile, rounds'
 * spread, batch means over the window (warm-up left out by MSER, positive
 * correlation between batches widening the error), the resolution floor of a
 * latency, and which method a cell gets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combineIndependent, familyLevel, tCritical } from '../src/parent/stats/confidence.js';
import { roundSpread } from '../src/parent/stats/round-spread.js';
import { batchMeansSpread, warmUpBatches, type Weighted } from '../src/parent/stats/batch-means.js';
import { cellIntervals } from '../src/parent/stats/cell-intervals.js';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import type { TimeSeries } from '../src/shared/types/result-types.js';
import { latencyMetric, rateMetric } from './fixtures/metric-declarations.js';

const close = (actual: number, expected: number, what: string, tolerance = 1e-9): void =>
  assert.ok(
    Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} is not ${expected}`,
  );
const even = (values: number[]): Weighted[] => values.map((value) => ({ value, weight: 1 }));

test('t quantiles and Welch-Satterthwaite are exact', () => {
  close(tCritical(4), 2.7764451051977987, 't(0.975, 4)');
  close(tCritical(2), 4.302652729749464, 't(0.975, 2)');
  const combined = combineIndependent([
    { standardError: 3, degreesOfFreedom: 4 },
    { standardError: 4, degreesOfFreedom: 9 },
  ]);
  close(combined.standardError, 5, 'combined error');
  close(combined.degreesOfFreedom, 625 / (81 / 4 + 256 / 9), 'Welch-Satterthwaite');
  close(familyLevel(10), 0.995, 'Bonferroni: 10 changes at 99.5 % hold together at 95 %');
  assert.equal(familyLevel(1), 0.95);
});

test('rounds: the standard error of a round, with rounds - 1 degrees of freedom; fewer than 3 rounds give none', () => {
  const spread = roundSpread([10, 12, 14])!;
  close(spread.standardError, 2 / Math.sqrt(3), 'se');
  assert.equal(spread.scale, 'linear');
  assert.equal(roundSpread([10, 0, 14], true)!.scale, 'linear', 'no logs of 0');
  assert.equal(spread.degreesOfFreedom, 2);
  assert.equal(roundSpread([10, 12]), null);
  assert.equal(roundSpread([10, null, 12]), null, 'a round without the value does not count');
});

test('batch means: ten batches, their standard deviation over sqrt(10); an alternating series is not correlated', () => {
  const spread = batchMeansSpread(even([10, 12, 10, 12, 10, 12, 10, 12, 10, 12]));
  assert.ok(typeof spread !== 'string');
  close(spread.standardError, Math.sqrt(10 / 9) / Math.sqrt(10), 'se');
  assert.equal(spread.degreesOfFreedom, 9);
});

test('batch means: 20 intervals make 10 batches of 2, each the weighted mean of its intervals', () => {
  // Each pair (weights 1 and 3) averages to 11 or 13 alternately.
  const points = Array.from({ length: 20 }, (_, i) => ({
    value: i % 4 < 2 ? (i % 2 === 0 ? 14 : 10) : i % 2 === 0 ? 16 : 12,
    weight: i % 2 === 0 ? 1 : 3,
  }));
  const spread = batchMeansSpread(points);
  assert.ok(typeof spread !== 'string');
  assert.equal(spread.samples, 10);
  close(spread.standardError, Math.sqrt(10 / 9) / Math.sqrt(10), 'se of batches 11, 13, 11, ...');
});

test('batch means: a warm-up is left out of the spread (MSER), not a steady alternation', () => {
  assert.equal(warmUpBatches([30, 20, 10, 12, 10, 12, 10, 12, 10, 12]), 2);
  assert.equal(warmUpBatches([10, 12, 10, 12, 10, 12, 10, 12, 10, 12]), 0);
  const spread = batchMeansSpread(even([30, 20, 10, 12, 10, 12, 10, 12, 10, 12]));
  assert.ok(typeof spread !== 'string');
  close(spread.standardError, Math.sqrt(8 / 7) / Math.sqrt(8), 'se of the 8 batches after the warm-up');
  assert.equal(spread.degreesOfFreedom, 7);
});

test('batch means: positive lag-1 correlation r widens the error by sqrt((1 + r) / (1 - r))', () => {
  const spread = batchMeansSpread(even([10, 10, 12, 12, 10, 10, 12, 12, 10, 10]));
  assert.ok(typeof spread !== 'string');
  // Mean 10.8, sum of squares 9.6; r of neighbours = 0.889 / 8.889 = 0.1.
  close(spread.standardError, (Math.sqrt(9.6 / 9) / Math.sqrt(10)) * Math.sqrt(1.1 / 0.9), 'widened se');
});

test('batch means: too few intervals, or batches short of samples, give the reason', () => {
  assert.match(
    String(batchMeansSpread(even([1, 2, 3]))),
    /the window has 3 intervals with samples; an interval needs 4/,
  );
  assert.match(
    String(batchMeansSpread(even([1, 2, 3, 4, 5, 6]), 2)),
    /too few samples for 4 batches of at least 2 each/,
  );
});

const METRICS: Record<string, MetricInfo> = {
  p50: latencyMetric('rtt', 'p50'),
  rate: rateMetric(),
  max: { header: 'max ms', unit: 'ms', better: 'lower', role: 'detail', source: { histogram: 'rtt', stat: 'max' } },
  custom: { header: 'x/s', unit: '/s', better: 'higher', role: 'primary-rate', source: { custom: 'by hand' } },
};

/** 20 points of 100 ms: p50 constant at 0.026 ms, 1,000 replies an interval, then 1,200 in every fourth. */
function series(): TimeSeries {
  let received = 0;
  return {
    intervalMs: 100,
    points: Array.from({ length: 20 }, (_, i) => {
      received += i % 4 === 3 ? 1200 : 1000;
      return {
        tMs: (i + 1) * 100,
        counters: { received },
        latency: { rtt: { count: 1000, p50Ms: 0.026, p99Ms: 0.1, maxMs: 1 } },
      };
    }),
  };
}

test('a cell measured once: window intervals around its values; a constant p50 still spans its resolution', () => {
  const { intervals, noInterval } = cellIntervals(METRICS, {
    metrics: { p50: 0.026, rate: 10_500, max: 1, custom: 5 },
    timeSeries: series(),
  });
  const p50 = intervals.p50!;
  assert.equal(p50.method, 'window');
  assert.equal(p50.degreesOfFreedom, 9);
  // 0.001 ms steps: a uniform rounding error has a standard deviation of 0.001 / sqrt(12).
  close(p50.standardError, 0.001 / Math.sqrt(12), 'resolution floor');
  close(p50.high, 0.026 * Math.exp((tCritical(9) * 0.001) / Math.sqrt(12) / 0.026), 'high, on the log scale');
  close(p50.low * p50.high, 0.026 ** 2, 'symmetric on the log scale');
  // Batches of two 100 ms intervals: rates 10,000 and 11,000 per second alternately, their spread read on logs.
  const rate = intervals.rate!;
  const half = (Math.log(11_000) - Math.log(10_000)) / 2;
  close(
    rate.standardError,
    10_500 * (Math.sqrt((10 * half ** 2) / 9) / Math.sqrt(10)),
    'rate se: value x the relative error',
  );
  close(rate.low * rate.high, 10_500 ** 2, 'symmetric on the log scale');
  assert.equal(intervals.max, undefined, 'a detail gets no interval');
  assert.match(noInterval.custom!, /not recorded interval by interval/);
});

test('a repeated cell: intervals from its rounds (the spread of their logs), around the pooled value', () => {
  const rounds = [10, 12, 14].map((p50) => ({ metrics: { p50, rate: 100 } }));
  const { intervals } = cellIntervals(METRICS, { metrics: { p50: 11.5, rate: 100 }, rounds, timeSeries: series() });
  assert.equal(intervals.p50!.method, 'rounds');
  const logs = [10, 12, 14].map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / 3;
  const relative = Math.sqrt(logs.reduce((sum, l) => sum + (l - mean) ** 2, 0) / 2) / Math.sqrt(3);
  close(intervals.p50!.low, 11.5 / Math.exp(tCritical(2) * relative), 'low');
  close(intervals.p50!.high, 11.5 * Math.exp(tCritical(2) * relative), 'high');
  assert.equal(intervals.p50!.level, 0.95);
  assert.deepEqual([intervals.rate!.low, intervals.rate!.high], [100, 100], 'identical rounds: no spread');
});

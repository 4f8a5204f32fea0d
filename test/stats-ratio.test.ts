/**
 * The ratio of two cells' values with its interval, against exact fixtures:
 * paired rounds cancel a drift that hits both cells of a round, the same rounds
 * unpaired do not; the delta method from the values' own intervals; the mean
 * over clients; and rounds that disagree beyond their own spread are named.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isTie, logRatio, meanLogRatio, ratioInterval } from '../src/parent/stats/ratio.js';
import { tCritical } from '../src/parent/stats/confidence.js';
import { unstableRounds } from '../src/parent/stats/unstable.js';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import type { RoundResult, ValueInterval } from '../src/shared/types/result-types.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

const close = (actual: number, expected: number, what: string): void =>
  assert.ok(
    Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)),
    `${what}: ${actual} is not ${expected}`,
  );

/** Each round twice as slow as the one before, for both cells: a machine slowing down. */
const a = { value: 20, rounds: [10, 20, 40] };
const b = { value: 10, rounds: [5, 10, 20] };

test('paired rounds: the drift cancels, the ratio is exactly 2', () => {
  const ratio = ratioInterval(logRatio(a, b, true)!);
  assert.equal(ratio.method, 'paired rounds');
  close(ratio.ratio, 2, 'ratio');
  close(ratio.low, 2, 'low');
  close(ratio.high, 2, 'high');
  assert.equal(isTie(ratio), false);
});

test('the same rounds unpaired (two files): Welch on the log values, a tie', () => {
  const log = logRatio(a, b, false)!;
  close(log.standardError, Math.LN2 * Math.sqrt(2 / 3), 'se');
  close(log.degreesOfFreedom, 4, 'df');
  const ratio = ratioInterval(log);
  close(ratio.ratio, 2, 'ratio');
  close(ratio.low, 2 * Math.exp(-tCritical(4) * Math.LN2 * Math.sqrt(2 / 3)), 'low');
  assert.equal(isTie(ratio), true);
});

const interval = (standardError: number): ValueInterval => ({
  low: 0,
  high: 0,
  level: 0.95,
  method: 'window',
  standardError,
  degreesOfFreedom: 9,
  samples: 10,
});

test('values measured once: their intervals combine on the log scale (se / value)', () => {
  const log = logRatio({ value: 100, interval: interval(5) }, { value: 50, interval: interval(2.5) }, true)!;
  close(log.log, Math.LN2, 'log ratio');
  close(log.standardError, Math.sqrt(0.05 ** 2 * 2), 'se');
  close(log.degreesOfFreedom, 18, 'Welch-Satterthwaite');
  assert.equal(logRatio({ value: 100 }, { value: 50, interval: interval(1) }, true), null, 'no interval, no ratio');
  assert.equal(
    logRatio({ value: 0, interval: interval(1) }, { value: 50, interval: interval(1) }, true),
    null,
    'no ratio of 0',
  );
});

test('the mean over clients: mean log ratio, its error from each pair', () => {
  const parts = [
    {
      log: Math.log(1.2),
      standardError: 0.03,
      degreesOfFreedom: 4,
      method: 'paired rounds' as const,
      basis: 'rounds' as const,
    },
    {
      log: Math.log(1.1),
      standardError: 0.04,
      degreesOfFreedom: 4,
      method: 'paired rounds' as const,
      basis: 'rounds' as const,
    },
  ];
  const mean = meanLogRatio(parts)!;
  close(mean.log, (Math.log(1.2) + Math.log(1.1)) / 2, 'mean');
  close(mean.standardError, 0.05 / 2, 'se');
  close(mean.degreesOfFreedom, 0.05 ** 4 / (0.03 ** 4 / 4 + 0.04 ** 4 / 4), 'df');
  assert.equal(mean.method, 'paired rounds');
});

const METRICS: Record<string, MetricInfo> = {
  p50: latencyMetric('rtt', 'p50'),
};
const round = (p50: number, own?: [number, number]): RoundResult => ({
  status: 'ok',
  metrics: { p50 },
  elapsedMs: 1000,
  ...(own ? { intervals: { p50: { ...interval(0.001), low: own[0], high: own[1] } } } : {}),
});

test('rounds 2.9x apart beyond their own intervals are unstable; rounds whose intervals overlap are not', () => {
  const why = unstableRounds(METRICS, [
    round(0.027, [0.026, 0.028]),
    round(0.079, [0.075, 0.083]),
    round(0.03, [0.029, 0.031]),
  ]);
  assert.match(
    why ?? '',
    /^unstable: rounds differ 2\.9x: p50 ms 0\.027 \(round 1\) to 0\.079 \(round 2\), far beyond each round's own interval/,
  );
  assert.equal(unstableRounds(METRICS, [round(0.027, [0.01, 0.06]), round(0.05, [0.02, 0.08])]), null);
  assert.equal(
    unstableRounds(METRICS, [round(0.027), round(0.035)]),
    null,
    "1.3x is within the machine's ordinary spread",
  );
  assert.match(
    unstableRounds(METRICS, [round(0.027), round(0.06)]) ?? '',
    /rounds differ 2\.2x/,
    'an older file without round intervals: the ratio alone',
  );
});

/**
 * --repeat: a cell's rounds pool into one cell (histograms merged, counters and
 * windows added) and its metrics are computed once from the pool, while each
 * round keeps its own metrics in `rounds[]`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/parent/index.js';
import { cellResult } from '../src/parent/engine/cell-result.js';
import type { CellRun } from '../src/parent/engine/cell.js';
import { histogramStat } from '../src/parent/measure/metric-values.js';
import { mergeEncoded } from '../src/shared/measure/metrics.js';
import type { RunEvent } from '../src/parent/engine/events.js';
import { isMeasured } from '../src/shared/types/result-types.js';
import { latencyMetrics, rate, total } from '../src/shared/scenario-kit/index.js';
import { declarationsOnly, measuredRun } from './fixtures/cell-runs.js';
import { exponentialHistogram } from './fixtures/synthetic-results.js';

const scenario = declarationsOnly(
  'pooled',
  {
    ...latencyMetrics('rtt', { stats: ['p50', 'p99', 'max', 'count'], primary: ['p50', 'p99'] }),
    messagesPerSec: rate('received', 'msg/s', { unit: 'msg/s', role: 'primary-rate' }),
    received: total('received', 'received'),
  },
  ['rttP50Ms', 'rttP99Ms', 'messagesPerSec'],
);

const identity = { scenario: 'pooled', server: 'ws', client: 'ws', params: {} };

test('a repeated cell computes its metrics once, from the pooled rounds; rounds[] keeps each round as measured', () => {
  // Three rounds of different speed: a median of rounds would give another p99 than the merged histogram.
  const histograms = [
    exponentialHistogram(1000, 50, 1),
    exponentialHistogram(1000, 400, 2),
    exponentialHistogram(1000, 120, 3, 30),
  ];
  const runs = [
    measuredRun(histograms[0]!, { received: 1000 }, 1000),
    measuredRun(histograms[1]!, { received: 1000 }, 1200),
    measuredRun(histograms[2]!, { received: 1000 }, 800),
  ];
  const cell = cellResult(identity, scenario, 1, runs);
  assert.equal(cell.status, 'ok');
  assert.ok(isMeasured(cell));

  const merged = mergeEncoded(histograms);
  for (const [key, stat] of [
    ['rttP50Ms', 'p50'],
    ['rttP99Ms', 'p99'],
    ['rttMaxMs', 'max'],
    ['rttSamples', 'count'],
  ] as const) {
    assert.equal(cell.metrics[key], histogramStat(merged, stat), `${key} is the ${stat} of the merged histogram`);
  }
  assert.equal(cell.metrics.rttSamples, 3000);
  assert.equal(cell.metrics.received, 3000, 'counters add up');
  assert.equal(cell.metrics.messagesPerSec, 1000, '3000 messages over 3000 ms of windows');
  assert.equal(cell.measurements.windowMs, 3000);
  assert.equal(cell.measurements.latency.rtt!.count, 3000);
  assert.equal(cell.stackDrops, 3);

  const medianP99 = [...histograms.map((h) => histogramStat(h, 'p99')!)].sort((a, b) => a - b)[1];
  assert.notEqual(cell.metrics.rttP99Ms, medianP99, 'pooled, not the median of the rounds');
  assert.equal(cell.rounds!.length, 3);
  assert.deepEqual(
    cell.rounds!.map((r) => r.metrics!.rttP99Ms),
    histograms.map((h) => histogramStat(h, 'p99')),
  );
  assert.deepEqual(
    cell.rounds!.map((r) => r.metrics!.messagesPerSec),
    [1e6 / 1000, 1e6 / 1200, 1e6 / 800],
  );
  assert.deepEqual(
    cell.rounds!.map((r) => r.status),
    ['ok', 'ok', 'ok'],
  );
});

test('a failing round fails the cell with its name; what the others measured stays; one round has no rounds[]', () => {
  const h = exponentialHistogram(1000, 50, 4);
  const runs = [
    measuredRun(h, { received: 500 }, 1000),
    { failure: 'client: boom', errors: null, fault: null, measured: null, elapsedMs: 300 },
    measuredRun(h, { received: 700 }, 1000),
  ];
  const cell = cellResult(identity, scenario, 1, runs);
  assert.equal(cell.status, 'failed');
  assert.equal(cell.status === 'failed' && cell.reason, 'round 2: client: boom');
  assert.ok(isMeasured(cell));
  assert.equal(cell.metrics.received, 1200);
  assert.deepEqual(
    cell.rounds!.map((r) => [r.status, r.reason ?? null]),
    [
      ['ok', null],
      ['failed', 'client: boom'],
      ['ok', null],
    ],
  );

  const single = cellResult(identity, scenario, 1, [measuredRun(h, { received: 500 }, 1000)]);
  assert.ok(isMeasured(single));
  assert.equal(single.rounds, undefined);
  assert.equal(single.metrics.rttP99Ms, histogramStat(h, 'p99'));
});

test('--repeat runs every cell in interleaved rounds and pools them', async () => {
  const events: RunEvent[] = [];
  const result = await run({
    scenario: 'echo',
    servers: ['uws', 'ws'],
    clients: ['ws'],
    params: { duration: 300 },
    repeat: 2,
    onEvent: (event) => events.push(event),
  });
  const starts = events.filter((e) => e.type === 'cell-start');
  assert.deepEqual(
    starts.map((e) => e.type === 'cell-start' && `${e.server}:${e.round}`),
    ['uws:0', 'ws:0', 'uws:1', 'ws:1'],
    'round-robin, not back to back',
  );
  assert.equal(result.repeat, 2);
  for (const c of result.cells) {
    assert.equal(c.status, 'ok');
    assert.ok(isMeasured(c));
    assert.equal(c.rounds!.length, 2);
    const received = c.rounds!.map((r) => r.metrics!.received!);
    // Each round's replies in its drain are timed too (counted apart from the rate's).
    const drained = c.measurements.counters.repliesAfterWindow ?? 0;
    assert.equal(
      c.measurements.latency.rtt!.count,
      received[0]! + received[1]! + drained,
      'histograms pool both rounds',
    );
    assert.equal(c.metrics.received, received[0]! + received[1]!, 'counters add up');
  }
});

test('a metric declared acrossRounds takes the max (or min, mean, sum) of the rounds, never the sum of their counters', () => {
  const extremes = declarationsOnly(
    'extremes',
    {
      largest: {
        header: 'max B',
        unit: 'bytes',
        better: 'none',
        role: 'detail',
        source: { counter: 'largest' },
        acrossRounds: 'max',
      },
      smallest: {
        header: 'min B',
        unit: 'bytes',
        better: 'none',
        role: 'detail',
        source: { counter: 'smallest' },
        acrossRounds: 'min',
      },
      received: total('received', 'received'),
    },
    ['largest', 'smallest'],
  );
  const rtt = exponentialHistogram(100, 50, 1);
  const round = (largest: number, smallest: number): CellRun => {
    const run = measuredRun(rtt, { received: 10 }, 1000);
    run.measured!.measurements.counters = { largest, smallest, received: 10 };
    return run;
  };
  const cell = cellResult({ ...identity, scenario: 'extremes' }, extremes, 1, [round(5000, 30), round(9000, 40)]);
  assert.ok(isMeasured(cell));
  assert.equal(cell.metrics.largest, 9000);
  assert.equal(cell.metrics.smallest, 30);
  assert.equal(cell.metrics.received, 20, 'counters without acrossRounds pool');
});

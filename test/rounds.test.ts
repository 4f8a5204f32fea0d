import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/index.js';
import { medianMetrics, poolRounds } from '../src/core/rounds.js';
import { cell, exponentialHistogram } from './fixtures/synthetic-results.js';

test('per-key medians ignore missing values and take the lower middle of an even count', () => {
  assert.deepEqual(medianMetrics([{ a: 3, b: null }, { a: 1, b: 7 }, { a: 2 }]), { a: 2, b: 7 });
  assert.deepEqual(medianMetrics([{ a: 4 }, { a: 1 }]), { a: 1 });
});

test('rounds pool into one cell: median metrics, every sample in the histograms, the first failure named', () => {
  const rounds = [100, 300, 200].map((rate, i) =>
    cell('echo', { server: 'ws', client: 'ws', histograms: { rtt: exponentialHistogram(1000, 50, i) }, metrics: { messagesPerSec: rate }, counters: { received: 1000 } }),
  );
  const pooled = poolRounds(rounds);
  assert.equal(pooled.status, 'ok');
  assert.equal(pooled.metrics!.messagesPerSec, 200);
  assert.equal(pooled.measurements!.latency.rtt!.count, 3000);
  assert.equal(pooled.measurements!.counters.received, 3000);
  assert.deepEqual(pooled.rounds!.map((r) => r.metrics!.messagesPerSec), [100, 300, 200]);

  rounds[1] = { ...rounds[1]!, status: 'failed', reason: 'client: boom' };
  const failed = poolRounds(rounds);
  assert.equal(failed.status, 'failed');
  assert.equal(failed.reason, 'round 2: client: boom');
  assert.equal(poolRounds([rounds[0]!]), rounds[0], 'one round is the cell itself');
});

test('--repeat runs every cell in interleaved rounds and reports medians', async () => {
  const order: string[] = [];
  const result = await run({
    scenario: 'echo',
    servers: ['uws', 'ws'],
    clients: ['ws'],
    params: { duration: '300ms' },
    repeat: 2,
    onCellStart: (c) => order.push(c.server),
  });
  assert.deepEqual(order, ['uws', 'ws', 'uws', 'ws'], 'round-robin, not back to back');
  assert.equal(result.repeat, 2);
  for (const c of result.cells) {
    assert.equal(c.status, 'ok');
    assert.equal(c.rounds!.length, 2);
    const received = c.rounds!.map((r) => r.metrics!.received!);
    assert.equal(c.measurements!.latency.rtt!.count, received[0]! + received[1]!, 'histograms pool both rounds');
    assert.equal(c.metrics!.received, Math.min(...received), 'median of two is the lower one');
  }
});

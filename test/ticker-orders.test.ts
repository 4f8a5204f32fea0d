import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/parent/index.js';
import { testRefusedRunInput } from './refused-run-input.js';

test('ticker-orders: every counted tick gets one order, every order is acked or counted as unanswered', async () => {
  const result = await run({
    scenario: 'ticker-orders',
    servers: ['uws'],
    clients: ['ws'],
    preset: 'ci',
    params: { connections: 2, symbols: 3 },
  });
  assert.equal(result.cells.length, 1);
  const [cell] = result.cells;
  assert.ok(cell, 'one cell');
  if (cell.status !== 'ok') assert.fail(`${cell.status}: ${cell.reason}`);
  const m = cell.metrics;
  /** A metric that must have a value. */
  const v = (key: keyof typeof m): number => {
    const value = m[key];
    assert.ok(typeof value === 'number', `${key} has no value`);
    return value;
  };
  assert.ok(v('ticksReceived') > 0, 'ticks arrived');
  assert.equal(m.ordersSent, m.ticksReceived, 'one order per tick received in the window');
  assert.equal(v('ordersAcked') + v('ordersUnanswered'), m.ordersSent);
  assert.ok(v('ordersReceivedByServer') >= v('ordersAcked'), 'the server saw every acked order');
  assert.equal(m.orderRttSamples, m.ordersAcked, 'one round-trip sample per ack');
  assert.equal(m.tickDelaySamples, m.ticksReceived, 'one tick-delay sample per tick');
  // Each connection sees a subset of what the server broadcast.
  assert.ok(v('ticksReceived') + v('ticksMissed') <= 2 * v('ticksBroadcast'));
  for (const prefix of ['orderRtt', 'tickToAck', 'tickDelay'] as const) {
    const [min, p50, p99, max] = (['MinMs', 'P50Ms', 'P99Ms', 'MaxMs'] as const).map((k) => v(`${prefix}${k}`)) as [
      number,
      number,
      number,
      number,
    ];
    assert.ok(min >= 0 && min <= p50 && p50 <= p99 && p99 <= max, `${prefix} percentiles are ordered`);
  }
  // An order leaves after its tick's intended time, so tick-to-ack contains the round trip.
  assert.ok(v('tickToAckMeanMs') >= v('orderRttMeanMs'), 'tick-to-ack includes the order round trip');
  assert.equal(m.errors, 0);
  assert.equal(m.connectionsLost, 0);
});

testRefusedRunInput(
  [
    [
      'ticker-orders: a tick interval below 1 ms',
      ['--tick-interval', '0ms'],
      'wsbench: --tick-interval: "0ms" is below the minimum 1ms',
    ],
    [
      'ticker-orders: an unknown preset',
      ['--preset', 'huge'],
      'wsbench: --preset: "huge" is not a preset of ticker-orders (seed, ci)',
    ],
  ],
  'ticker-orders',
);

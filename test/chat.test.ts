import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, type CellResult } from '../src/parent/index.js';
import { testRefusedRunInput } from './refused-run-input.js';

/** HDR buckets hold 3 significant digits: a reported value may sit up to 0.1% below the true one. */
const HDR_PRECISION = 0.999;

/** A metric that must have a value. */
function metricValue(metrics: Readonly<Record<string, number | null>>, key: string): number {
  const value = metrics[key];
  assert.ok(typeof value === 'number', `${key} has no value`);
  return value;
}

/** The metrics of a cell that must be ok. */
function okMetrics(cell: CellResult): Readonly<Record<string, number | null>> {
  if (cell.status !== 'ok') assert.fail(`${JSON.stringify(cell.params)}: ${cell.status}: ${cell.reason}`);
  return cell.metrics;
}

function checkAccounting(cell: CellResult): void {
  const m = okMetrics(cell);
  const v = (key: string): number => metricValue(m, key);
  const label = JSON.stringify(cell.params);
  assert.ok(v('sent') > 0, `${label}: messages were sent`);
  assert.equal(m.expected, v('sent') * (Number(cell.params.members) - 1), `${label}: expected = sent x (members - 1)`);
  assert.ok(v('received') <= v('expected'), `${label}: received <= expected`);
  assert.equal(m.duplicates, 0, `${label}: TCP and one server never duplicate`);
  assert.equal(m.unaccounted, 0, `${label}: every receiver accounted for every sender's tail`);
  assert.equal(
    m.dropped,
    v('expected') - v('received') - v('duplicates'),
    `${label}: dropped = expected - received - duplicates`,
  );
  assert.equal(m.dropped, m.droppedByServer, `${label}: receivers' gap count matches the server's drop counter`);
  assert.equal(m.latencySamples, m.received, `${label}: one latency sample per received message`);
  assert.equal(m.errors, 0);
}

test('chat ci preset: the 2 x 2 treatment grid accounts for every message, and the moderator sets the latency floor', async () => {
  const result = await run({
    scenario: 'chat',
    servers: ['uws'],
    clients: ['ws'],
    preset: 'ci',
    params: { duration: '600ms' },
  });
  assert.equal(result.cells.length, 4, 'moderator delay {0, 10ms} x queue {unlimited, bounded}');
  for (const cell of result.cells) {
    checkAccounting(cell);
    const v = (key: string): number => metricValue(okMetrics(cell), key);
    const delayMs = Number(cell.params.moderatorDelay);
    assert.ok(
      v('latencyMinMs') >= delayMs * HDR_PRECISION,
      `moderator ${delayMs}ms: latency floor ${v('latencyMinMs')}ms`,
    );
    assert.ok(
      v('serverHoldMinMs') >= delayMs * HDR_PRECISION,
      `moderator ${delayMs}ms: server hold floor ${v('serverHoldMinMs')}ms`,
    );
    assert.ok(
      v('latencyMinMs') <= v('latencyP50Ms') &&
        v('latencyP50Ms') <= v('latencyP99Ms') &&
        v('latencyP99Ms') <= v('latencyMaxMs'),
    );
  }
  assert.deepEqual(result.cells.map((c) => `${c.params.moderatorDelay}/${c.params.queue}`).sort(), [
    '0/bounded',
    '0/unlimited',
    '10/bounded',
    '10/unlimited',
  ]);
});

test('chat: a bounded queue that drops is counted the same by receivers (gaps) and by the server', async () => {
  const result = await run({
    scenario: 'chat',
    servers: ['ws'],
    clients: ['ws'],
    params: { queue: 'bounded', queuePolicy: 'drop', queueLimit: 1, rate: 3000, payload: '16kb', duration: '500ms' },
  });
  const [cell] = result.cells;
  assert.ok(cell, 'one cell');
  checkAccounting(cell);
});

testRefusedRunInput(
  [
    ['chat: zero members', ['--members', '0'], 'wsbench: --members: 0 is below the minimum 2'],
    ['chat: a negative rate', ['--rate', '-5'], 'wsbench: --rate: -5 is below the minimum 0.1'],
    [
      'chat: an overloaded serial moderator, before anything starts',
      ['--moderator-mode', 'serial', '--moderator-delay', '50ms', '--rate', '30'],
      'wsbench: --rate: a serial moderator taking 50ms per message handles under 20 msg/s, not 30 (lower rate or moderatorDelay, or set moderatorMode to concurrent)',
    ],
  ],
  'chat',
);

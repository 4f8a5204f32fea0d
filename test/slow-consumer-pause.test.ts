/**
 * slow-consumer's slow clients really stop reading: one client of five pauses
 * its socket for a known second while the stream goes on. None of its messages
 * can arrive during the pause, so its worst delay is at least the pause (less
 * the start's own delay); the healthy clients still get every message, none
 * skipped, and the slow one gets them all once it reads again (ws queues
 * without limit). For each client stack that can pause its socket.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMeasured, run } from '../src/parent/index.js';

const PAUSE_MS = 1000;
const TICKS = 150;

for (const [server, client] of [
  ['ws', 'ws'],
  ['ws', 'undici'],
  ['socketio', 'socketio'],
] as const) {
  test(`slow-consumer: a ${client} client that stops reading for ${PAUSE_MS} ms is late by that much; the healthy ones miss nothing`, async () => {
    const result = await run({
      scenario: 'slow-consumer',
      servers: [server],
      clients: [client],
      params: {
        connections: 5,
        slowShare: 0.2,
        interval: '10ms',
        duration: `${TICKS * 10}ms`,
        stopFor: `${PAUSE_MS}ms`,
        messageSize: 256,
      },
    });
    const [cell] = result.cells;
    assert.ok(
      cell && isMeasured(cell) && cell.status === 'ok',
      `${cell?.status} ${cell && 'reason' in cell ? cell.reason : ''}`,
    );
    const c = cell.measurements.counters;
    const counts = JSON.stringify(c);
    assert.equal(c.slowConnected, 1, counts);
    assert.equal(c.healthyReceived, 4 * TICKS, counts);
    assert.equal(c.healthyMissing, 0, counts);
    assert.equal(c.healthySkipped ?? 0, 0, counts);
    assert.equal(c.slowReceived, TICKS, counts);
    assert.equal(c.slowSkipped ?? 0, 0, counts);
    // The pause starts when the window opens, the stream a moment later: its first message waited out nearly all of it.
    assert.ok(cell.metrics.slowDelayMaxMs! >= PAUSE_MS - 100, `slow max ${cell.metrics.slowDelayMaxMs} ms`);
  });
}

test('slow-consumer: clients that cannot stop reading their socket are skipped with the reason', async () => {
  const result = await run({
    scenario: 'slow-consumer',
    servers: ['ws'],
    clients: ['bun', 'deno'],
    params: { connections: 2, duration: '100ms' },
  });
  for (const cell of result.cells) {
    assert.equal(cell.status, 'skipped');
    assert.equal(
      'reason' in cell && cell.reason,
      "slow-consumer needs a client that can stop reading its socket (so the bytes stay in the kernel's buffers)",
    );
  }
});

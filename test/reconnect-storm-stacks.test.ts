/**
 * Every built-in server stack is killed and comes back on the same port
 * (uWS too: it binds a port it is given with SO_REUSEADDR, but not one it
 * picked itself, so wsbench gives it one), and the clients' notes keep the
 * first refused attempt's message however many drops said the same thing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMeasured, run } from '../src/parent/index.js';

const CONNECTIONS = 25;

test('ws, uws, bun and deno servers restart and every ws client is back; refused attempts are noted', async () => {
  const result = await run({
    scenario: 'reconnect-storm',
    servers: ['ws', 'uws', 'bun', 'deno'],
    clients: ['ws'],
    params: { connections: CONNECTIONS, policy: 'immediate', restartAt: '200ms', downtime: '200ms', duration: '30s' },
  });
  for (const cell of result.cells) {
    if (cell.status === 'skipped') {
      assert.match(cell.reason, /unavailable/, `${cell.server} may only be skipped when its runtime is missing`);
      continue;
    }
    assert.ok(
      cell.status === 'ok' && isMeasured(cell),
      `${cell.server}: ${cell.status}: ${'reason' in cell ? cell.reason : ''}`,
    );
    assert.equal(cell.metrics.lost, CONNECTIONS, cell.server);
    assert.equal(cell.metrics.back, CONNECTIONS, cell.server);
    assert.equal(cell.metrics.neverBack, 0, cell.server);
    assert.ok(
      cell.notes.some((n) => n.startsWith('reconnect attempt failed (refused): ')),
      `${cell.server} notes: ${cell.notes.join(' | ')}`,
    );
  }
  assert.ok(
    result.cells.some((c) => c.server === 'uws' && c.status === 'ok'),
    'uws ran',
  );
});

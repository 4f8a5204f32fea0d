/**
 * The browser clients run only when named: each starts a real browser per
 * client process, which a bare run (every client stack) should not pay for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRun } from '../src/parent/index.js';

test('a run without --clients leaves the browser clients out; naming them puts them in', async () => {
  const bare = await planRun({ scenario: 'echo', servers: ['ws'] });
  const clients = [...new Set(bare.cells.map((cell) => cell.client))];
  assert.deepEqual(clients, ['ws', 'undici', 'socketio', 'bun', 'deno']);
  const named = await planRun({ scenario: 'echo', servers: ['ws'], clients: ['browser', 'ws'] });
  assert.deepEqual(
    named.cells.map((cell) => cell.client),
    ['browser', 'ws'],
  );
});

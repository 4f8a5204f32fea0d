/**
 * onUnexpectedClose is optional in ctx.connect(): a connection the server
 * closes is counted in `connectionsLost` (and its reason noted) whether or not
 * the scenario handles it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/parent/index.js';
import closing from './fixtures/closing-server.js';
import { isMeasured } from '../src/parent/index.js';

test('closes the client did not ask for are counted without a handler', { timeout: 60_000 }, async () => {
  const result = await run({ scenario: closing, servers: ['ws'], clients: ['ws'], params: { connections: 3 } });
  const [cell] = result.cells;
  // Every connection lost is a fault (the cell fails, saying so), and the count is still kept.
  if (cell?.status !== 'failed' || !isMeasured(cell))
    return assert.fail(`${cell?.status}: ${cell && 'reason' in cell ? cell.reason : ''}`);
  assert.match(cell.reason, /^every connection was lost \(3 of 3\)/);
  assert.equal(cell.metrics.connectionsLost, 3);
  assert.ok(
    cell.notes.some((note) => /closed by peer/.test(note)),
    cell.notes.join('; '),
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { run } from '../src/index.js';

const CRASHING = fileURLToPath(new URL('./fixtures/crashing-server.js', import.meta.url));

test('a server that crashes mid-window fails its cell with the reason and the run goes on', async () => {
  const result = await run({ scenario: CRASHING, servers: ['ws', 'uws'], clients: ['ws'], params: { duration: '1s' } });
  assert.equal(result.cells.length, 2);
  for (const cell of result.cells) {
    assert.equal(cell.status, 'failed');
    assert.match(cell.reason!, /^server exited with code 3 before report/);
    assert.ok((cell.metrics!.received ?? 0) > 0, 'what was measured before the crash is kept');
  }
});

test('a server that cannot start fails its cell with the reason', async () => {
  const result = await run({ scenario: CRASHING, servers: ['ws'], clients: ['ws'], params: { crashAt: 'start' } });
  assert.equal(result.cells[0]!.status, 'failed');
  assert.equal(result.cells[0]!.reason, 'server: deliberate crash at start');
});

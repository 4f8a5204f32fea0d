import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { isMeasured, run } from '../src/parent/index.js';

const CRASHING = fileURLToPath(new URL('./fixtures/crashing-server.js', import.meta.url));

test('a server that crashes mid-window fails its cell with the reason and the run goes on', async () => {
  const result = await run({ scenario: CRASHING, servers: ['ws', 'uws'], clients: ['ws'], params: { duration: '1s' } });
  assert.equal(result.cells.length, 2);
  for (const cell of result.cells) {
    assert.ok(cell.status === 'failed' && isMeasured(cell), 'failed, with what it measured');
    assert.match(cell.reason, /^server exited with code 3 before report/);
    assert.ok((cell.metrics.received ?? 0) > 0, 'what was measured before the crash is kept');
    assert.equal(cell.stackDrops, null, 'a server that never reported has no drop count');
  }
});

test('a server that cannot start fails its cell with the reason', async () => {
  const result = await run({ scenario: CRASHING, servers: ['ws'], clients: ['ws'], params: { crashAt: 'start' } });
  const [cell] = result.cells;
  assert.equal(cell?.status, 'failed');
  assert.equal(cell.reason, 'server: deliberate crash at start');
});

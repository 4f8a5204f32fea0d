/**
 * A --server-cmd server that does not come back after wsbench killed it fails
 * its cell with the reason (the kill itself is no fault), the clients still
 * down are counted, the window closes at once rather than at its end, and no
 * process of the command is left behind. One that comes back only after the
 * window closed fails it too, saying so, rather than leaving an empty
 * time-to-back histogram to explain itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMeasured, run } from '../src/parent/index.js';
import { tempDir } from './support.js';
import { newTag, taggedProcesses } from './foreign-processes.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/restart-once-server.js', import.meta.url));

test('a command that will not start again fails the cell with its reason; its clients are never back', async () => {
  const tag = newTag();
  const marker = join(tempDir(), 'started-once');
  const command = `${process.execPath} ${FIXTURE} --port {port} --marker ${marker} --tag ${tag}`;
  const result = await run({
    scenario: 'reconnect-storm',
    serverCommands: [{ name: 'once', command }],
    clients: ['ws'],
    params: { connections: 4, policy: 'fixed', delay: '50ms', restartAt: '200ms', downtime: '100ms', duration: '10m' },
  });
  const [cell] = result.cells;
  assert.equal(cell?.status, 'failed');
  assert.equal(
    'reason' in cell! ? cell.reason : '',
    'the server did not come back after its restart: once exited with code 1 before listening: refusing to start a second time',
  );
  assert.ok(isMeasured(cell!), 'what was measured is kept');
  assert.equal(cell.metrics.connected, 4);
  assert.equal(cell.metrics.lost, 4);
  assert.equal(cell.metrics.back, 0);
  assert.equal(cell.metrics.neverBack, 4, 'the clients still down are counted, not dropped');
  assert.equal(cell.metrics.lostUnplanned, 0, 'the kill dropped them, though the server never came back');
  // A ten-minute window closed as soon as the restart failed (the test would time out otherwise).
  assert.ok(cell.measurements.windowMs < 60_000, `window ${cell.measurements.windowMs} ms`);
  assert.deepEqual(taggedProcesses(tag), [], 'no process of the command is left');
});

test('a command that serves again only after the window closed fails the cell, saying when each happened', async () => {
  const tag = newTag();
  const marker = join(tempDir(), 'started-once');
  // Its second start listens 4 s late; the window closes 1.3 s after the kill.
  const command = `${process.execPath} ${FIXTURE} --port {port} --marker ${marker} --tag ${tag} --again-after-ms 4000`;
  const result = await run({
    scenario: 'reconnect-storm',
    serverCommands: [{ name: 'late', command }],
    clients: ['ws'],
    params: {
      connections: 2,
      policy: 'fixed',
      delay: '50ms',
      restartAt: '200ms',
      downtime: '100ms',
      duration: '1500ms',
    },
  });
  const [cell] = result.cells;
  assert.equal(cell?.status, 'failed');
  const reason = 'reason' in cell! ? cell.reason : '';
  const said =
    /^the window closed (\d+) ms after the server was killed, before the restarted server served \((\d+) ms after the kill\)/.exec(
      reason,
    );
  assert.ok(said, reason);
  assert.ok(Number(said[1]) < Number(said[2]), reason);
  assert.ok(Number(said[2]) >= 4000, reason);
  assert.ok(isMeasured(cell!), 'what was measured is kept');
  assert.equal(cell.metrics.neverBack, 2, 'the clients still down are counted');
  assert.equal(cell.metrics.lostUnplanned, 0, 'the kill dropped them, though the server served only after the window');
  assert.deepEqual(taggedProcesses(tag), [], 'no process of the command is left');
});

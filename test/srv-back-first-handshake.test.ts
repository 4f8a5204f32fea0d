/**
 * reconnect-storm's `srv back ms` is one fact for every kind of server: the
 * time from the kill until wsbench first saw the new server serving. For a
 * --server-cmd server that is its first answered handshake (wsbench's probe),
 * not the end of the probe's 250 ms hold: the server itself logs when it
 * answered and when the probe's connection closed (one host, one clock), and
 * the engine's time falls after the downtime and before that close.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMeasured, run } from '../src/parent/index.js';
import { tempDir } from './support.js';
import { fixtureCommand, newTag } from './foreign-processes.js';

const RESTART_TIMES = fileURLToPath(new URL('./fixtures/restart-times-scenario.js', import.meta.url));
const DOWNTIME_MS = 200;

test("srv back ms of a --server-cmd server is its first answered handshake, the probe's hold not counted", {
  timeout: 120_000,
}, async () => {
  const events = join(tempDir(), 'events.txt');
  const result = await run({
    scenario: RESTART_TIMES,
    serverCommands: [{ name: 'cmd', command: `${fixtureCommand('echo', newTag())} --events ${events}` }],
    clients: ['ws'],
    params: { connections: 2, restartAt: '300ms', downtime: `${DOWNTIME_MS}ms`, duration: '5s' },
  });
  const [cell] = result.cells;
  assert.ok(cell && isMeasured(cell) && cell.status === 'ok', JSON.stringify(cell).slice(0, 400));
  const { stoppedAtUs, servingAtUs } = cell.measurements.counters as { stoppedAtUs: number; servingAtUs: number };
  // The server started again after its downtime: the engine saw it serving after that, never before.
  assert.ok(servingAtUs - stoppedAtUs >= DOWNTIME_MS * 1000, `serving ${servingAtUs - stoppedAtUs} µs after the kill`);

  // The restarted server's events: the first connection to close is the probe's, after its hold (clients hold theirs).
  const lines = readFileSync(events, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' '));
  const restarted = lines.find(([, , at]) => Number(at) > stoppedAtUs)?.[0];
  const firstClose = Math.min(
    ...lines.filter(([pid, what]) => pid === restarted && what === 'close').map(([, , at]) => Number(at)),
  );
  assert.ok(Number.isFinite(firstClose), `no close logged by the restarted server: ${JSON.stringify(lines)}`);
  assert.ok(
    servingAtUs < firstClose,
    `seen serving ${servingAtUs - firstClose} µs after the probe's connection closed: the hold was counted`,
  );
  // The metric is that time, in ms (HDR keeps 3 significant digits).
  const downMs = (servingAtUs - stoppedAtUs) / 1000;
  assert.ok(
    Math.abs(cell.metrics.serverDownMs! - downMs) <= downMs * 0.001 + 0.001,
    `srv back ${cell.metrics.serverDownMs} ms, engine ${downMs} ms`,
  );
});

/**
 * socket.io's own browser client (socket.io-client's dist/ bundle) on a page,
 * paired with the socket.io server as the Node socket.io client is, and kept
 * apart from WebSocket servers by protocol.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './support.js';
import { NO_CHROMIUM } from './browser-support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

test('echo socketio x browser-socketio runs on a page; ws x browser-socketio is n/a', {
  skip: NO_CHROMIUM,
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(
    ['run', 'echo', '--servers', 'socketio,ws', '--clients', 'browser-socketio', '--duration', '1s', '--out', out],
    { timeoutMs: 100_000 },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const cells = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  const socketio = cells.find((c) => c.server === 'socketio')!;
  assert.ok(socketio.status === 'ok', `cell ${socketio.status}: ${'reason' in socketio ? socketio.reason : ''}`);
  assert.ok(socketio.measurements.counters.received! > 0);
  assert.equal(
    socketio.measurements.latency.rtt?.count,
    socketio.measurements.counters.received! + (socketio.measurements.counters.repliesAfterWindow ?? 0),
    'one round trip per reply, those in the drain too',
  );
  const ws = cells.find((c) => c.server === 'ws')!;
  assert.equal(ws.status, 'skipped');
  assert.equal('reason' in ws && ws.reason, 'a websocket server cannot talk to a socket.io client');
});

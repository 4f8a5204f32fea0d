import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMeasured, run } from '../src/parent/index.js';

test('echo completes on every compatible Node server x client pair and skips the incompatible ones', async () => {
  // The Bun and Deno stacks have their own file (runtimes.test.ts).
  const nodeStacks = ['ws', 'uws', 'socketio'];
  const result = await run({
    scenario: 'echo',
    servers: nodeStacks,
    clients: ['ws', 'undici', 'socketio'],
    params: { duration: '300ms', inflight: 2 },
  });
  assert.equal(result.cells.length, 9);
  const ok = result.cells.filter((c) => c.status === 'ok').map((c) => `${c.server}/${c.client}`);
  assert.deepEqual(ok, ['ws/ws', 'ws/undici', 'uws/ws', 'uws/undici', 'socketio/socketio']);
  for (const cell of result.cells) {
    if (cell.status !== 'ok') continue;
    const rtt = cell.measurements.latency.rtt;
    assert.ok(rtt && rtt.count > 0, `${cell.server}/${cell.client} measured nothing`);
    // Replies in the drain after the window are timed too (counted apart, not in the rate).
    assert.equal(
      rtt.count,
      (cell.measurements.counters.received ?? 0) + (cell.measurements.counters.repliesAfterWindow ?? 0),
      'every reply is one histogram sample',
    );
    assert.equal(cell.metrics.rttP50Ms, rtt.p50Ms, 'the metric is the histogram statistic');
    assert.equal(cell.metrics.errors, 0);
    assert.ok(rtt.minMs <= rtt.p50Ms && rtt.p50Ms <= rtt.p99Ms && rtt.p99Ms <= rtt.maxMs);
    assert.ok((cell.resources.server?.samples ?? 0) > 0, 'server resources were sampled');
    assert.ok((cell.resources.server?.rssBytes.max ?? 0) > 0);
    assert.equal(cell.resources.clients.length, 1);
  }
  const skipped = result.cells.filter((c) => c.status === 'skipped');
  assert.equal(skipped.length, 4);
  const reason = skipped.find((c) => c.server === 'socketio' && c.client === 'ws')?.reason;
  assert.equal(reason, 'a socket.io server cannot talk to a websocket client');
});

test('binary payloads and a message count end the window by themselves', async () => {
  const result = await run({
    scenario: 'echo',
    servers: ['uws', 'socketio'],
    clients: ['undici', 'socketio'],
    params: { binary: true, payload: '1kb', messages: 200, connections: 3 },
    clientProcesses: 2,
  });
  const ok = result.cells.filter(isMeasured);
  assert.equal(ok.length, 2);
  for (const cell of ok) {
    assert.equal(cell.status, 'ok');
    assert.equal(cell.metrics.received, 600, `${cell.server}/${cell.client}: 3 connections x 200 messages`);
    assert.equal(cell.metrics.errors, 0);
    assert.equal(cell.resources.clients.length, 2);
  }
});

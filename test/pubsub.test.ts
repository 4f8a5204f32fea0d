/** pubsub on every built-in server stack, each through its own pub/sub: every subscriber gets every publication of its topics once, in order. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/parent/index.js';

test('every built-in server stack delivers each publication once, in order, to every subscriber of its topic', async () => {
  // 20 subscribers on 4 topics, 2 topics each; 2 publishers; 200/s for 1 s.
  const params = {
    publishers: 2,
    subscribers: 20,
    topics: 4,
    topicsPerSubscriber: 2,
    rate: 200,
    duration: '1s',
  } as const;
  const result = await run({
    scenario: 'pubsub',
    servers: ['ws', 'uws', 'socketio', 'bun', 'deno'],
    clients: ['ws', 'socketio'],
    params,
  });
  const measured = result.cells.filter((c) => c.status !== 'skipped');
  assert.deepEqual(measured.map((c) => `${c.server}x${c.client}`).sort(), [
    'bunxws',
    'denoxws',
    'socketioxsocketio',
    'uwsxws',
    'wsxws',
  ]);
  // Each topic gets 50 publications and has 10 subscribers: 4 x 50 x 10.
  const expected = 2000;
  for (const cell of measured) {
    const label = `${cell.server} x ${cell.client}`;
    if (cell.status !== 'ok') assert.fail(`${label}: ${cell.status}: ${cell.reason}`);
    const m = cell.metrics;
    assert.equal(m.published, 200, label);
    assert.equal(m.expected, expected, label);
    assert.equal(m.delivered, expected, label);
    assert.equal(m.deliveredShare, 1, label);
    for (const fault of [
      'missing',
      'duplicates',
      'outOfOrder',
      'misrouted',
      'subscribersShort',
      'connectionsLost',
    ] as const)
      assert.equal(m[fault], 0, `${label}: ${fault}`);
    assert.equal(m.deliverySamples, expected, label);
    // Every publication reaches its topic's 10 subscribers in this one client process: one spread each.
    assert.equal(m.spreadSamples, 200, label);
    assert.ok(cell.resources.server && cell.resources.server.samples > 0, `${label}: server resources sampled`);
  }
});

test('a broker protocol on the built-in servers is n/a with the reason, not a failure', async () => {
  const result = await run({
    scenario: 'pubsub',
    servers: ['ws'],
    clients: ['ws'],
    params: { broker: 'nats', duration: '1s' },
  });
  assert.equal(result.cells.length, 1);
  assert.equal(result.cells[0]!.status, 'skipped');
  assert.equal(
    result.cells[0]!.reason,
    "broker=nats: wsbench's own servers speak its pub/sub protocol; a nats broker is a --server-cmd or --target",
  );
});

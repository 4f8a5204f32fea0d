/**
 * A handshake nobody listens for is counted as `refused` (churn's failure
 * classes), whatever words each client stack uses for it, in its own runtime,
 * connecting as churn does (undici then has a dispatcher of its own, whose
 * connector hears why).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { classifyHandshakeFailure } from '../src/shared/scenario-kit/index.js';
import { exchange } from './tls-children.js';

/** A loopback port nothing listens on: bound, read and closed again. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

for (const client of ['ws', 'undici', 'socketio', 'bun', 'deno']) {
  test(`the ${client} client's refused connection is classed as refused`, async () => {
    const port = await closedPort();
    const url = client === 'socketio' ? `http://127.0.0.1:${port}` : `ws://127.0.0.1:${port}/`;
    const outcome = await exchange(
      client,
      { url, httpUrl: `http://127.0.0.1:${port}`, stop: async () => undefined },
      undefined,
      'websocket',
      true,
    );
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.equal(classifyHandshakeFailure(outcome.reason), 'refused', outcome.reason);
  });
}

/**
 * The Node stacks (ws, socket.io) can serve a cell as several processes on one
 * port exactly when this Node's net module listens with SO_REUSEPORT: probed,
 * not assumed from a version, and recorded as their sharedPort capability.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NODE_SHARES_PORTS } from '../src/child/runtimes/reuse-port.js';
import { wsServer } from '../src/child/servers/ws.js';
import { socketioServer } from '../src/child/servers/socketio.js';

/** Node's changelog: listen's reusePort came in 23.1.0 and was backported to 22.12.0. */
function nodeHasReusePort(version: string): boolean {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12);
}

test('the probe agrees with the Node version the option came in', () => {
  assert.equal(NODE_SHARES_PORTS, nodeHasReusePort(process.versions.node), `Node ${process.versions.node}`);
});

test('the ws and socket.io servers claim a shared port exactly when the probe found one', () => {
  assert.equal(wsServer.capabilities.sharedPort, NODE_SHARES_PORTS);
  assert.equal(socketioServer.capabilities.sharedPort, NODE_SHARES_PORTS);
});

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { isMeasured, run } from '../src/parent/index.js';
import { socketioServer } from '../src/child/servers/socketio.js';
import { ECHO_FIXTURE, newTag, startPrintingServer } from './foreign-processes.js';

const started: ChildProcess[] = [];
after(() =>
  started.forEach((child) => {
    child.kill('SIGKILL');
  }),
);

/** Starts the fixture echo server the way a user starts their own, and reads the port it prints. */
async function startOwnServer(): Promise<{ pid: number; port: number }> {
  const { child, printed } = startPrintingServer(
    [process.execPath, ECHO_FIXTURE, '--port', '0', '--tag', newTag()],
    /:(\d+)/,
  );
  started.push(child);
  return { pid: child.pid!, port: Number((await printed)[1]) };
}

test('--target with --target-pid: only the clients run, and the server process tree is sampled; without a pid, resources are null with a note', async () => {
  const own = await startOwnServer();
  const url = `ws://127.0.0.1:${own.port}/`;
  const result = await run({
    scenario: 'echo',
    targets: [
      { name: 'mine', url, pid: own.pid },
      { name: 'blind', url },
    ],
    clients: ['ws'],
    params: { duration: '700ms' },
  });
  const [measured, blind] = result.cells;
  assert.ok(measured?.status === 'ok' && isMeasured(measured), `mine: ${measured?.status}`);
  assert.equal(measured.server, 'mine');
  assert.ok(measured.resources.server && measured.resources.server.samples > 0, 'the target process was sampled');
  assert.ok(measured.resources.server.cpuPercent.mean > 0, 'and it worked during the window');
  assert.ok(blind?.status === 'ok' && isMeasured(blind), `blind: ${blind?.status}`);
  assert.equal(blind.resources.server, null, "never another process's resources");
  assert.ok(
    blind.notes.includes('server resources not measured: target blind was given no --target-pid'),
    blind.notes.join(' | '),
  );
  // Echo declares no server-side metric: a target without the stats route lacks nothing, so nothing is said of it.
  assert.ok(!blind.notes.some((n) => n.includes('/wsbench/stats')), blind.notes.join(' | '));
  assert.deepEqual(
    result.environment.foreignServers?.map((s) => [s.name, s.kind, s.pid]),
    [
      ['mine', 'target', own.pid],
      ['blind', 'target', undefined],
    ],
  );
  assert.equal(process.kill(own.pid, 0), true, "a target is not wsbench's to stop");
});

test('an http:// target speaks socket.io: socket.io clients pair with it, WebSocket clients are skipped', async () => {
  const server = await socketioServer.start({
    host: '127.0.0.1',
    handlers: {
      onConnection: () => undefined,
      onMessage: (connection, data) => void connection.send(data),
      onClose: () => undefined,
    },
  });
  try {
    const result = await run({
      scenario: 'echo',
      targets: [{ name: 'io', url: server.url }],
      clients: ['socketio', 'ws'],
      params: { duration: '500ms' },
    });
    const byClient = Object.fromEntries(result.cells.map((c) => [c.client, c]));
    assert.equal(
      byClient.socketio?.status,
      'ok',
      byClient.socketio && 'reason' in byClient.socketio ? byClient.socketio.reason : '',
    );
    assert.equal(byClient.ws?.status, 'skipped');
    assert.equal(byClient.ws.reason, 'a socket.io server cannot talk to a websocket client');
  } finally {
    await server.close();
  }
});

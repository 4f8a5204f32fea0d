/**
 * The per-connection form, end to end against a real ws server of the test's:
 * wsbench spreads the connections over three loopback source addresses, counts
 * the handshakes the server never finishes (from one address) as connect
 * failures by reason (ETIMEDOUT, past the plan's deadline), counts the
 * connections the server drops (from another) as lost, tells each dropped
 * connection's `onUnexpectedClose`, and measures the rest.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { isMeasured, run } from '../src/parent/index.js';

const SCENARIO = fileURLToPath(new URL('./fixtures/per-connection-faults.js', import.meta.url));
/** Connection i comes from 127.0.0.(2 + i % 3): 127.0.0.4's handshakes are held, 127.0.0.3's connections dropped after three replies. */
const HELD = '127.0.0.4';
const DROPPED = '127.0.0.3';

const held: Duplex[] = [];
const seen = new Set<string>();
const wss = new WebSocketServer({ noServer: true });
const http = createServer();
http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
  const from = request.socket.remoteAddress ?? '';
  seen.add(from);
  if (from === HELD) return void held.push(socket);
  wss.handleUpgrade(request, socket, head, (ws) => {
    let replies = 0;
    ws.on('message', (data) => {
      const { id } = JSON.parse(String(data)) as { id: number };
      ws.send(JSON.stringify({ id }));
      if (from === DROPPED && ++replies === 3) setImmediate(() => ws.terminate());
    });
  });
});
after(() => {
  held.forEach((socket) => {
    socket.destroy();
  });
  wss.clients.forEach((ws) => {
    ws.terminate();
  });
  http.close();
});

test('per connection: connect failures by reason, lost connections counted, the rest measured', {
  timeout: 60_000,
}, async () => {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as { port: number }).port;
  const result = await run({
    scenario: SCENARIO,
    targets: [{ name: 'mine', url: `ws://127.0.0.1:${port}/` }],
    clients: ['ws'],
    params: { connections: 9, duration: '800ms' },
  });
  const [cell] = result.cells;
  assert.ok(cell && isMeasured(cell), cell && 'reason' in cell ? cell.reason : 'no cell');
  const m = cell.metrics;
  assert.deepEqual(
    {
      failed: m.connectFailed,
      timedOut: m.connectFailedETIMEDOUT,
      refused: m.connectFailedECONNREFUSED,
      other: m.connectFailedOther,
      lost: m.connectionsLost,
      heard: m.lostHeard,
    },
    { failed: 3, timedOut: 3, refused: 0, other: 0, lost: 3, heard: 3 },
  );
  assert.ok((m.answered ?? 0) > 9, `the three healthy connections were answered: ${m.answered}`);
  assert.equal(m.rttSamples, (m.answered ?? 0) + (m.late ?? 0), 'every answer timed, those in the drain too');
  assert.equal(cell.status, 'errors', 'failed and lost connections are faults');
  assert.ok(
    cell.notes.some((n) => /^connect failed \(ETIMEDOUT\): /.test(n)),
    cell.notes.join('\n'),
  );
  for (const address of ['127.0.0.2', DROPPED, HELD])
    assert.ok(seen.has(address), `a connection came from ${address}: ${[...seen].join(', ')}`);
});

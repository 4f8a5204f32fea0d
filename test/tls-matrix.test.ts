/**
 * TLS on every built-in stack: each server serves wss:// (https:// for socket.io)
 * with the run's throwaway certificate, and each client that speaks its protocol,
 * told to trust exactly that certificate, exchanges a message and asks an HTTP
 * route over TLS. Real Node, Bun and Deno child processes, as in a cell.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeCertificate, type TlsCertificate } from '../src/parent/certificate.js';
import { loadClientAdapter } from '../src/child/stacks.js';
import { exchange, startServerChild, type ServerChild } from './tls-children.js';

const WEBSOCKET_SERVERS = ['ws', 'uws', 'bun', 'deno'];
const WEBSOCKET_CLIENTS = ['ws', 'undici', 'bun', 'deno'];

let certificate: TlsCertificate;
const servers: ServerChild[] = [];

before(async () => {
  certificate = await makeCertificate();
});
after(async () => {
  await Promise.allSettled(servers.map((server) => server.stop()));
});

async function serve(stack: string): Promise<ServerChild> {
  const server = await startServerChild(stack, { certPem: certificate.certPem, keyPem: certificate.keyPem });
  servers.push(server);
  return server;
}

for (const serverStack of WEBSOCKET_SERVERS) {
  test(`the ${serverStack} server serves wss:// and its routes over https:// to every WebSocket client`, async () => {
    const server = await serve(serverStack);
    assert.match(server.url, /^wss:\/\/127\.0\.0\.1:\d+\/$/);
    assert.match(server.httpUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
    for (const clientStack of WEBSOCKET_CLIENTS) {
      const outcome = await exchange(clientStack, server, { caPem: certificate.certPem });
      const pair = `${serverStack}/${clientStack}`;
      assert.ok(outcome.ok, `${pair}: ${outcome.ok ? '' : outcome.reason}`);
      assert.equal(outcome.counters.echoed, 1, `${pair}: the message came back`);
      assert.equal(outcome.counters.routeAnswered, 1, `${pair}: the HTTP route answered over https`);
      await assertSession(clientStack, outcome.session, pair);
    }
  });
}

test('the socketio server serves https:// and its routes to the socket.io client', async () => {
  const server = await serve('socketio');
  assert.match(server.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(server.httpUrl, server.url);
  const outcome = await exchange('socketio', server, { caPem: certificate.certPem });
  assert.ok(outcome.ok, outcome.ok ? '' : outcome.reason);
  assert.equal(outcome.counters.echoed, 1);
  assert.equal(outcome.counters.routeAnswered, 1);
  await assertSession('socketio', outcome.session, 'socketio/socketio');
});

/** A client that can read its session reports TLS 1.2 or 1.3 and a cipher; the others say why they cannot. */
async function assertSession(clientStack: string, session: unknown, pair: string): Promise<void> {
  const { capabilities } = await loadClientAdapter(clientStack);
  if (capabilities.tlsSession) {
    assert.deepEqual(Object.keys(session as object), ['protocol', 'cipher'], pair);
    const { protocol, cipher } = session as { protocol: string; cipher: string };
    assert.match(protocol, /^TLSv1\.[23]$/, pair);
    assert.match(cipher, /^TLS_[A-Z0-9_]+$/, pair);
  } else {
    assert.deepEqual(
      session,
      { protocol: null, cipher: null, reason: `${clientStack}'s WebSocket does not expose its TLS session` },
      pair,
    );
  }
}

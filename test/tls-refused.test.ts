/**
 * Every client stack refuses a certificate it was not told to trust: given no
 * CA (its runtime's own roots) or another throwaway certificate as its CA, it
 * fails to connect with the TLS reason, and so does the HTTP client the
 * scenarios' REST routes use, in each runtime. Real child processes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyHandshakeFailure } from '../src/shared/scenario-kit/index.js';
import { makeCertificate, type TlsCertificate } from '../src/parent/certificate.js';
import { exchange, startServerChild, type ServerChild } from './tls-children.js';

let served: TlsCertificate;
let stranger: TlsCertificate;
let uws: ServerChild;
let socketio: ServerChild;

before(async () => {
  [served, stranger] = await Promise.all([makeCertificate(), makeCertificate()]);
  const tls = { certPem: served.certPem, keyPem: served.keyPem };
  [uws, socketio] = await Promise.all([startServerChild('uws', tls), startServerChild('socketio', tls)]);
});
after(async () => {
  await Promise.allSettled([uws?.stop(), socketio?.stop()]);
});

/** What each client says when it refuses the served certificate: none given, or another one given. */
const REFUSALS: Record<string, { untrusted: RegExp; otherCa: RegExp }> = {
  ws: {
    untrusted: /^client ws: ws client could not connect: self-signed certificate$/,
    otherCa: /^client ws: ws client could not connect: self-signed certificate$/,
  },
  undici: {
    untrusted: /^client undici: undici client could not connect: self-signed certificate$/,
    otherCa: /^client undici: undici client could not connect: self-signed certificate$/,
  },
  bun: {
    untrusted:
      /^client bun: bun client could not connect: WebSocket connection to 'wss:\/\/127\.0\.0\.1:\d+\/' failed: TLS handshake failed: unable to verify the first certificate$/,
    otherCa:
      /^client bun: bun client could not connect: WebSocket connection to 'wss:\/\/127\.0\.0\.1:\d+\/' failed: TLS handshake failed: unable to verify the first certificate$/,
  },
  deno: {
    untrusted:
      /^client deno: deno client could not connect: NetworkError: failed to connect to WebSocket: invalid peer certificate: UnknownIssuer$/,
    otherCa:
      /^client deno: deno client could not connect: NetworkError: failed to connect to WebSocket: invalid peer certificate: BadSignature$/,
  },
  socketio: {
    untrusted: /^client socketio: socket.io client could not connect: websocket error: self-signed certificate$/,
    otherCa: /^client socketio: socket.io client could not connect: websocket error: self-signed certificate$/,
  },
};

for (const [client, expected] of Object.entries(REFUSALS)) {
  test(`the ${client} client refuses a certificate it was not told to trust`, async () => {
    const server = client === 'socketio' ? socketio : uws;
    const untrusted = await exchange(client, server);
    assert.equal(untrusted.ok, false, `${client} connected without being told to trust the certificate`);
    if (!untrusted.ok) assert.match(untrusted.reason, expected.untrusted);
    const otherCa = await exchange(client, server, { caPem: stranger.certPem });
    assert.equal(otherCa.ok, false, `${client} connected trusting another certificate`);
    if (!otherCa.ok) assert.match(otherCa.reason, expected.otherCa);
    // churn counts each of these as a TLS failure.
    for (const outcome of [untrusted, otherCa])
      if (!outcome.ok) assert.equal(classifyHandshakeFailure(outcome.reason), 'tls', outcome.reason);
  });
}

test('the HTTP client of the REST routes refuses it too, in Node, Bun and Deno', async () => {
  // Each runtime's node:tls words it its own way; each names the certificate.
  const said = {
    ws: 'self-signed certificate',
    bun: 'unable to verify the first certificate',
    deno: 'unable to verify the first certificate',
  };
  for (const [client, reason] of Object.entries(said)) {
    const outcome = await exchange(client, uws, { caPem: stranger.certPem }, 'http');
    assert.equal(outcome.ok, false, `${client}: the HTTP request went through`);
    if (!outcome.ok) assert.equal(outcome.reason, `client ${client}: ${reason}`);
  }
});

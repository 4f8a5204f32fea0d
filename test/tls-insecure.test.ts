/**
 * ClientTls.insecure (for `--insecure` against a foreign wss:// target): the
 * stacks whose tlsInsecure capability says so connect to a server whose
 * certificate they were given no way to check; Deno, which can skip the check
 * only for a whole process, refuses with the reason instead. Real child processes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeCertificate } from '../src/parent/certificate.js';
import { loadClientAdapter } from '../src/child/stacks.js';
import { exchange, startServerChild, type ServerChild } from './tls-children.js';

let bun: ServerChild;
let socketio: ServerChild;

before(async () => {
  const certificate = await makeCertificate();
  const tls = { certPem: certificate.certPem, keyPem: certificate.keyPem };
  [bun, socketio] = await Promise.all([startServerChild('bun', tls), startServerChild('socketio', tls)]);
});
after(async () => {
  await Promise.allSettled([bun?.stop(), socketio?.stop()]);
});

test('clients that can skip verification connect unverified; the deno client says it cannot', async () => {
  const outcomes: Record<string, string> = {};
  for (const client of ['ws', 'undici', 'bun', 'deno', 'socketio']) {
    const { capabilities } = await loadClientAdapter(client);
    const outcome = await exchange(client, client === 'socketio' ? socketio : bun, { insecure: true });
    outcomes[client] =
      `${capabilities.tlsInsecure} ${outcome.ok ? `echoed ${outcome.counters.echoed}, route ${outcome.counters.routeAnswered}` : outcome.reason}`;
  }
  assert.deepEqual(outcomes, {
    ws: 'true echoed 1, route 1',
    undici: 'true echoed 1, route 1',
    bun: 'true echoed 1, route 1',
    deno: "false client deno: Deno's WebSocket cannot skip certificate verification",
    socketio: 'true echoed 1, route 1',
  });
});

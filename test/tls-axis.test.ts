/**
 * The `tls` parameter: `tls=off,on` runs each pair plain and over TLS with the
 * run's own certificate; each TLS cell records what its clients negotiated
 * (the version and cipher, or why the stack cannot tell), and the table says it
 * under the rows. One certificate per run, made only when a cell needs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMeasured, renderTable, run } from '../src/parent/index.js';
import { RunTls } from '../src/parent/engine/run-tls.js';

test('tls=off,on: every pair runs both ways, and the TLS cells record the negotiated version and cipher', async () => {
  const result = await run({
    scenario: 'echo',
    servers: ['ws', 'deno'],
    clients: ['undici', 'bun'],
    params: { tls: ['off', 'on'], duration: '400ms' },
  });
  assert.equal(result.cells.length, 8);
  for (const cell of result.cells) {
    const name = `${cell.server} x ${cell.client} tls=${cell.params.tls}`;
    assert.ok(
      isMeasured(cell) && cell.status === 'ok',
      `${name}: ${cell.status} ${'reason' in cell ? cell.reason : ''}`,
    );
    if (cell.params.tls === 'off') {
      assert.equal(cell.tls, undefined, `${name} made no TLS connection`);
      continue;
    }
    assert.equal(cell.tls?.length, 1, `${name}: ${JSON.stringify(cell.tls)}`);
    const [outcome] = cell.tls!;
    assert.equal(outcome!.connections, cell.measurements.counters.connectionsOpened);
    if (cell.client === 'undici') {
      assert.match(outcome!.protocol ?? '', /^TLSv1\.[23]$/, name);
      assert.match(outcome!.cipher ?? '', /^TLS_/, name);
    } else {
      assert.deepEqual(
        { ...outcome!, connections: 0 },
        { protocol: null, cipher: null, reason: "bun's WebSocket does not expose its TLS session", connections: 0 },
      );
    }
  }
  const table = renderTable(result);
  assert.match(table, /^tls {2}undici client: TLSv1\.[23] TLS_\S+$/m);
  assert.match(
    table,
    /^tls {2}bun client: version and cipher not known: bun's WebSocket does not expose its TLS session$/m,
  );
});

test('one certificate per run, made for the first cell with TLS on and never for a plain one', async () => {
  const tls = new RunTls('127.0.0.2', undefined);
  assert.deepEqual(await tls.forCell({ params: { tls: 'off' } }), {}, 'a plain cell gets nothing');
  const first = await tls.forCell({ params: { tls: 'on' } });
  const second = await tls.forCell({ params: { tls: 'on' } });
  assert.ok(first.server && first.client?.caPem);
  assert.equal(second.server?.certPem, first.server.certPem, 'the same certificate for every cell');
  assert.equal(
    first.client.caPem,
    first.server.certPem,
    'the clients trust exactly the certificate the server presents',
  );
  tls.close();
});

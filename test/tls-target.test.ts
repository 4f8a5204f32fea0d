/**
 * A wss:// --target with a certificate of its own: --ca makes the clients
 * trust exactly it; --insecure verifies nothing, says so in the result and
 * under the table, and skips the client that cannot (deno) with the reason;
 * with neither, the clients' default roots refuse a self-signed certificate
 * and the cell fails with that reason. A wss:// target gets tls=on by default.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isMeasured, renderTable, run } from '../src/parent/index.js';
import { makeCertificate, type TlsCertificate } from '../src/parent/certificate.js';
import { writePemFiles } from '../src/child/pem-files.js';

const TLS_SERVER = fileURLToPath(new URL('./fixtures/refusing-server.js', import.meta.url));
let certificate: TlsCertificate;
let files: ReturnType<typeof writePemFiles>;
let server: ChildProcess;
let url: string;

before(async () => {
  certificate = await makeCertificate();
  files = writePemFiles(certificate);
  server = spawn(process.execPath, [TLS_SERVER, '--port', '0', '--cert', files.certPath, '--key', files.keyPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout!.on('data', (chunk: Buffer) => {
      const match = /:(\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    server.once('exit', (code) => reject(new Error(`the TLS server exited with ${code}`)));
  });
  url = `wss://127.0.0.1:${port}/`;
});
after(() => {
  server?.kill();
  files?.remove();
});

test('--ca: the clients trust the certificate in the file, and the cell is TLS by default', async () => {
  const result = await run({
    scenario: 'echo',
    targets: [{ name: 'own', url }],
    clients: ['ws', 'deno'],
    ca: certificate.certPem,
    params: { duration: '400ms' },
  });
  for (const cell of result.cells) {
    assert.ok(
      isMeasured(cell) && cell.status === 'ok',
      `${cell.client}: ${cell.status} ${'reason' in cell ? cell.reason : ''}`,
    );
    assert.equal(cell.params.tls, 'on');
    assert.equal(cell.tls?.[0]?.connections, 1);
  }
  assert.equal(result.warnings, undefined);
});

test('--insecure: certificates unchecked, a warning in the result and under the table, deno skipped with the reason', async () => {
  const result = await run({
    scenario: 'echo',
    targets: [{ name: 'own', url }],
    clients: ['ws', 'deno'],
    insecure: true,
    params: { duration: '400ms' },
  });
  const [ws, deno] = result.cells;
  assert.equal(ws?.status, 'ok', JSON.stringify(ws));
  assert.equal(deno?.status, 'skipped');
  assert.equal(
    deno && 'reason' in deno ? deno.reason : '',
    '--insecure: the deno client cannot skip certificate verification',
  );
  const warning =
    '--insecure: the clients did not verify the TLS certificate of own; anyone between them could have answered in its place';
  assert.deepEqual(result.warnings, [warning]);
  assert.ok(renderTable(result).split('\n').includes(`warning: ${warning}`), renderTable(result));
});

test('neither: the clients refuse the self-signed certificate and the cell fails saying so', async () => {
  const result = await run({
    scenario: 'echo',
    targets: [{ name: 'own', url }],
    clients: ['ws'],
    params: { duration: '400ms' },
  });
  const [cell] = result.cells;
  assert.equal(cell?.status, 'failed');
  assert.match(cell && 'reason' in cell ? cell.reason : '', /^target own: self-signed certificate/);
});

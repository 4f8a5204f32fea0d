/**
 * The Python reference servers serve TLS when given `--cert FILE --key FILE`:
 * wsbench's ws client, trusting exactly the run's throwaway certificate, echoes a
 * message over wss:// and reads the stats route over https:// from each one.
 * Real Python processes on loopback.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { makeCertificate, type TlsCertificate } from '../src/parent/certificate.js';
import { writePemFiles, type PemFiles } from '../src/child/pem-files.js';
import { wsClient } from '../src/child/clients/ws.js';
import { createHttpClient } from '../src/child/clients/http.js';
import { PYTHON_EXAMPLES, pythonSkip, venvPython } from './python-support.js';

const skip = pythonSkip();
const LISTEN_TIMEOUT_MS = 20_000;
const MESSAGE = 'echo over TLS';

let certificate: TlsCertificate;
let files: PemFiles;

before(async () => {
  certificate = await makeCertificate();
  files = writePemFiles(certificate);
});
after(() => files?.remove());

for (const file of ['websockets_server.py', 'tornado_server.py', 'starlette_server.py']) {
  test(`${file} --cert --key answers a TLS client that trusts only that certificate`, { skip }, async () => {
    const server = spawn(
      venvPython(),
      [join(PYTHON_EXAMPLES, file), '--port', '0', '--cert', files.certPath, '--key', files.keyPath],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const port = await announcedPort(server);
      const tls = { caPem: certificate.certPem };

      let echoed: (data: unknown) => void = () => undefined;
      const reply = new Promise((resolve) => (echoed = resolve));
      const connection = await wsClient.connect(`wss://127.0.0.1:${port}/?scenario=echo`, {
        onMessage: (data) => echoed(data),
        onUnexpectedClose: (reason) => echoed(reason),
        tls,
      });
      connection.send(MESSAGE);
      assert.equal(await reply, MESSAGE);
      assert.equal(connection.tlsSession().protocol, 'TLSv1.3');
      await connection.close();

      const http = createHttpClient(`https://127.0.0.1:${port}`, 1, tls);
      try {
        const stats = await http.request('GET', '/wsbench/stats?scenario=echo');
        assert.equal(stats.status, 200);
        assert.ok('counters' in (JSON.parse(stats.body) as object), stats.body);
      } finally {
        await http.close();
      }
    } finally {
      server.kill('SIGKILL');
    }
  });
}

/** The port from the server's "listening on host:port" line, or its stderr when it dies or stays silent. */
function announcedPort(server: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(
      () => reject(new Error(`no "listening on" line within ${LISTEN_TIMEOUT_MS} ms: ${stderr}`)),
      LISTEN_TIMEOUT_MS,
    );
    server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    server.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const port = /listening on [\d.]+:(\d+)/.exec(stdout)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve(Number(port));
      }
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with code ${code}: ${stderr}`));
    });
  });
}

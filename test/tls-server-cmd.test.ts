/**
 * A --server-cmd that takes {cert} and {key} serves TLS with the run's
 * certificate: it gets the paths of two private files (folder 0700, files
 * 0600), its clients trust exactly that certificate, the files are gone when
 * the run ends, and its cells with tls=off are skipped with the reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from '../src/parent/index.js';
import { runCli, tempDir } from './support.js';

const TLS_SERVER = fileURLToPath(new URL('./fixtures/refusing-server.js', import.meta.url));

test("--server-cmd with {cert} and {key}: TLS with the run's certificate in private files, deleted at the end", async () => {
  const out = join(tempDir(), 'r.json');
  const described = join(tempDir(), 'files.json');
  // The run's temp folder is a fresh one, so nothing else on the machine writes there.
  const runTmp = mkdtempSync(join(tmpdir(), 'wsbench-test-tmp-'));
  const command = `tiny=${process.execPath} ${TLS_SERVER} --port {port} --cert {cert} --key {key} --describe-files ${described}`;
  const outcome = await runCli(
    [
      'run',
      'echo',
      '--servers',
      'ws',
      '--server-cmd',
      command,
      '--clients',
      'ws',
      '--tls',
      'off,on',
      '--duration',
      '400ms',
      '--out',
      out,
    ],
    { env: { TMPDIR: runTmp } },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const files = JSON.parse(readFileSync(described, 'utf8')) as {
    cert: string;
    key: string;
    certMode: string;
    keyMode: string;
    dirMode: string;
  };
  assert.deepEqual([files.certMode, files.keyMode, files.dirMode], ['600', '600', '700']);
  assert.ok(files.cert.startsWith(runTmp), `${files.cert} is in the run's temp folder`);
  assert.equal(existsSync(files.cert) || existsSync(files.key), false, 'the files are gone');
  assert.deepEqual(readdirSync(runTmp), [], 'nothing is left in the temp folder');

  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const cells = Object.fromEntries(result.cells.map((c) => [`${c.server} ${c.params.tls}`, c]));
  for (const key of ['ws off', 'ws on', 'tiny on'])
    assert.equal(cells[key]?.status, 'ok', `${key}: ${JSON.stringify(cells[key])}`);
  assert.equal(cells['tiny on']!.status === 'ok' && cells['tiny on']!.tls?.[0]?.protocol?.startsWith('TLSv1.'), true);
  const skipped = cells['tiny off']!;
  assert.equal(skipped.status, 'skipped');
  assert.equal(
    'reason' in skipped && skipped.reason,
    'tls=off: the --server-cmd tiny takes {cert} and {key}, so it serves TLS',
  );
});

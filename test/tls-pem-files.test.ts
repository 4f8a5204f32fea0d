/**
 * The certificate and key as files, for children that take only a path: in a
 * folder of their own that only this user can enter, readable only by this user,
 * gone after remove(), and gone when the process exits without calling it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writePemFiles } from '../src/child/pem-files.js';

const PEM = {
  certPem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
  keyPem: '-----BEGIN PRIVATE KEY-----\nBBBB\n-----END PRIVATE KEY-----\n',
};

test('the files are private, hold the PEM text, and remove() deletes the folder', () => {
  const files = writePemFiles(PEM);
  assert.equal(statSync(files.dir).mode & 0o777, 0o700);
  for (const path of [files.certPath, files.keyPath]) assert.equal(statSync(path).mode & 0o777, 0o600, path);
  assert.equal(readFileSync(files.certPath, 'utf8'), PEM.certPem);
  assert.equal(readFileSync(files.keyPath, 'utf8'), PEM.keyPem);
  files.remove();
  assert.equal(existsSync(files.dir), false);
  files.remove();
});

test('a process that exits without removing them leaves no folder behind', () => {
  const module = fileURLToPath(new URL('../src/child/pem-files.js', import.meta.url));
  const script = `import { writePemFiles } from ${JSON.stringify(module)}; console.log(writePemFiles(${JSON.stringify(PEM)}).dir); process.exit(3);`;
  let dir = '';
  try {
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  } catch (error) {
    assert.equal((error as { status: number }).status, 3);
    dir = String((error as { stdout: string }).stdout).trim();
  }
  assert.match(dir, /wsbench-tls-/);
  assert.equal(existsSync(dir), false, `${dir} outlived its process`);
});

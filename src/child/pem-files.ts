/**
 * The certificate and key as files, for the children that take only a path
 * (uWS's SSLApp, a `--server-cmd` server, a runtime flag): a folder of its own
 * under the system temp dir, readable by this user only, gone by remove() or,
 * failing that, when this process exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNew } from '../shared/safe-files.js';

export interface PemFiles {
  /** The folder (mode 0700) holding the files (mode 0600). */
  dir: string;
  certPath: string;
  keyPath: string;
  /** Deletes the folder; safe to call twice. */
  remove(): void;
}

const leftBehind = new Set<string>();
process.on('exit', () => {
  for (const dir of leftBehind) rmSync(dir, { recursive: true, force: true });
});

export function writePemFiles(pem: { certPem: string; keyPem: string }): PemFiles {
  // mkdtemp makes the folder 0700; createNew refuses a file or link someone slipped in first.
  const dir = mkdtempSync(join(tmpdir(), 'wsbench-tls-'));
  leftBehind.add(dir);
  const remove = (): void => {
    rmSync(dir, { recursive: true, force: true });
    leftBehind.delete(dir);
  };
  try {
    const certPath = join(dir, 'cert.pem');
    const keyPath = join(dir, 'key.pem');
    createNew(certPath, pem.certPem, 0o600);
    createNew(keyPath, pem.keyPem, 0o600);
    return { dir, certPath, keyPath, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

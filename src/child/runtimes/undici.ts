/**
 * The undici package, whatever the runtime. Bun answers `import 'undici'` with
 * a stub of its own whose Pool cannot make a request, so under Bun the real
 * package is imported from its file in node_modules: every runtime then polls
 * with the same HTTP client.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bunApi } from '../../shared/runtime-globals.js';

/** What wsbench takes from undici outside the undici client adapter (which runs under Node only). */
type Undici = Pick<typeof import('undici'), 'Pool' | 'buildConnector'>;

const require = createRequire(import.meta.url);

export async function loadUndici(): Promise<Undici> {
  if (!bunApi()) return import('undici');
  const manifest = require.resolve('undici/package.json');
  const { main } = JSON.parse(readFileSync(manifest, 'utf8')) as { main?: string };
  return (await import(pathToFileURL(join(dirname(manifest), main ?? 'index.js')).href)) as unknown as Undici;
}

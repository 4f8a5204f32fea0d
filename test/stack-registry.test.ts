/**
 * Adding a stack is its adapter file and its line in src/child/stacks.ts. An adapter
 * in src/child/servers/ or src/child/clients/ without its registry line (or registered
 * under a name that is not its own) fails here, naming the file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { clientStacks, serverStacks } from '../src/child/stacks.js';
import { REPO_ROOT } from './support.js';

/** The adapters a built module exports: objects with a name, a protocol, probe() and start() or connect(). */
async function adaptersIn(
  folder: string,
  entry: 'start' | 'connect',
): Promise<Array<{ file: string; name: string; adapter: object }>> {
  const dir = join(REPO_ROOT, 'dist', 'src', 'child', folder);
  const found = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.js'))) {
    for (const value of Object.values(await import(pathToFileURL(join(dir, file)).href)) as unknown[]) {
      const candidate = value as Record<string, unknown> | null;
      if (typeof candidate !== 'object' || candidate === null) continue;
      if (
        typeof candidate.name === 'string' &&
        typeof candidate.protocol === 'string' &&
        typeof candidate.probe === 'function' &&
        typeof candidate[entry] === 'function'
      ) {
        found.push({ file: `src/${folder}/${file.replace(/\.js$/, '.ts')}`, name: candidate.name, adapter: candidate });
      }
    }
  }
  return found;
}

for (const [folder, entry, registry] of [
  ['servers', 'start', serverStacks],
  ['clients', 'connect', clientStacks],
] as const) {
  test(`every adapter in src/${folder}/ has its line in src/child/stacks.ts, under its own name`, async () => {
    const adapters = await adaptersIn(folder, entry);
    assert.ok(adapters.length >= 5, `the adapters of src/${folder}/: ${adapters.map((a) => a.file).join(', ')}`);
    for (const { file, name, adapter } of adapters) {
      const load = registry[name];
      assert.ok(load, `${file}: adapter "${name}" has no line in src/child/stacks.ts`);
      assert.equal(await load(), adapter, `${file}: src/child/stacks.ts's "${name}" loads another adapter`);
    }
  });
}

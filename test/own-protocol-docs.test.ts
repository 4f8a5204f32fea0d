/**
 * The own-protocol example of docs/own-server.md, and the per-connection
 * example docs/writing-a-scenario.md leads with, are the file `wsbench init`
 * writes (templates/init/scenario.ts), which test/client-only-scenario.test.ts
 * runs against the example server and test/init.test.ts compiles in a project.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './support.js';

const SOURCE_ROOT = dirname(realpathSync(join(REPO_ROOT, 'package.json')));

test('docs/own-server.md shows templates/init/scenario.ts as it is', () => {
  const page = readFileSync(join(SOURCE_ROOT, 'docs', 'own-server.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(page);
  assert.ok(block, 'docs/own-server.md has a ```ts block');
  assert.equal(block[1], readFileSync(join(SOURCE_ROOT, 'templates', 'init', 'scenario.ts'), 'utf8'));
});

test('docs/writing-a-scenario.md leads with templates/init/scenario.ts', () => {
  const page = readFileSync(join(SOURCE_ROOT, 'docs', 'writing-a-scenario.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(page);
  assert.ok(block, 'docs/writing-a-scenario.md has a ```ts block');
  assert.equal(block[1], readFileSync(join(SOURCE_ROOT, 'templates', 'init', 'scenario.ts'), 'utf8'));
});

test('the template stays a protocol of about 40 lines, in a file of about 50', () => {
  const lines = readFileSync(join(SOURCE_ROOT, 'templates', 'init', 'scenario.ts'), 'utf8')
    .trimEnd()
    .split('\n');
  const code = lines.filter((line) => line.trim() !== '' && !/^\s*(\/\*\*|\*|\/\/)/.test(line));
  assert.ok(lines.length <= 55, `${lines.length} lines`);
  assert.ok(code.length <= 42, `${code.length} lines of code`);
});

/**
 * `wsbench init` writes only into a new or empty folder. How a stranger meets it
 * (init in the packed install, npm install, npm run bench) is tested in
 * packed-install.test.ts, on the install the other packed-install tests share.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './support.js';

test('init refuses a folder that is not empty, in one line, exit 2, and writes nothing', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'taken'));
  writeFileSync(join(dir, 'taken', 'notes.txt'), 'mine\n');
  const outcome = await runCli(['init', 'taken'], { cwd: dir });
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr, `wsbench: init: ${join(dir, 'taken')} is not empty: give a new or empty folder\n`);
  assert.ok(!existsSync(join(dir, 'taken', 'package.json')));
});

/**
 * `wsbench init` writes only into a new or empty folder, and run from a clone
 * it depends on the clone by a path relative to the project. How a stranger
 * meets it (init in the packed install, with the tarball copied into the
 * project, npm install, npm run bench) is tested in packed-install.test.ts,
 * on the install the other packed-install tests share.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { REPO_ROOT, runCli, tempDir } from './support.js';

test('init refuses a folder that is not empty, in one line, exit 2, and writes nothing', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'taken'));
  writeFileSync(join(dir, 'taken', 'notes.txt'), 'mine\n');
  const outcome = await runCli(['init', 'taken'], { cwd: dir });
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr, `wsbench: init: ${join(dir, 'taken')} is not empty: give a new or empty folder\n`);
  assert.ok(!existsSync(join(dir, 'taken', 'package.json')));
});

test('init run from a clone: the project depends on the clone by a path relative to it, never an absolute one', async () => {
  const dir = tempDir();
  const outcome = await runCli(['init', 'mine'], { cwd: dir });
  assert.equal(outcome.code, 0, outcome.stderr);
  const { dependencies } = JSON.parse(readFileSync(join(dir, 'mine', 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const spec = dependencies.wsbench ?? '';
  assert.match(spec, /^file:/);
  const path = spec.slice('file:'.length);
  assert.ok(!isAbsolute(path), `a relative path: ${spec}`);
  assert.equal(
    resolve(realpathSync(join(dir, 'mine')), path),
    realpathSync(REPO_ROOT).replace(/\/$/, ''),
    `${spec} leads from the project to the clone`,
  );
  assert.match(
    outcome.stdout,
    new RegExp(
      `^wsbench dependency: ${spec.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(the folder this wsbench runs from, relative to the project`,
      'm',
    ),
  );
  assert.ok(!existsSync(join(dir, 'mine', 'vendor')), 'no tarball to copy');
});

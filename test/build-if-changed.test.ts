/**
 * `prepare` (scripts/build.mjs --if-changed) rebuilds dist/ only when what the
 * compiler reads changed since the last build, so the first `npx wsbench` in a
 * clone, which installs the folder and runs `prepare`, does not recompile an
 * up-to-date dist/. The script runs for real on a small project of its own
 * whose `typescript` is a stand-in that logs each compile and copies src/ to
 * dist/src/: what is under test is when the script compiles, and the real tsc
 * takes seconds per run (every `npm test` runs the script with the real one).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, tempDir } from './support.js';

const BUILD_SCRIPT = join(REPO_ROOT, 'scripts', 'build.mjs');

/** The stand-in compiler: logs the call, copies each src/*.ts to dist/src/*.js, fails (after emitting, as tsc does) on a file saying TYPE-ERROR. */
const STAND_IN_TSC = `
const fs = require('node:fs');
fs.appendFileSync('compiles.log', process.argv.slice(2).join(' ') + '\\n');
fs.mkdirSync('dist/src', { recursive: true });
for (const name of fs.readdirSync('src')) {
  const text = fs.readFileSync('src/' + name, 'utf8');
  fs.writeFileSync('dist/src/' + name.replace(/\\.ts$/, '.js'), text);
  if (text.includes('TYPE-ERROR')) process.exitCode = 2;
}
`;

function project(): string {
  const root = tempDir();
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'node_modules', 'typescript', 'bin'), { recursive: true });
  writeFileSync(
    join(root, 'node_modules', 'typescript', 'package.json'),
    '{ "name": "typescript", "version": "5.0.0" }\n',
  );
  writeFileSync(join(root, 'node_modules', 'typescript', 'bin', 'tsc'), STAND_IN_TSC);
  writeFileSync(join(root, 'package.json'), '{ "name": "p", "version": "1.0.0" }\n');
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { outDir: 'dist' }, include: ['src'] }));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'src', 'b.ts'), 'export const b = 2;\n');
  return root;
}

/** Runs the script in `root`; returns its exit code and how many compiles the project has seen so far. */
function build(root: string, ...args: string[]): { code: number | null; compiles: number; stderr: string } {
  const outcome = spawnSync(process.execPath, [BUILD_SCRIPT, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const log = join(root, 'compiles.log');
  const compiles = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
  return { code: outcome.status, compiles, stderr: outcome.stderr };
}

test('--if-changed compiles a project without dist/, then not again while its inputs are unchanged, touched or not', () => {
  const root = project();
  assert.deepEqual(build(root, '--if-changed').compiles, 1);
  assert.ok(existsSync(join(root, 'dist', 'src', 'a.js')) && existsSync(join(root, 'dist', '.build-inputs')));
  const later = new Date(Date.now() + 60_000);
  utimesSync(join(root, 'src', 'a.ts'), later, later);
  const skipped = build(root, '--if-changed');
  assert.equal(skipped.code, 0, skipped.stderr);
  assert.equal(skipped.compiles, 1, 'a touched but unchanged source does not recompile');
  assert.equal(skipped.stderr, 'build: dist/ is current (its sources are unchanged since it was built), not rebuilt\n');
  assert.equal(build(root).compiles, 2, 'without --if-changed it always compiles');
  rmSync(root, { recursive: true, force: true });
});

test('--if-changed rebuilds from scratch when a source, tsconfig.json or the compiler changes: no output of a deleted source stays', () => {
  const root = project();
  build(root, '--if-changed');
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a = 3;\n');
  rmSync(join(root, 'src', 'b.ts'));
  assert.equal(build(root, '--if-changed').compiles, 2);
  assert.equal(readFileSync(join(root, 'dist', 'src', 'a.js'), 'utf8'), 'export const a = 3;\n');
  assert.ok(!existsSync(join(root, 'dist', 'src', 'b.js')), 'the deleted source left no output');

  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { outDir: 'dist', strict: true }, include: ['src'] }),
  );
  assert.equal(build(root, '--if-changed').compiles, 3, 'tsconfig.json changed');
  writeFileSync(
    join(root, 'node_modules', 'typescript', 'package.json'),
    '{ "name": "typescript", "version": "5.0.1" }\n',
  );
  assert.equal(build(root, '--if-changed').compiles, 4, 'the compiler changed');
  assert.equal(build(root, '--if-changed').compiles, 4);
  rmSync(root, { recursive: true, force: true });
});

test('a failed compile leaves no record of a build, so the next --if-changed compiles again', () => {
  const root = project();
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a: number = "TYPE-ERROR";\n');
  const failed = build(root, '--if-changed');
  assert.equal(failed.code, 2, "the compiler's exit code");
  assert.ok(
    existsSync(join(root, 'dist', 'src', 'a.js')) && !existsSync(join(root, 'dist', '.build-inputs')),
    'output emitted, no record',
  );
  assert.equal(build(root, '--if-changed').compiles, 2);
  rmSync(root, { recursive: true, force: true });
});

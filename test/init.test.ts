/**
 * `wsbench init` as a stranger meets it: the packed tarball installed into an
 * empty project, `npx wsbench init mybench`, then in mybench `npm install` and
 * `npm run bench -- --target ws://...` against the JSON-RPC server the package
 * ships (examples/jsonrpc/): a table on stdout and a report, first try. It
 * writes only into a new or empty folder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npm, npmEnv, offlineLock, packAndInstall } from './packed-install.js';
import { startPrintingServer } from './foreign-processes.js';
import { REPO_ROOT, runCli, tempDir } from './support.js';

test('init in the packed install, then npm install && npm run bench -- --target: a table and a report', { timeout: 900_000 }, async (t) => {
  const packed = await packAndInstall();
  const server = startPrintingServer([process.execPath, join(packed.packageDir, 'examples', 'jsonrpc', 'server.mjs'), '--port', '0'], /listening on (\S+)/);
  try {
    const init = await packed.npx(['init', 'mybench']);
    assert.equal(init.code, 0, init.stderr);
    const bench = join(packed.projectDir, 'mybench');
    assert.match(init.stdout, /^wrote mybench\/: package\.json, scenario\.ts, tsconfig\.json, \.gitignore$/m);
    assert.match(init.stdout, /^ {2}npm run bench -- --target ws:\/\/127\.0\.0\.1:8080\/$/m);
    const manifest = JSON.parse(readFileSync(join(bench, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    assert.deepEqual(manifest.dependencies, { wsbench: `file:${packed.tarball}` }, 'the tarball it was installed from, not a registry version');
    const own = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    assert.deepEqual(manifest.devDependencies, { typescript: own.devDependencies.typescript, '@types/node': own.devDependencies['@types/node'] });
    assert.equal(readFileSync(join(bench, 'scenario.ts'), 'utf8'), readFileSync(join(REPO_ROOT, 'templates', 'init', 'scenario.ts'), 'utf8'));

    // Offline here, npm needs a lockfile to resolve from its cache; a user online runs plain `npm install`.
    writeFileSync(join(bench, 'package-lock.json'), `${JSON.stringify(offlineLock(bench, packed.tarball), null, 2)}\n`);
    let started = Date.now();
    await npm(['install'], bench);
    const installSeconds = (Date.now() - started) / 1000;

    const url = (await server.printed)[1]!;
    started = Date.now();
    const run = await runCli(['run', 'bench', '--', '--target', url], { cwd: bench, command: ['npm'], env: npmEnv(), timeoutMs: 300_000 });
    const benchSeconds = (Date.now() - started) / 1000;
    t.diagnostic(`npm install ${installSeconds.toFixed(1)} s, npm run bench (tsc, a 5 s window, report) ${benchSeconds.toFixed(1)} s`);
    assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    assert.match(run.stdout, /^server\s+client\s+status\s+echo p50 ms\s+echo p99 ms\s+add p99 ms\s+sha256 p50 ms\s+sha256 p99 ms\s+req\/s\s+errors/m);
    assert.match(run.stdout, /^127\.0\.0\.1:\d+\s+ws\s+ok\s+[\d.]+/m);
    assert.ok(existsSync(join(bench, 'wsbench-results.json')));
    assert.ok(existsSync(join(bench, 'wsbench-results.report', 'report.html')), run.stderr);
  } finally {
    server.child.kill('SIGKILL');
    packed.remove();
  }
});

test('init refuses a folder that is not empty, in one line, exit 2, and writes nothing', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'taken'));
  writeFileSync(join(dir, 'taken', 'notes.txt'), 'mine\n');
  const outcome = await runCli(['init', 'taken'], { cwd: dir });
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr, `wsbench: init: ${join(dir, 'taken')} is not empty: give a new or empty folder\n`);
  assert.ok(!existsSync(join(dir, 'taken', 'package.json')));
});

/**
 * `wsbench init` writes a test plan beside its scenario, and the project's
 * `npm run bench` runs it (`wsbench run --config plan.yaml`): here with the
 * scenario as `npm run build` compiles it, against the JSON-RPC example
 * server, the command line's --target overriding the plan's. (The whole
 * install, npm and tsc included, is packed-install.test.ts.)
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResultFile } from '../src/parent/results/result-file.js';
import { startPrintingServer } from './foreign-processes.js';
import { REPO_ROOT, runCli, tempDir } from './support.js';

/** templates/init/scenario.ts as this checkout's build compiled it: what the project's own build makes of it. */
const COMPILED_SCENARIO = fileURLToPath(new URL('../templates/init/scenario.js', import.meta.url));
const SERVER = join(REPO_ROOT, 'examples', 'jsonrpc', 'server.mjs');

const started: ChildProcess[] = [];
after(() =>
  started.forEach((child) => {
    child.kill('SIGKILL');
  }),
);

test('init writes plan.yaml and a bench script that runs it; the command line overrides its target', {
  timeout: 120_000,
}, async () => {
  const project = join(tempDir(), 'mybench');
  const init = await runCli(['init', project]);
  assert.equal(init.code, 0, init.stderr);
  assert.match(init.stdout, /^wrote .*: package\.json, scenario\.ts, plan\.yaml, tsconfig\.json, \.gitignore/m);
  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  assert.equal(manifest.scripts.bench, 'tsc -p . && wsbench run --config plan.yaml');
  assert.equal(
    readFileSync(join(project, 'plan.yaml'), 'utf8'),
    readFileSync(join(REPO_ROOT, 'templates', 'init', 'plan.yaml'), 'utf8'),
  );

  // What `npm install` and `tsc -p .` would leave: wsbench in node_modules, the scenario in dist/.
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(REPO_ROOT, join(project, 'node_modules', 'wsbench'));
  mkdirSync(join(project, 'dist'));
  copyFileSync(COMPILED_SCENARIO, join(project, 'dist', 'scenario.js'));

  const { child, printed } = startPrintingServer([process.execPath, SERVER, '--port', '0'], /listening on (\S+)/);
  started.push(child);
  const url = (await printed)[1]!;
  // The bench script's command, with what `npm run bench -- ...` appends.
  const bench = await runCli(
    ['run', '--config', 'plan.yaml', '--target', url, '--duration', '500ms', '--clients', 'ws', '--no-journal'],
    { cwd: project },
  );
  assert.equal(bench.code, 0, bench.stderr);
  const result = readResultFile(join(project, 'wsbench-results.json'));
  assert.deepEqual(
    result.cells.map((c) => [c.client, c.status]),
    [['ws', 'ok']],
  );
  assert.equal(result.plan?.contents.scenario, './dist/scenario.js');
  assert.deepEqual(result.plan?.contents.target, [url]);
  assert.deepEqual(result.plan?.commandLine, ['target', 'duration', 'clients', 'no-journal']);
});

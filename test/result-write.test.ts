/**
 * A measured run is never lost to the file system, and two runs never write
 * one result file: the table comes first, a failed write saves the results
 * elsewhere and says where, and a second writer of the same --out is refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readResultFile } from '../src/parent/results/result-file.js';
import { runCli, tempDir } from './support.js';
import { startCli } from './live-cli.js';

const ECHO = ['run', 'echo', '--servers', 'ws', '--clients', 'ws'];

test('the output folder removed mid-run: table first, results saved in the temp folder, one line says where', async () => {
  const dir = tempDir();
  const folder = join(dir, 'gone');
  mkdirSync(folder);
  const out = join(folder, 'r.json');
  // TMPDIR: the fallback copy lands in this test's own folder.
  const cli = startCli([...ECHO, '--duration', '1500ms', '--out', out], { cwd: dir, env: { TMPDIR: dir } });
  await cli.waitForStderr(/: started/);
  rmSync(folder, { recursive: true, force: true });
  const { code } = await cli.finished;

  assert.equal(code, 1, 'not where asked: the job must not go on as if it were');
  assert.match(cli.stdout(), /^ws\s+ws\s+ok[,\s]/m, 'the table is printed');
  const saved = /^results: could not write (\S+) \(its folder no longer exists\); saved to (\S+) instead$/m.exec(
    cli.stderr(),
  );
  assert.ok(saved, cli.stderr());
  assert.equal(saved[1], out);
  assert.ok(saved[2]!.startsWith(join(dir, 'wsbench-results-')), saved[2]);
  const result = readResultFile(saved[2]!);
  assert.equal(result.cells[0]?.status, 'ok');
  assert.ok(
    existsSync(join(saved[2]!.replace(/\.json$/, '.report'), 'report.html')),
    'the report goes beside the saved copy',
  );
  assert.doesNotMatch(cli.stderr(), /^\s+at /m, 'no stack trace');
});

test('--out where nothing can be created is refused with one line before anything runs', async () => {
  const outcome = await runCli([...ECHO, '--duration', '500ms', '--out', '/proc/wsbench-x.json']);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stdout, '');
  assert.match(outcome.stderr, /^wsbench: --out: [^\n]+\n$/);
});

test('a second run with the same --out is refused while the first holds it; the first keeps its file and report folder', async () => {
  const dir = tempDir();
  const out = join(dir, 'shared.json');
  const first = startCli([...ECHO, '--duration', '2s', '--out', out]);
  await first.waitForStderr(/: started/);
  const [second, report] = await Promise.all([
    runCli([...ECHO, '--duration', '500ms', '--out', out]),
    runCli(['report', out]),
  ]);
  assert.equal(second.code, 2);
  assert.equal(
    second.stderr,
    `wsbench: --out: ${out} is being written by another wsbench run (pid ${first.pid}); give this run another --out\n`,
  );
  assert.equal(report.code, 2);
  assert.equal(
    report.stderr,
    `wsbench: ${out} is being written by a wsbench run (pid ${first.pid}); report it once that run has ended\n`,
  );

  const { code } = await first.finished;
  assert.equal(code, 0, first.stderr());
  assert.equal(readResultFile(out).cells[0]?.status, 'ok');
  assert.ok(existsSync(join(dir, 'shared.report', 'report.html')), 'the report has a folder of its own');
  assert.ok(!existsSync(join(dir, 'report.html')) && !existsSync(join(dir, 'charts')), 'nothing loose beside the JSON');
  assert.ok(!existsSync(`${out}.lock`), 'the lock goes with the run');
});

test('a lock left by a killed run is stale and taken over', async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  writeFileSync(`${out}.lock`, JSON.stringify({ pid: dead, startTicks: 1 }));
  const outcome = await runCli([...ECHO, '--duration', '300ms', '--out', out]);
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.equal(readResultFile(out).cells[0]?.status, 'ok');
  assert.ok(!existsSync(`${out}.lock`));
});

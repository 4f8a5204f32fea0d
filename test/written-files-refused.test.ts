/**
 * wsbench writes only files it creates, where it was told: a symlink at a name
 * it writes is never written through, and a file it did not write is never
 * overwritten or deleted. Each case plants something at a name wsbench would
 * write (the journal, the lock, the report folder, a report file, init's
 * folder, --summary), runs the real bin, and expects one line naming the path,
 * exit 2, and the planted thing and what it points to untouched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  copyFileSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runCli, tempDir, usageErrorLine } from './support.js';
import { saveResult } from '../src/parent/results/result-file.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

/** A one-cell echo that, if not refused, runs and writes in a couple of seconds. */
const RUN = ['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '1s'];
const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'echo-run.json');
const VICTIM_TEXT = 'a file of yours, outside the output\n';

/** A folder with out/ (where wsbench is told to write) and elsewhere/victim.txt (where it must not). */
function layout(): { dir: string; out: string; victim: string; elsewhere: string } {
  const dir = tempDir();
  mkdirSync(join(dir, 'out'));
  const elsewhere = join(dir, 'elsewhere');
  mkdirSync(elsewhere);
  const victim = join(elsewhere, 'victim.txt');
  writeFileSync(victim, VICTIM_TEXT);
  return { dir, out: join(dir, 'out', 'o.json'), victim, elsewhere };
}

function assertLink(path: string, target: string): void {
  assert.ok(lstatSync(path).isSymbolicLink(), `${path} is still a symlink`);
  assert.equal(readlinkSync(path), target);
}

test('a symlink at <out>.journal is refused before the run, and nothing is written through it', async () => {
  const { dir, out, victim } = layout();
  symlinkSync('../elsewhere/victim.txt', `${out}.journal`);
  const line = usageErrorLine(await runCli([...RUN, '--out', 'out/o.json'], { cwd: dir }));
  assert.equal(
    line,
    `wsbench: --out: out/o.json.journal is a symbolic link: the run writes its journal there and replaces only a journal of its own; move it, or give another --out (or --no-journal)`,
  );
  assert.equal(readFileSync(victim, 'utf8'), VICTIM_TEXT);
  assertLink(`${out}.journal`, '../elsewhere/victim.txt');
  assert.deepEqual(readdirSync(join(dir, 'out')), ['o.json.journal'], 'nothing else written');
});

test('a file at <out>.journal that is no journal is neither overwritten nor deleted, --discard-journal or not', async () => {
  const { dir, out } = layout();
  writeFileSync(`${out}.journal`, VICTIM_TEXT);
  const outcomes = await Promise.all([
    runCli([...RUN, '--out', out], { cwd: dir }),
    runCli([...RUN, '--out', out, '--discard-journal'], { cwd: dir }),
  ]);
  for (const outcome of outcomes) {
    assert.equal(
      usageErrorLine(outcome),
      `wsbench: --out: ${out}.journal is not a wsbench journal: the run writes its journal there and replaces only a journal of its own; move it, or give another --out (or --no-journal)`,
    );
  }
  assert.equal(readFileSync(`${out}.journal`, 'utf8'), VICTIM_TEXT);
});

test('a file at <out>.lock that holds no lock is not taken over as stale, nor deleted; a symlink there is not removed', async () => {
  const file = layout();
  writeFileSync(`${file.out}.lock`, VICTIM_TEXT);
  const link = layout();
  symlinkSync('../elsewhere/victim.txt', `${link.out}.lock`);
  const [onFile, onLink] = await Promise.all([
    runCli([...RUN, '--out', file.out, '--no-journal']),
    runCli([...RUN, '--out', link.out, '--no-journal']),
  ]);
  const tail = (out: string): string =>
    `wsbench keeps the lock of ${out} there and removes only a lock of its own; move it, or give another --out`;
  assert.equal(usageErrorLine(onFile), `wsbench: --out: ${file.out}.lock is not a wsbench lock: ${tail(file.out)}`);
  assert.equal(usageErrorLine(onLink), `wsbench: --out: ${link.out}.lock is a symbolic link: ${tail(link.out)}`);
  assert.equal(readFileSync(`${file.out}.lock`, 'utf8'), VICTIM_TEXT);
  assertLink(`${link.out}.lock`, '../elsewhere/victim.txt');
  assert.equal(readFileSync(link.victim, 'utf8'), VICTIM_TEXT);
});

test('a symlinked report folder (<name>.report) is refused before the run, and nothing lands where it points', async () => {
  const { dir, out, elsewhere } = layout();
  symlinkSync('../elsewhere', join(dir, 'out', 'o.report'));
  const line = usageErrorLine(await runCli([...RUN, '--out', out, '--no-journal']));
  assert.equal(
    line,
    `wsbench: ${join(dir, 'out', 'o.report')} is a symbolic link: wsbench writes a report folder only through real folders`,
  );
  assert.deepEqual(readdirSync(elsewhere), ['victim.txt']);
});

test('report --out into a folder holding a report.html of its own: refused, the file kept', async () => {
  const { dir } = layout();
  const result = join(dir, 'r.json');
  copyFileSync(FIXTURE, result);
  const site = join(dir, 'site');
  mkdirSync(site);
  writeFileSync(join(site, 'report.html'), VICTIM_TEXT);
  const line = usageErrorLine(await runCli(['report', result, '--out', site]));
  assert.equal(
    line,
    `wsbench: --out: ${join(site, 'report.html')} is not a file wsbench wrote: wsbench replaces only files it wrote; move it, or write the report to another folder`,
  );
  assert.equal(readFileSync(join(site, 'report.html'), 'utf8'), VICTIM_TEXT);
  assert.deepEqual(readdirSync(site), ['report.html']);
});

test('init into a symlink to an empty folder is refused, and nothing is written there', async () => {
  const { dir, elsewhere } = layout();
  const empty = join(elsewhere, 'empty');
  mkdirSync(empty);
  symlinkSync(empty, join(dir, 'mybench'));
  const line = usageErrorLine(await runCli(['init', 'mybench'], { cwd: dir }));
  assert.equal(
    line,
    `wsbench: init: ${join(dir, 'mybench')} is a symbolic link: give a new or empty folder (init writes only into a real one)`,
  );
  assert.deepEqual(readdirSync(empty), []);
});

test('compare --summary through a symlink is refused, and nothing is appended where it points', async () => {
  const { dir, victim } = layout();
  const summary = join(dir, 'summary.md');
  symlinkSync(victim, summary);
  const line = usageErrorLine(await runCli(['compare', FIXTURE, FIXTURE, '--summary', summary]));
  assert.equal(line, `wsbench: --summary: ${summary} is a symbolic link, not a regular file`);
  assert.equal(readFileSync(victim, 'utf8'), VICTIM_TEXT);
});

test('a result that cannot go to --out falls back to a new file: a symlink planted at the temp folder name is neither followed nor replaced', () => {
  const { dir, victim } = layout();
  const result = JSON.parse(readFileSync(FIXTURE, 'utf8')) as BenchResult;
  // The fallback name is predictable (start time and pid): a stranger sharing /tmp can plant a link there first.
  const name = `wsbench-results-${result.startedAt.replace(/[:.]/g, '-')}-${process.pid}.json`;
  const planted = join(tmpdir(), name);
  symlinkSync(victim, planted);
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const saved = saveResult(join(dir, 'no-such-folder', 'o.json'), result);
    assert.equal(saved.path, join(dir, name), 'saved in the current folder, the next place');
    assert.equal(readFileSync(victim, 'utf8'), VICTIM_TEXT);
    assertLink(planted, victim);
  } finally {
    process.chdir(cwd);
    rmSync(planted, { force: true });
  }
});

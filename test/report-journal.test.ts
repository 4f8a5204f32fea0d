/**
 * `wsbench report` and `wsbench compare` read a journal as the result it
 * rebuilds (saying so on stderr), without writing that result or consuming
 * the journal: `recover` is the command that does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crashedJournal } from './crashed-journal.js';
import { runCli } from './support.js';

test('report and compare take a journal for the result it rebuilds', { timeout: 120_000 }, async () => {
  const { dir, out, journal, written } = await crashedJournal();

  const report = await runCli(['report', journal]);
  assert.equal(report.code, 0, report.stderr);
  assert.match(report.stderr, /r\.json\.journal: recovered from journal/);
  assert.ok(existsSync(join(dir, 'r.report', 'report.html')), "the report goes where the run's would have");

  const base = join(dir, 'base.json');
  writeFileSync(base, JSON.stringify(written));
  const compare = await runCli(['compare', base, journal]);
  assert.equal(compare.code, 0, compare.stderr);
  assert.match(compare.stderr, /^note: .*r\.json\.journal: recovered from journal/m);
  assert.match(compare.stdout, /ws/);

  assert.ok(existsSync(journal), 'the journal stays');
  assert.ok(!existsSync(out), 'and no result file is written');
});

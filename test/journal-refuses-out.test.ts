/**
 * A run whose --out has a journal left by a run that stopped without writing
 * its result refuses to start (one line naming `wsbench recover`, exit 2),
 * since starting would overwrite what that run measured; --discard-journal
 * says to start over anyway.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { crashedJournal } from './crashed-journal.js';
import { runCli } from './support.js';

test('a run refuses an --out whose journal waits for recovery, and starts over with --discard-journal', {
  timeout: 120_000,
}, async () => {
  const { out, journal } = await crashedJournal();
  const before = readFileSync(journal, 'utf8');
  const args = ['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '1s', '--out', out];

  const refused = await runCli(args);
  assert.equal(refused.code, 2, refused.stderr);
  const lines = refused.stderr.trim().split('\n');
  assert.equal(lines.length, 1, refused.stderr);
  assert.match(
    lines[0]!,
    /--out: .*r\.json\.journal holds a run that stopped at \d{4}-.* without writing its result; rebuild it with "wsbench recover .*r\.json\.journal", or give --discard-journal/,
  );
  assert.equal(readFileSync(journal, 'utf8'), before, 'the journal is untouched');
  assert.ok(!existsSync(out));

  const started = await runCli([...args, '--discard-journal']);
  assert.equal(started.code, 0, started.stderr);
  assert.ok(existsSync(out), 'the result is written');
  assert.ok(!existsSync(journal), "and the new journal is gone with the run's normal end");
});

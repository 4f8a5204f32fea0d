/**
 * `wsbench recover` computes metrics with the scenario's own code, loaded again
 * by the name or path the journal records: when it cannot be loaded, that is
 * one line and exit 2, no result is guessed, and the journal stays.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crashedJournal } from './crashed-journal.js';
import { runCli } from './support.js';

test('recover says in one line that the scenario cannot be loaded again, exits 2 and keeps the journal', {
  timeout: 120_000,
}, async () => {
  const { dir, out, journal } = await crashedJournal();
  const gone = join(dir, 'moved-away.js');
  const [header, ...rest] = readFileSync(journal, 'utf8').split('\n');
  const edited = JSON.parse(header!) as { scenario: { given: string } };
  edited.scenario.given = gone;
  writeFileSync(journal, [JSON.stringify(edited), ...rest].join('\n'));

  const recovered = await runCli(['recover', journal]);
  assert.equal(recovered.code, 2, recovered.stderr);
  const lines = recovered.stderr.trim().split('\n');
  assert.equal(lines.length, 1, recovered.stderr);
  assert.match(lines[0]!, /cannot load scenario .*moved-away\.js again to compute its metrics/);
  assert.ok(existsSync(journal), 'the journal stays');
  assert.ok(!existsSync(out), 'no result is written');
});

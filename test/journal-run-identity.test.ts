/**
 * A result rebuilt from a journal says what was run as the run's own result
 * does: its command line (`argv`), its warnings and its loopback host.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { crashedJournal } from './crashed-journal.js';
import { runCli } from './support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

test("recover carries the run's argv, warnings and host into the rebuilt result", { timeout: 120_000 }, async () => {
  // --insecure against a wss:// target gives the run a warning; nothing listens there, so the cell fails at once (exit 1).
  const runArgs = ['echo', '--target', 'wss://127.0.0.1:9/', '--insecure', '--clients', 'ws', '--duration', '300ms'];
  const { out, journal, written } = await crashedJournal(runArgs, 1);
  assert.equal(written.warnings?.length, 1, 'the run itself has a warning to carry');

  const recovered = await runCli(['recover', journal]);
  assert.equal(recovered.code, 0, recovered.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  assert.ok(result.recovered, 'rebuilt from the journal');
  assert.deepEqual(result.argv, written.argv);
  assert.deepEqual(result.warnings, written.warnings);
  assert.equal(result.host, written.host);
});

/**
 * A scenario whose top-level await never settles is named as one that never
 * finished loading, one line, exit 2: not the CLI's "work unfinished" internal
 * error, which is what Node's emptied event loop looked like before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { REPO_ROOT, runCli, tempDir, usageErrorLine } from './support.js';

const NEVER = join(REPO_ROOT, 'dist', 'test', 'fixtures', 'never-loads-scenario.js');
const SAID = `wsbench: scenario ${NEVER} never finished loading: its module's top-level await waits for something that can never happen`;

test('run of a scenario that never finishes loading: one line naming it, exit 2', async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(['run', NEVER, '--servers', 'ws', '--clients', 'ws', '--out', out], {
    timeoutMs: 60_000,
  });
  assert.equal(usageErrorLine(outcome), SAID);
});

test('capacity of a scenario that never finishes loading: the same line, exit 2', async () => {
  const outcome = await runCli(
    ['capacity', NEVER, '--servers', 'ws', '--clients', 'ws', '--slo', 'p99<500ms', '--out', join(tempDir(), 'c.json')],
    { timeoutMs: 60_000 },
  );
  assert.equal(usageErrorLine(outcome), SAID);
});

/**
 * `recover` holds <out>.lock while it rebuilds a result; every interrupt
 * (SIGINT, SIGTERM, SIGHUP) ends it with its lock released and its journal
 * kept for another try, never a lock left behind with a dead pid. The
 * journal's scenario loads slowly (test/fixtures/slow-import-scenario.ts), so
 * the signal reaches recover while it holds the lock, however busy the machine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { crashedJournal } from './crashed-journal.js';
import { startCli } from './live-cli.js';
import { eventually } from './foreign-processes.js';

const SLOW_SCENARIO = fileURLToPath(new URL('./fixtures/slow-import-scenario.js', import.meta.url));
const SIGNALS = [
  ['SIGINT', 130],
  ['SIGTERM', 130],
  ['SIGHUP', 129],
] as const;

test('recover interrupted while it holds the lock: exit 130 (129 for SIGHUP), no lock left, the journal kept', {
  timeout: 180_000,
}, async () => {
  const { out, journal } = await crashedJournal([
    SLOW_SCENARIO,
    '--servers',
    'ws',
    '--clients',
    'ws',
    '--duration',
    '500ms',
  ]);
  const before = readFileSync(journal);
  for (const [signal, code] of SIGNALS) {
    const cli = startCli(['recover', journal], { env: { WSBENCH_TEST_IMPORT_DELAY_MS: '60000' } });
    assert.ok(
      await eventually(() => existsSync(`${out}.lock`), 60_000),
      `${signal}: recover never took the lock: ${cli.stderr()}`,
    );
    cli.child.kill(signal);
    const ended = await cli.finished;
    assert.deepEqual(ended, { code, signal: null }, `${signal}: ${cli.stderr()}`);
    assert.equal(existsSync(`${out}.lock`), false, `${signal}: the lock is left behind`);
    assert.ok(readFileSync(journal).equals(before), `${signal}: the journal changed`);
    assert.equal(existsSync(out), false, `${signal}: a result was written`);
  }
});

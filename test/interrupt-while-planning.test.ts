/**
 * No moment of a run is deaf to Ctrl+C. An interrupt that comes while `run`
 * still loads its scenario (before it starts anything) is held, then answered
 * as any other: the result is written, interrupted, every cell "interrupted
 * before it started", exit 130, where it used to kill wsbench before it could
 * write a word. The scenario here loads for seconds and says when it starts
 * loading (test/fixtures/slow-import-scenario.ts), so the signal lands in
 * that window however busy the machine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResultFile } from '../src/parent/results/result-file.js';
import { runCli, tempDir } from './support.js';

const SLOW_SCENARIO = fileURLToPath(new URL('./fixtures/slow-import-scenario.js', import.meta.url));

test('SIGINT while run loads its scenario: held, then answered with an interrupted result and exit 130', {
  timeout: 120_000,
}, async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const marker = join(dir, 'loading');
  let pid = 0;
  const running = runCli(
    ['run', SLOW_SCENARIO, '--servers', 'ws', '--clients', 'ws', '--duration', '5s', '--out', out],
    {
      env: { WSBENCH_TEST_IMPORT_DELAY_MS: '3000', WSBENCH_TEST_IMPORT_MARKER: marker },
      timeoutMs: 100_000,
      onSpawn: (p) => (pid = p),
    },
  );
  for (let i = 0; i < 1200 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(existsSync(marker), 'the scenario started loading');
  process.kill(pid, 'SIGINT');
  const outcome = await running;
  assert.equal(outcome.signal, null, `wsbench died of ${outcome.signal}: ${outcome.stderr}`);
  assert.equal(outcome.code, 130, outcome.stderr);
  assert.match(outcome.stderr, /^interrupted: finishing the current cell and writing what was measured/m);
  const result = readResultFile(out);
  assert.equal(result.interrupted, true);
  assert.deepEqual(
    result.cells.map((c) => [c.status, 'reason' in c ? c.reason : null]),
    [['skipped', 'interrupted before it started']],
  );
});

/**
 * A Chromium (WSBENCH_CHROMIUM) that hangs on --version: the probe gives up at its deadline, the browser's
 * cell is n/a with that reason, and nothing the binary started survives wsbench. The fake is a script whose
 * `sleep 30` would be left to PID 1 if only the script were killed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult } from '../src/shared/types/result-types.js';
import { runCli, tempDir } from './support.js';

/** Whether `pid` is a live process (a zombie awaiting its reaper counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

test('a Chromium that hangs on --version: n/a after the deadline, and no process of it survives', {
  timeout: 120_000,
}, async () => {
  const dir = tempDir();
  const fake = join(dir, 'chromium');
  const pids = join(dir, 'pids');
  writeFileSync(
    fake,
    `#!/bin/sh\nif [ "$1" = --version ]; then sleep 30 & echo "$$ $!" > ${pids}; wait; echo "Chromium 1.2.3.4"; fi\n`,
  );
  chmodSync(fake, 0o755);
  const out = join(dir, 'r.json');
  const outcome = await runCli(
    ['run', 'echo', '--servers', 'ws', '--clients', 'browser', '--duration', '300ms', '--out', out],
    { env: { WSBENCH_CHROMIUM: fake }, timeoutMs: 60_000 },
  );
  assert.equal(outcome.code, 1, outcome.stderr);
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.equal(cell?.status, 'skipped');
  assert.equal(
    'reason' in cell! ? cell.reason : '',
    `client browser unavailable: ${fake} --version failed (WSBENCH_CHROMIUM=${fake}): did not answer within 15 s`,
  );
  const started = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
  assert.equal(started.length, 2);
  // Killed with its group when the deadline passed; its reaper may take a moment on a loaded machine.
  for (let waited = 0; waited < 5000 && started.some(alive); waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(started.filter(alive), [], 'the script and its sleep are gone, none of them left to PID 1');
});

/**
 * A folder wsbench is told to make (init's project, report --out) where the
 * system takes none is one line and exit 2, at once: /proc answers mkdir with
 * ENOENT (Node's recursive mkdir then retried forever at full CPU), /sys with
 * EPERM, an immutable parent with EPERM, a file in the path with ENOTDIR.
 * /proc and /sys refuse every user, root included; the immutable parent needs
 * root (chattr +i) and is skipped, with the reason, without it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, runCli, tempDir, usageErrorLine } from './support.js';

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'echo-run.json');
/** Far beyond a refusal, far short of the test's own timeout: a spinning mkdir is killed and fails the test. */
const HANG_MS = 20_000;

async function refused(args: string[]): Promise<string> {
  const outcome = await runCli(args, { cwd: tempDir(), timeoutMs: HANG_MS });
  assert.equal(outcome.signal, null, `still running after ${HANG_MS / 1000} s: killed`);
  return usageErrorLine(outcome);
}

test('init and report --out in /proc: one line, exit 2, no endless mkdir', async () => {
  assert.equal(
    await refused(['init', '/proc/wsbench-newdir']),
    'wsbench: cannot create the folder /proc/wsbench-newdir: /proc takes no new folder (ENOENT)',
  );
  assert.equal(
    await refused(['report', FIXTURE, '--out', '/proc/wsbench-newdir/deeper']),
    'wsbench: cannot create the folder /proc/wsbench-newdir: /proc takes no new folder (ENOENT)',
  );
});

test('init and report --out in /sys: one line, exit 2, no stack', async () => {
  assert.equal(
    await refused(['init', '/sys/wsbench-newdir']),
    'wsbench: cannot create the folder /sys/wsbench-newdir: not permitted in /sys (EPERM)',
  );
  assert.equal(
    await refused(['report', FIXTURE, '--out', '/sys/wsbench-newdir']),
    'wsbench: cannot create the folder /sys/wsbench-newdir: not permitted in /sys (EPERM)',
  );
});

test('init below a file: one line, exit 2', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'a-file'), 'not a folder\n');
  assert.equal(
    await refused(['init', join(dir, 'a-file', 'project')]),
    `wsbench: cannot create the folder ${join(dir, 'a-file', 'project')}: a part of its path is not a folder (ENOTDIR)`,
  );
});

test('init in a folder whose parent is immutable: one line, exit 2', async (t) => {
  if (process.getuid?.() !== 0) return t.skip('chattr +i needs root');
  const parent = join(tempDir(), 'immutable');
  mkdirSync(parent);
  if (spawnSync('chattr', ['+i', parent]).status !== 0)
    return t.skip('chattr +i is not available here (no chattr, or a file system without the flag)');
  try {
    assert.equal(
      await refused(['init', join(parent, 'project')]),
      `wsbench: cannot create the folder ${join(parent, 'project')}: not permitted in ${parent} (EPERM)`,
    );
    assert.equal(existsSync(join(parent, 'project')), false);
  } finally {
    spawnSync('chattr', ['-i', parent]);
  }
});

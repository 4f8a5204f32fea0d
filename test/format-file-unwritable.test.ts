/**
 * A --format file whose folder takes no new file (/proc) is refused before anything runs, like --out,
 * with one line that says so: not after the whole run, and not as a folder that "no longer exists".
 * As root /proc passes the permission check and only a write tells; as anyone else the permission
 * check refuses it first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, usageErrorLine } from './support.js';

const RUN = ['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '30s'];
const problem = (path: string): string =>
  process.getuid?.() === 0
    ? `cannot write in the folder of ${path} (its folder takes no new files)`
    : `${path} is not writable`;

test('--format csv=/proc/x is refused before the run starts, and --out /proc/x the same way', async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const format = await runCli([...RUN, '--format', 'csv=/proc/x', '--out', out], { cwd: dir, timeoutMs: 20_000 });
  assert.equal(usageErrorLine(format), `wsbench: --format csv=/proc/x: ${problem('/proc/x')}`);
  const result = await runCli([...RUN, '--out', '/proc/x'], { cwd: dir, timeoutMs: 20_000 });
  assert.equal(usageErrorLine(result), `wsbench: --out: ${problem('/proc/x')}`);
  const merged = await runCli(['merge', out, '--out', '/proc/x'], { cwd: dir, timeoutMs: 20_000 });
  assert.equal(usageErrorLine(merged), `wsbench: --out: ${problem('/proc/x')}`);
  assert.ok(!existsSync(out));
  assert.deepEqual(readdirSync(dir), [], 'nothing written, not even a probe left behind');
});

/**
 * A run that ends normally removes its journal once the result is written,
 * and keeps it when told (--keep-journal), marked with an end record naming
 * the result, so that the next run at that --out is not refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './support.js';

test('a normal end removes the journal, or keeps it marked as ended with --keep-journal', {
  timeout: 120_000,
}, async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const args = ['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '1s', '--out', out];

  const plain = await runCli(args);
  assert.equal(plain.code, 0, plain.stderr);
  assert.ok(existsSync(out));
  assert.ok(!existsSync(`${out}.journal`), 'removed after a normal end');

  const kept = await runCli([...args, '--keep-journal']);
  assert.equal(kept.code, 0, kept.stderr);
  assert.match(kept.stderr, /^journal: .*r\.json\.journal$/m);
  const last = readFileSync(`${out}.journal`, 'utf8').trim().split('\n').at(-1)!;
  assert.deepEqual({ ...JSON.parse(last), atMs: 0 }, { type: 'end', atMs: 0, result: out, by: 'run' });

  const again = await runCli(args);
  assert.equal(again.code, 0, `a kept journal of a finished run does not block its --out: ${again.stderr}`);
});

/**
 * Ctrl+C during a capacity step: the step was cut, so it neither held nor broke the SLO. It is recorded as
 * `interrupted` (verdict and outcome), the terminal's steps table and the progress line say so, and nothing
 * calls it broken.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readResultFile } from '../src/parent/results/result-file.js';
import type { CapacityResult } from '../src/parent/index.js';
import { INTERRUPTED_STEP } from '../src/parent/report/capacity/capacity-table.js';
import { tempDir } from './support.js';
import { startCli } from './live-cli.js';

test('a step cut by Ctrl+C is interrupted, not broken', { timeout: 180_000 }, async () => {
  const dir = tempDir();
  const out = join(dir, 'cap.json');
  const cli = startCli(
    ['capacity', 'echo', '--slo', 'p99<500ms', '--servers', 'ws', '--start', '2', '--duration', '10s', '--out', out],
    { cwd: dir },
  );
  await cli.waitForStderr(/^ws x ws:$/m);
  // The first step has started (the search calls it right after that line) and its 10 s window has not ended.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  cli.child.kill('SIGINT');
  const { code } = await cli.finished;
  assert.equal(code, 130, cli.stderr());

  const result = readResultFile(out) as CapacityResult;
  const [server] = result.capacity.servers;
  assert.equal(server?.end, 'interrupted');
  assert.deepEqual(
    server.steps.map((s) => [s.count, s.verdict, s.outcome, s.causes, s.breaches]),
    [[2, 'interrupted', 'interrupted', [], []]],
  );
  assert.equal(server.broke, null);
  assert.match(
    cli.stderr(),
    new RegExp(`^ {2}2 connections, 1 client proc: .*-> ${INTERRUPTED_STEP} \\(\\d+ s\\)$`, 'm'),
  );
  assert.match(cli.stdout(), new RegExp(`^ {2}\\s*2\\s+ramp\\s+1\\s.*\\s${INTERRUPTED_STEP}$`, 'm'));
  assert.doesNotMatch(cli.stdout() + cli.stderr(), /broken/);
});

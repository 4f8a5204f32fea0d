/**
 * A run in stages from a test plan: the plan's `stages:` list becomes the
 * cell's stages, the window lasts their total, and each stage is reported on
 * its own (its own rate, under the table and in the JSON), with the whole cell's
 * numbers beside them. A wrong stage in a plan is one line naming the file and
 * the key, exit 2, before anything starts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMeasured } from '../src/parent/index.js';
import { readResultFile } from '../src/parent/results/result-file.js';
import { runCli, tempDir } from './support.js';

test('run --config plan.yaml with a stages list reports each stage', async () => {
  const dir = tempDir();
  const plan = join(dir, 'plan.yaml');
  const out = join(dir, 'r.json');
  writeFileSync(
    plan,
    [
      'scenario: echo',
      'servers: ws',
      'clients: ws',
      'connections: 2',
      'rate: 200',
      'stages:',
      '  - { duration: 1s, target: 200 }',
      '  - { duration: 1s, target: 800 }',
      '  - { duration: 1s, target: 800 }',
      '',
    ].join('\n'),
  );
  const outcome = await runCli(['run', '--config', plan, '--out', out]);
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.match(outcome.stdout, /^stages of ws x ws \(open model, from 200\/s in stages\):$/m);
  assert.match(outcome.stdout, /^stage +window s +target +p50 ms/m);
  const rows = outcome.stdout.split('\n').filter((line) => /^[123] +\d/.test(line));
  assert.equal(rows.length, 3, outcome.stdout);
  const cell = readResultFile(out).cells[0]!;
  assert.ok(cell.status === 'ok' && isMeasured(cell), 'reason' in cell ? cell.reason : '');
  assert.equal(cell.params.duration, 3000, 'the window is the stages total');
  assert.equal(cell.params.stages, '1s:200,1s:800,1s:800');
  const stages = cell.stages!;
  assert.deepEqual(
    stages.map((s) => [s.index, s.startMs, s.endMs, s.target]),
    [
      [0, 0, 1000, 200],
      [1, 1000, 2000, 800],
      [2, 2000, 3000, 800],
    ],
  );
  // 200/s held, a ramp from 200 to 800 (500/s on average), 800/s held: each stage's own rate, within 10 %.
  const rates = stages.map((s) => s.metrics.messagesPerSec as number);
  for (const [i, expected] of [200, 500, 800].entries())
    assert.ok(Math.abs(rates[i]! - expected) <= 0.1 * expected, `stage ${i + 1}: ${rates[i]} msg/s, not ${expected}`);
  assert.ok(
    stages.every((s) => (s.measurements.latency.rtt?.count ?? 0) > 0),
    'each stage has its own histogram',
  );
  // The stages add up to the cell: their replies are the cell's, split where the stages end.
  const replies = stages.reduce((sum, s) => sum + (s.measurements.counters.received ?? 0), 0);
  assert.equal(replies, cell.measurements.counters.received);
  assert.ok(
    stages.every((s) => s.resources.clients.length === 1),
    'each stage has its client CPU',
  );
  assert.equal(cell.noInterval?.messagesPerSec?.startsWith('the load changes through the window (stages)'), true);
  // The latency-over-time chart shades the stages, each labelled with its target.
  const overTime = JSON.parse(readFileSync(join(dir, 'r.report', 'charts', 'echo-over-time.vl.json'), 'utf8'));
  const bands = (overTime.data.values as Array<{ stage?: string; stageStartS?: number }>).filter((v) => v.stage);
  assert.deepEqual(
    bands.map((b) => [b.stage, b.stageStartS]),
    [
      ['1: to 200', 0],
      ['2: to 800', 1],
      ['3: to 800', 2],
    ],
  );
});

test('a stage a plan gets wrong is one line naming the file and the key, exit 2', async () => {
  const dir = tempDir();
  const plan = join(dir, 'plan.yaml');
  writeFileSync(plan, 'scenario: echo\nrate: 10\nstages:\n  - { duration: 1s }\n');
  const outcome = await runCli(['run', '--config', plan, '--out', join(dir, 'r.json')]);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr, `wsbench: ${plan}: stages: stage 1 needs both duration and target\n`);
});

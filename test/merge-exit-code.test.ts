/**
 * `merge` exits as `run` does: a shard whose cell lost connections makes the merged cell `errors`, and
 * merge then exits 1 with the reason on stderr, unless --max-errors allows that many. The merged file is
 * written either way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult } from '../src/shared/types/result-types.js';
import { readResultFile } from '../src/parent/results/result-file.js';
import { runCli, tempDir, usageErrorLine } from './support.js';
import { cell, exponentialHistogram, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { shardInfo } from './fixtures/shard-info.js';

/** Shard `index` of two; shard 1 lost 3 of its 10 connections. */
function shard(index: number): BenchResult {
  const scenario = scenarioInfo('fanout', { metrics: {}, table: [], charts: [] });
  const histograms = { delay: exponentialHistogram(100, 300, index) };
  const made = cell('fanout', { server: 'target', client: 'ws', histograms, status: index === 1 ? 'errors' : 'ok' });
  if (made.status === 'errors') {
    made.reason = '3 of 10 connections lost (the first 0.50 s into the window)';
    made.fault = { atMs: 500, connections: { opened: 10, failed: 0, lost: 3 } };
  }
  return { ...result(scenario, [made]), shard: shardInfo(index) };
}

function shardFiles(dir: string): string[] {
  return [0, 1].map((index) => {
    const path = join(dir, `s${index}.json`);
    writeFileSync(path, JSON.stringify(shard(index)));
    return path;
  });
}

test('merge of a shard with errors exits 1 and says why; --max-errors allows them', async () => {
  const dir = tempDir();
  const shards = shardFiles(dir);
  const out = join(dir, 'merged.json');

  const strict = await runCli(['merge', ...shards, '--out', out]);
  assert.equal(strict.code, 1, strict.stderr);
  assert.equal(
    strict.stderr.trimEnd().split('\n').at(-1),
    'exit 1: 1 cell with errors (at most 3 in a cell) beyond --max-errors 0',
  );
  assert.equal(readResultFile(out).cells[0]?.status, 'errors');

  const below = await runCli(['merge', ...shards, '--out', join(dir, 'below.json'), '--max-errors', '2']);
  assert.equal(below.code, 1, below.stderr);
  assert.equal(
    below.stderr.trimEnd().split('\n').at(-1),
    'exit 1: 1 cell with errors (at most 3 in a cell) beyond --max-errors 2',
  );

  const allowed = await runCli(['merge', ...shards, '--out', join(dir, 'allowed.json'), '--max-errors', '3']);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(readResultFile(join(dir, 'allowed.json')).cells[0]?.status, 'errors');
});

test('merge --max-errors that is not a whole number is refused before anything is read', async () => {
  const dir = tempDir();
  const outcome = await runCli(['merge', join(dir, 'gone.json'), '--out', join(dir, 'm.json'), '--max-errors', '-1']);
  assert.match(usageErrorLine(outcome), /^wsbench: --max-errors: /);
});

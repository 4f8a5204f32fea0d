/**
 * `merge --out` never overwrites one of its inputs: the same file by name, by
 * a relative path, through a symlink or a hard link, is refused in one
 * line with exit 2, and the shard file is left as it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult } from '../src/shared/types/result-types.js';
import { runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { shardInfo } from './fixtures/shard-info.js';

function shard(index: number): BenchResult {
  const scenario = scenarioInfo('fanout', { metrics: {}, table: [], charts: [] });
  return {
    ...result(scenario, [
      cell('fanout', { server: 'target', client: 'ws', histograms: { delay: exponentialHistogram(100, 300, index) } }),
    ]),
    shard: shardInfo(index),
  };
}

test('merge --out naming an input, directly or through a link, is refused and the input kept', async () => {
  const dir = tempDir();
  const [s0, s1] = [0, 1].map((i) => {
    const path = join(dir, `s${i}.json`);
    writeFileSync(path, JSON.stringify(shard(i)));
    return path;
  }) as [string, string];
  const before = readFileSync(s0, 'utf8');
  symlinkSync(s0, join(dir, 'link.json'));
  linkSync(s1, join(dir, 'hard.json'));
  const cases: Array<[string, string]> = [
    [s0, s0],
    ['s0.json', s0],
    [join(dir, 'link.json'), s0],
    [join(dir, 'hard.json'), s1],
  ];
  for (const [out, input] of cases) {
    const outcome = await runCli(['merge', s0, s1, '--out', out], { cwd: dir });
    assert.equal(outcome.code, 2, outcome.stderr);
    assert.equal(
      outcome.stderr,
      `wsbench: --out: ${out} is the input ${input}; write the merged result to another file\n`,
    );
    assert.equal(outcome.stdout, '');
  }
  assert.equal(readFileSync(s0, 'utf8'), before);
  const fine = await runCli(['merge', s0, s1, '--out', join(dir, 'merged.json')]);
  assert.equal(fine.code, 0, fine.stderr);
});

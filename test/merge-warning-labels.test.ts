/**
 * What `merge` says names cells as the table does (`sharded target x ws
 * payload=32B`, never a JSON cell key), and shards of different
 * configurations are refused with the settings that differ, not two hashes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import { isMeasured, type BenchResult, type CellResult } from '../src/shared/types/result-types.js';
import { mergeShards } from '../src/parent/shard/merge.js';
import { runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, resources, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { shardInfo } from './fixtures/shard-info.js';
import { rateMetric } from './fixtures/metric-declarations.js';

const METRICS: Record<string, MetricInfo> = {
  messagesPerSec: rateMetric(),
};
const INFO = scenarioInfo('sharded', {
  parameters: { payload: { kind: 'size', description: 'made up', default: 32, sweepable: true } },
  metrics: METRICS,
  table: ['messagesPerSec'],
  charts: [],
});

function shard(index: number, rate: number, clientCpu: number, configHash = 'abc', clientProcesses = 1): BenchResult {
  const info = shardInfo(index, { configHash });
  const cells: CellResult[] = [32, 1024].map((payload) => {
    const c = cell('sharded', {
      server: 'target',
      client: 'ws',
      params: { payload },
      histograms: { delay: exponentialHistogram(100, 300, index) },
      counters: { received: rate * 2 },
      metrics: { messagesPerSec: rate },
    });
    if (isMeasured(c)) c.resources.clients = [resources(clientCpu, clientCpu + 5, 80)];
    return c;
  });
  return { ...result(INFO, cells), clientProcesses, shard: info };
}

test('merge warnings name cells as the table does', async () => {
  const merged = await mergeShards(
    [shard(0, 1000, 95), shard(1, 2000, 10)].map((r, i) => ({ source: `s${i}.json`, result: r })),
  );
  const warnings = merged.merge!.warnings;
  assert.ok(
    warnings.includes(
      'shard 0, sharded target x ws payload=32B: load generator saturated (from 85% of a core): CPU 95% of a core (peak 100%), event loop busy 50.0%; ' +
        'its latencies include its own queueing; spread the load over more client processes (--client-procs 2 or more)',
    ),
    warnings.join('\n'),
  );
  assert.ok(
    warnings.some((w) =>
      w.startsWith('sharded target x ws payload=1KiB: msg/s differs between shards by 67% of the mean'),
    ),
    warnings.join('\n'),
  );
  for (const w of warnings) assert.doesNotMatch(w, /\["|\{"/, `no JSON cell key in: ${w}`);
});

test('shards of different configurations are refused naming the settings that differ', async () => {
  const dir = tempDir();
  const paths = [shard(0, 1000, 10, 'abc', 1), shard(1, 1000, 10, 'def', 2)].map((r, i) => {
    const path = join(dir, `s${i}.json`);
    writeFileSync(path, JSON.stringify(r));
    return path;
  });
  const outcome = await runCli(['merge', ...paths, '--out', join(dir, 'merged.json')]);
  assert.equal(outcome.code, 2, outcome.stderr);
  assert.equal(
    outcome.stderr,
    `wsbench: merge: ${paths[1]} was run with another configuration than ${paths[0]}: client processes 2 vs 1\n`,
  );
});

test('when the files show no difference, the refusal says so and what was compared', async () => {
  const dir = tempDir();
  const paths = [shard(0, 1000, 10, 'abc'), shard(1, 1000, 10, 'def')].map((r, i) => {
    const path = join(dir, `s${i}.json`);
    writeFileSync(path, JSON.stringify(r));
    return path;
  });
  const outcome = await runCli(['merge', ...paths, '--out', join(dir, 'merged.json')]);
  assert.equal(outcome.code, 2, outcome.stderr);
  assert.equal(
    outcome.stderr,
    `wsbench: merge: ${paths[1]} was run with another configuration than ${paths[0]} (configuration hash def vs abc), ` +
      'but the files agree on what they record of it (scenario declarations, cells and parameters, servers, clients, targets, client processes, rounds, shard count)\n',
  );
});

/**
 * The configuration hash a shard result carries: equal for the same run on any
 * host (whatever order the options came in, whatever each host's --target-pid),
 * different when anything the shards must share differs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planRun, type RunOptions } from '../src/parent/run.js';
import { configHash } from '../src/parent/shard/shard-options.js';

const base: RunOptions = {
  scenario: 'fanout',
  targets: [{ url: 'ws://10.213.0.1:8080/' }],
  clients: ['ws'],
  params: { connections: 300, duration: '2s', interval: '100ms' },
  shard: { index: 0, count: 3, runId: 'r1', start: { mode: 'barrier', url: 'http://10.213.0.2:7070' } },
};

async function hashOf(options: RunOptions): Promise<string> {
  const plan = await planRun(options);
  return configHash({ ...plan, count: plan.shard!.count });
}

test('every shard of one run hashes alike: index, host pid, start and param order do not count', async () => {
  const reference = await hashOf(base);
  assert.match(reference, /^[0-9a-f]{64}$/);
  assert.equal(
    await hashOf({
      ...base,
      shard: { ...base.shard!, index: 2, start: { mode: 'start-at', atEpochMs: 1_900_000_000_000 } },
    }),
    reference,
  );
  assert.equal(await hashOf({ ...base, params: { interval: 100, duration: 2000, connections: 300 } }), reference);
  assert.equal(await hashOf({ ...base, targets: [{ url: 'ws://10.213.0.1:8080/', pid: process.pid }] }), reference);
});

test('what the shards must share changes the hash', async () => {
  const reference = await hashOf(base);
  const variants: RunOptions[] = [
    { ...base, params: { connections: 301, duration: '2s', interval: '100ms' } },
    { ...base, targets: [{ url: 'ws://10.213.0.9:8080/' }] },
    { ...base, clients: ['undici'] },
    { ...base, clientProcesses: 2 },
    { ...base, repeat: 2 },
    { ...base, shard: { ...base.shard!, count: 4 } },
  ];
  for (const variant of variants) assert.notEqual(await hashOf(variant), reference, JSON.stringify(variant));
});

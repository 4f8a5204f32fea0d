/** fanout in real processes: every client gets every tick; impossible ladders are refused up front. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../src/parent/index.js';
import { openFileLimit } from '../src/shared/open-file-limit.js';
import { runCli, tempDir } from './support.js';

test('uws x ws, 10 and 100 clients: zero errors, every tick delivered to every client', async () => {
  const params = { connections: [10, 100], interval: '50ms', duration: '1s' } as const;
  const result = await run({ scenario: 'fanout', servers: ['uws'], clients: ['ws'], params });
  assert.deepEqual(
    result.cells.map((c) => c.params.connections),
    [10, 100],
  );
  for (const cell of result.cells) {
    if (cell.status !== 'ok') assert.fail(`${cell.params.connections} connections: ${cell.status}: ${cell.reason}`);
    const m = cell.metrics;
    const connections = cell.params.connections as number;
    const ticks = Math.floor((cell.params.duration as number) / (cell.params.interval as number));
    assert.equal(m.connected, connections);
    assert.equal(m.errors, 0);
    assert.equal(m.ticksSent, ticks);
    assert.equal(m.received, ticks * connections);
    assert.equal(m.messagesSentByServer, m.received);
    assert.equal(m.missing, 0);
    assert.equal(m.outOfOrder, 0);
    assert.equal(m.avgMessageBytes, 97);
    assert.equal(cell.measurements.latency.delay?.count, m.received);
    assert.equal(m.delaySamples, m.received);
  }
});

test('a ladder step above the open-file limit is refused before anything starts, naming the limit', async (t) => {
  const limit = openFileLimit();
  if (limit === null || limit > 99_000) return t.skip(`open-file limit ${limit} is above what --connections accepts`);
  const problem = `${limit} needs about ${limit + 100} open files in the server process (one per connection), above the open-file limit of ${limit} (ulimit -n); --server-processes N spreads them over N processes`;
  const ladder = { connections: [10, limit] };
  await assert.rejects(run({ scenario: 'fanout', params: ladder }), {
    name: 'ParameterError',
    parameter: 'connections',
    problem,
  });
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(['run', 'fanout', '--connections', `10,${limit}`, '--out', out]);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr, `wsbench: --connections: ${problem}\n`);
  assert.ok(!existsSync(out), 'refused before anything was written');
});

test('a duration shorter than one tick exits 2 with one line', async () => {
  const outcome = await runCli(['run', 'fanout', '--interval', '2s', '--duration', '1s']);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr, 'wsbench: --duration: 1000ms is shorter than interval 2000ms: no tick would be sent\n');
  assert.equal(outcome.stdout, '');
});

/** fanout in real processes: every client gets every tick; impossible ladders are refused up front. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/index.js';
import { openFileLimit } from '../src/core/environment.js';
import { runCli } from './support.js';

test('ci preset on uws x ws: 10 and 100 clients, zero errors, every tick delivered to every client', async () => {
  const result = await run({ scenario: 'fanout', servers: ['uws'], clients: ['ws'], preset: 'ci' });
  assert.deepEqual(result.cells.map((c) => c.params.connections), [10, 100]);
  for (const cell of result.cells) {
    const m = cell.metrics!;
    const connections = cell.params.connections as number;
    const ticks = Math.floor((cell.params.duration as number) / (cell.params.interval as number));
    assert.equal(cell.status, 'ok', cell.reason);
    assert.equal(m.connected, connections);
    assert.equal(m.errors, 0);
    assert.equal(m.ticksSent, ticks);
    assert.equal(m.received, ticks * connections);
    assert.equal(m.messagesSentByServer, m.received);
    assert.equal(m.missing, 0);
    assert.equal(m.outOfOrder, 0);
    assert.equal(m.avgMessageBytes, 97);
    assert.equal(cell.measurements!.latency.delay!.count, m.received);
  }
});

test('a ladder step above the open-file limit is refused before anything starts, naming the limit', async (t) => {
  const limit = openFileLimit();
  if (limit === null || limit > 99_000) return t.skip(`open-file limit ${limit} is above what --connections accepts`);
  const outcome = await runCli(['run', 'fanout', '--connections', `10,${limit}`, '--out', '/dev/null']);
  assert.equal(outcome.code, 2);
  assert.equal(
    outcome.stderr,
    `wsbench: fanout: --connections ${limit} needs about ${limit + 100} open files in the server process (one per connection), above the open-file limit of ${limit} (ulimit -n)\n`,
  );
});

test('a duration shorter than one tick exits 2 with one line', async () => {
  const outcome = await runCli(['run', 'fanout', '--interval', '2s', '--duration', '1s']);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stderr, 'wsbench: fanout: --duration 1000ms is shorter than --interval 2000ms: no tick would be sent\n');
  assert.equal(outcome.stdout, '');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/index.js';
import { runCli } from './support.js';

test('push-vs-poll ci preset: both tests deliver every update once per approach, polls follow the schedule', async () => {
  const result = await run({ scenario: 'push-vs-poll', servers: ['uws'], clients: ['undici'], preset: 'ci' });
  assert.deepEqual(result.cells.map((c) => c.params.test), ['continuous', 'sustained']);
  for (const cell of result.cells) {
    const m = cell.metrics!;
    const p = cell.params as Record<string, number>;
    const label = String(cell.params.test);
    assert.equal(cell.status, 'ok', cell.reason);
    assert.deepEqual(cell.notes?.filter((n) => n.includes('one host, one clock')).length, 1, `${label}: the result says how latency was measured`);
    assert.equal(m.negativeLatencies, 0, `${label}: no update was seen before it was created`);
    assert.ok(m.restMinMs! >= 0 && m.wsMinMs! >= 0);
    assert.ok(m.restMinMs! <= m.restP50Ms! && m.restP50Ms! <= m.restP99Ms! && m.restP99Ms! <= m.restMaxMs!);
    assert.equal(m.wsSamples, m.wsExpectedSamples, `${label}: every batch seen over WebSocket`);
    assert.equal(m.restSamples, m.restExpectedSamples, `${label}: every batch seen by polling`);
    // A cursor never delivers an update twice, and a subscription delivers each once.
    const perApproach = label === 'continuous' ? p.iterations! * p.orders! : p.samples!;
    assert.equal(m.restUpdates, perApproach, `${label}: REST updates`);
    assert.equal(m.wsUpdates, perApproach, `${label}: WebSocket updates`);
    assert.equal(m.serverPollsServed, m.restRequests, `${label}: every poll reached the server once`);
    assert.ok(m.restEmptyPolls! <= m.restRequests!);
    // A fixed-rate poller never runs ahead of its schedule; a busy machine may make it fall behind.
    assert.ok(m.restRequests! <= m.restPollsScheduled! + 1, `${label}: ${m.restRequests} polls, schedule ${m.restPollsScheduled}`);
    assert.ok(m.restRequests! >= m.restPollsScheduled! / 2, `${label}: ${m.restRequests} polls, schedule ${m.restPollsScheduled}`);
    assert.ok(m.restWireBytesUpPerUpdate! > 0 && m.restWireBytesDownPerUpdate! > m.restBodyBytesDownPerUpdate!, 'wire bytes include headers');
    assert.equal(m.errors, 0);
  }
  const sustained = result.cells[1]!;
  assert.ok(sustained.metrics!.restPollActiveMs! >= Number(sustained.params.duration), 'the poller ran for the whole rest phase');
  assert.ok(sustained.metrics!.serverCpuPercentWebsocket! >= 0 && sustained.metrics!.serverCpuPercentRest! >= 0);
  assert.equal(result.cells[0]!.metrics!.serverCpuPercentWebsocket, null, 'continuous runs both approaches at once: no split');
});

test('push-vs-poll: a poll interval below 1 ms is refused with one line and exit 2', async () => {
  const outcome = await runCli(['run', 'push-vs-poll', '--poll-interval', '0.5ms']);
  assert.equal(outcome.code, 2);
  assert.equal(outcome.stdout, '');
  assert.equal(outcome.stderr.trimEnd(), 'wsbench: --poll-interval: 0.5ms is below the minimum 1ms');
});

test('push-vs-poll: more than one sustained order per millisecond is refused before anything starts', async () => {
  const outcome = await runCli(['run', 'push-vs-poll', '--test', 'sustained', '--duration', '100ms', '--samples', '1000']);
  assert.equal(outcome.code, 2);
  assert.equal(
    outcome.stderr.trimEnd(),
    'wsbench: push-vs-poll: 1000 samples in 100ms is more than one order per millisecond (raise --duration or lower --samples)',
  );
});

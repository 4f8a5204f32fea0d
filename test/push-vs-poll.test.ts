import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/parent/index.js';
import { testRefusedRunInput } from './refused-run-input.js';
import { phaseCpuCounter, phaseWallCounter } from '../scenarios/push-vs-poll/backend.js';

/** A metric that must have a value. */
function metricValue(metrics: Readonly<Record<string, number | null>>, key: string): number {
  const value = metrics[key];
  assert.ok(typeof value === 'number', `${key} has no value`);
  return value;
}

test('push-vs-poll ci preset: both tests deliver every update once per approach, polls follow the schedule', async () => {
  const result = await run({ scenario: 'push-vs-poll', servers: ['uws'], clients: ['undici'], preset: 'ci' });
  assert.deepEqual(
    result.cells.map((c) => c.params.test),
    ['continuous', 'sustained'],
  );
  const [continuous, sustained] = result.cells;
  for (const cell of result.cells) {
    const label = String(cell.params.test);
    if (cell.status !== 'ok') assert.fail(`${label}: ${cell.status}: ${cell.reason}`);
    const m = cell.metrics;
    const v = (key: string): number => metricValue(m, key);
    const p = cell.params;
    assert.deepEqual(
      cell.notes.filter((n) => n.includes('one host, one clock')).length,
      1,
      `${label}: the result says how latency was measured`,
    );
    assert.equal(m.negativeLatencies, 0, `${label}: no update was seen before it was created`);
    assert.ok(v('restMinMs') >= 0 && v('wsMinMs') >= 0);
    assert.ok(v('restMinMs') <= v('restP50Ms') && v('restP50Ms') <= v('restP99Ms') && v('restP99Ms') <= v('restMaxMs'));
    assert.equal(m.wsSamples, m.wsExpectedSamples, `${label}: every batch seen over WebSocket`);
    assert.equal(m.restSamples, m.restExpectedSamples, `${label}: every batch seen by polling`);
    // A cursor never delivers an update twice, and a subscription delivers each once.
    const perApproach = label === 'continuous' ? Number(p.iterations) * Number(p.orders) : p.samples;
    assert.equal(m.restUpdates, perApproach, `${label}: REST updates`);
    assert.equal(m.wsUpdates, perApproach, `${label}: WebSocket updates`);
    assert.equal(m.serverPollsServed, m.restRequests, `${label}: every poll reached the server once`);
    assert.ok(v('restEmptyPolls') <= v('restRequests'));
    // A fixed-rate poller never runs ahead of its schedule; a busy machine may make it fall behind.
    const polls = `${label}: ${m.restRequests} polls, schedule ${m.restPollsScheduled}`;
    assert.ok(v('restRequests') <= v('restPollsScheduled') + 1, polls);
    assert.ok(v('restRequests') >= v('restPollsScheduled') / 2, polls);
    assert.ok(
      v('restWireBytesUpPerUpdate') > 0 && v('restWireBytesDownPerUpdate') > v('restBodyBytesDownPerUpdate'),
      'wire bytes include headers',
    );
    assert.equal(m.errors, 0);
  }
  if (sustained?.status !== 'ok' || continuous?.status !== 'ok') assert.fail('both cells are ok (checked above)');
  const s = (key: string): number => metricValue(sustained.metrics, key);
  assert.ok(s('restPollActiveMs') >= Number(sustained.params.duration), 'the poller ran for the whole rest phase');
  // Each phase's server CPU is its CPU time over its wall time, as the server counted both; serving a phase took
  // CPU, and a phase lasts at least its duration.
  const counters = sustained.measurements.serverCounters;
  for (const [key, phase] of [
    ['serverCpuPercentWebsocket', 'websocket'],
    ['serverCpuPercentRest', 'rest'],
  ] as const) {
    const cpuUs = counters[phaseCpuCounter(phase)] ?? 0;
    const wallUs = counters[phaseWallCounter(phase)] ?? 0;
    assert.ok(cpuUs > 0, `${phase}: the server spent CPU serving the phase (${cpuUs} µs)`);
    assert.ok(
      wallUs >= Number(sustained.params.duration) * 1000,
      `${phase}: the phase lasted its duration (${wallUs} µs)`,
    );
    assert.equal(s(key), Math.round((cpuUs / wallUs) * 100 * 100) / 100, `${key}: CPU time / wall time, in %`);
  }
  assert.equal(continuous.metrics.serverCpuPercentWebsocket, null, 'continuous runs both approaches at once: no split');
});

testRefusedRunInput(
  [
    [
      'push-vs-poll: a poll interval below 1 ms',
      ['--poll-interval', '0.5ms'],
      'wsbench: --poll-interval: "0.5ms" is below the minimum 1ms',
    ],
    [
      'push-vs-poll: more than one sustained order per millisecond, before anything starts',
      ['--test', 'sustained', '--duration', '100ms', '--samples', '1000'],
      'wsbench: --samples: 1000 samples in 100ms is more than one order per millisecond (raise duration or lower samples)',
    ],
  ],
  'push-vs-poll',
);

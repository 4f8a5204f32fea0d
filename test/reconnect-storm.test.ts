/**
 * reconnect-storm on wsbench's own ws server with the ws client, spread over two
 * client processes: the server is killed and started again mid-window, and with
 * each reconnect policy every client is back, counted exactly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMeasured, run } from '../src/parent/index.js';

const CONNECTIONS = 10;

test('immediate, fixed and backoff: every client dropped by the kill is back, attempts add up, refused while the server was down', async () => {
  const result = await run({
    scenario: 'reconnect-storm',
    servers: ['ws'],
    clients: ['ws'],
    clientProcesses: 2,
    params: {
      connections: CONNECTIONS,
      policy: ['immediate', 'fixed', 'backoff'],
      delay: '50ms',
      backoffBase: '20ms',
      backoffCap: '500ms',
      restartAt: '200ms',
      downtime: '300ms',
      duration: '20s',
    },
  });
  assert.deepEqual(
    result.cells.map((c) => c.params.policy),
    ['immediate', 'fixed', 'backoff'],
  );
  for (const cell of result.cells) {
    const policy = cell.params.policy;
    assert.ok(
      cell.status === 'ok' && isMeasured(cell),
      `${policy}: ${cell.status}: ${'reason' in cell ? cell.reason : ''}`,
    );
    const m = cell.metrics;
    assert.equal(m.connected, CONNECTIONS, `${policy}: connected`);
    assert.equal(m.lost, CONNECTIONS, `${policy}: every connection dropped by the kill`);
    assert.equal(m.back, CONNECTIONS, `${policy}: every client back`);
    assert.equal(m.neverBack, 0, `${policy}: never back`);
    assert.equal(m.timeToBackSamples, CONNECTIONS, `${policy}: one time to be back per client`);
    assert.ok((m.attempts ?? 0) >= CONNECTIONS, `${policy}: attempts ${m.attempts}`);
    assert.equal(
      m.attempts,
      (m.back ?? 0) + (m.attemptsFailed ?? 0) + (m.attemptsAbandoned ?? 0),
      `${policy}: every attempt opened, failed or was abandoned`,
    );
    const byReason = (['Refused', 'Reset', 'Timeout', 'Tls', 'HttpStatus', 'Other'] as const).reduce(
      (sum, r) => sum + (m[`attempts${r}`] ?? 0),
      0,
    );
    assert.equal(byReason, m.attemptsFailed, `${policy}: failures by reason add up`);
    // Nothing listened for the 300 ms downtime: an immediate retry can only have been refused.
    if (policy === 'immediate') assert.ok((m.attemptsRefused ?? 0) > 0, `immediate: refused ${m.attemptsRefused}`);
    assert.equal(typeof m.serverDownMs, 'number', `${policy}: the server's own downtime is recorded once`);
    assert.equal(cell.measurements.latency.serverDown?.count, 1);
    assert.ok(
      cell.notes.some((n) => n.startsWith('server restarted: killed (SIGKILL) 200 ms into the window')),
      cell.notes.join('\n'),
    );
    assert.ok(cell.resources.server && cell.resources.server.samples > 0, `${policy}: server sampled`);
  }
});

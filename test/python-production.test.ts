/**
 * The Python websockets reference server serves churn and slow-consumer as
 * their protocol pages say, so a server in another language is measured the
 * same way: over TLS with the run's certificate ({cert} and {key}), churn's
 * accepted connections are the clients' opened ones; slow-consumer's counters
 * add up, and a client that stops reading leaves bytes queued in the server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { isMeasured, run } from '../src/parent/index.js';
import { PYTHON_EXAMPLES, pythonSkip, venvPython } from './python-support.js';

const skip = pythonSkip();
const command = (extra = ''): string =>
  `${venvPython()} ${join(PYTHON_EXAMPLES, 'websockets_server.py')} --port {port}${extra}`;

test("the Python websockets server serves churn over TLS with the run's certificate", { skip }, async () => {
  const result = await run({
    scenario: 'churn',
    serverCommands: [{ name: 'py', command: command(' --cert {cert} --key {key}') }],
    clients: ['ws'],
    params: { rate: 30, duration: '1500ms', messages: 2 },
  });
  const [cell] = result.cells;
  assert.ok(
    cell && isMeasured(cell) && cell.status === 'ok',
    `${cell?.status} ${cell && 'reason' in cell ? cell.reason : ''}`,
  );
  const c = cell.measurements.counters;
  const s = cell.measurements.serverCounters;
  assert.equal(cell.params.tls, 'on');
  assert.ok((c.opened ?? 0) >= 40, JSON.stringify(c));
  assert.equal(c.handshakeFailed, 0);
  assert.equal(s.accepted, c.opened, JSON.stringify(s));
  assert.equal(s.echoed, c.exchanged);
  assert.equal(cell.measurements.latency.tlsHandshake?.count, c.opened, 'the TLS step was timed on every connection');
  assert.notEqual(cell.metrics.serverCpuPerHandshakeUs, null);
});

test("the Python websockets server serves slow-consumer: its counters add up, and a stalled client's bytes queue in it", {
  skip,
}, async () => {
  const ticks = 100;
  const result = await run({
    scenario: 'slow-consumer',
    serverCommands: [{ name: 'py', command: command() }],
    clients: ['ws'],
    params: { connections: 4, slowShare: 0.25, interval: '10ms', duration: `${ticks * 10}ms`, messageSize: '128kb' },
  });
  const [cell] = result.cells;
  assert.ok(
    cell && isMeasured(cell) && cell.status === 'ok',
    `${cell?.status} ${cell && 'reason' in cell ? cell.reason : ''}`,
  );
  const c = cell.measurements.counters;
  const s = cell.measurements.serverCounters;
  const counts = `client ${JSON.stringify(c)} server ${JSON.stringify(s)}`;
  assert.equal(s.ticksSent, ticks, counts);
  assert.equal(s.sentHealthy, 3 * ticks, counts);
  assert.equal(s.sentSlow, ticks, counts);
  assert.equal(s.droppedSlow, 0, counts);
  assert.equal(c.healthyReceived, 3 * ticks, counts);
  assert.equal(c.slowReceived, ticks, counts);
  // 12.8 MB to a client that reads nothing: more than the kernel's socket buffers hold.
  assert.ok(s.slowQueuedPeakBytes! > 1_000_000, counts);
  assert.notEqual(cell.metrics.serverRssGrowthMB, null, counts);
});

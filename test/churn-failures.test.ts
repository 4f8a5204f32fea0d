/**
 * churn counts failed handshakes by what went wrong, exactly: against a server
 * that answers every 5th upgrade with HTTP 503, resets every 7th and never
 * answers every 11th, each client stack's counts by reason are the server's own
 * (its stats route, read at the window's edges), and every attempt is either
 * opened (accepted by the server) or failed, and the cell has errors. The handshake deadline is generous
 * (3 s): a tight one turned slow resets and opens into timeouts on a loaded machine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { isMeasured, run } from '../src/parent/index.js';

const REFUSING_SERVER = fileURLToPath(new URL('./fixtures/refusing-server.js', import.meta.url));

test('churn: refused, reset and unanswered handshakes are counted by reason, as many as the server made', async () => {
  const result = await run({
    scenario: 'churn',
    serverCommands: [
      {
        name: 'refuser',
        command: `${process.execPath} ${REFUSING_SERVER} --port {port} --status-every 5 --reset-every 7 --hang-every 11`,
      },
    ],
    clients: ['ws', 'undici', 'bun', 'deno'],
    params: { rate: 40, duration: '2s', handshakeTimeout: '3s', messages: 2 },
  });
  for (const cell of result.cells) {
    // Refused handshakes are faults, counted by reason: the cell has errors, and says how many.
    assert.ok(
      isMeasured(cell) && cell.status === 'errors',
      `${cell.client}: ${cell.status} ${'reason' in cell ? cell.reason : ''}`,
    );
    assert.match(cell.reason, new RegExp(`^errors counted: failed ${cell.measurements.counters.handshakeFailed}\\b`));
    const c = cell.measurements.counters;
    const s = cell.measurements.serverCounters;
    const failures = `${cell.client}: ${JSON.stringify(c)} server ${JSON.stringify(s)} notes ${cell.notes.join(' | ')}`;
    assert.ok((s.upgrades ?? 0) >= 60, failures);
    assert.equal(c.handshakeFailedHttpStatus, s.refusedWithStatus, failures);
    assert.equal(c.handshakeFailedReset, s.reset, failures);
    assert.equal(c.handshakeFailedTimeout, s.hung, failures);
    assert.equal(c.handshakeFailedTls, 0, failures);
    assert.equal(c.handshakeFailedRefused, 0, failures);
    assert.equal(c.handshakeFailedOther, 0, failures);
    assert.equal(c.handshakeFailed, s.refusedWithStatus! + s.reset! + s.hung!, failures);
    assert.equal(c.opened, s.accepted, failures);
    assert.equal(c.attempts, c.opened! + c.handshakeFailed!, failures);
    assert.equal(c.attempts, s.upgrades, failures);
    // Every opened connection made its two round trips.
    assert.equal(c.exchanged, 2 * c.opened!, failures);
    assert.equal(cell.metrics.handshakeSamples, c.opened, failures);
  }
});

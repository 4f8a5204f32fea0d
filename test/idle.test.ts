/** idle in real processes: a few connections held open and pinged on ws and uws; the server's memory per connection is reported. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/parent/index.js';

test('idle, 20 connections on ws and uws: every ping answered, server RSS and CPU per connection reported', async () => {
  const params = { connections: 20, interval: '100ms', duration: '1s' } as const;
  const result = await run({ scenario: 'idle', servers: ['ws', 'uws'], clients: ['ws'], params });
  assert.deepEqual(
    result.cells.map((c) => c.server),
    ['ws', 'uws'],
  );
  for (const cell of result.cells) {
    if (cell.status !== 'ok') assert.fail(`${cell.server}: ${cell.status}: ${cell.reason}`);
    const m = cell.metrics;
    assert.equal(m.connected, 20, cell.server);
    assert.equal(m.serverOpenAtWindowStart, 20);
    assert.equal(m.connectFailed, 0);
    assert.equal(m.dropped, 0);
    assert.equal(m.unanswered, 0);
    assert.equal(m.badReplies, 0);
    assert.ok((m.pingsSent ?? 0) >= 20, `every connection pinged at least once (sent ${m.pingsSent})`);
    assert.equal(m.pongsReceived, m.pingsSent);
    assert.equal(cell.measurements.serverCounters.pingsAnswered, m.pingsSent);
    assert.ok((m.rttSamples ?? 0) > 0);
    // Memory per connection (its size is the GC's business at 20 connections) is derived from the server's own
    // baseline, with its resolution: a value when told apart from 0, else below resolution, never a negative number.
    assert.ok(cell.measurements.serverCounters.serverRssBaselineBytes! > 0);
    const expected = Math.round(
      (cell.resources.server!.rssBytes.max - cell.measurements.serverCounters.serverRssBaselineBytes!) / 20,
    );
    const measured = cell.resolution?.serverRssPerConnectionBytes;
    assert.ok(measured, 'memory per connection comes with its resolution');
    assert.equal(measured.estimate, expected);
    assert.ok(measured.resolution >= 4096 / 20, 'at least a page over the connections');
    // Told apart from 0 exactly when the estimate is beyond its resolution: then it is that estimate (above 0, in
    // bytes and in KB alike); else no value, the most it can be, and why.
    assert.equal(measured.resolved, measured.estimate - measured.resolution > 0, 'resolved means beyond the noise');
    if (measured.resolved) {
      assert.equal(m.serverRssPerConnectionBytes, expected);
      assert.ok(expected > 0);
      assert.ok(Math.abs(m.serverRssPerConnectionKB! - expected / 1000) < 1e-9, `${m.serverRssPerConnectionKB} KB`);
    } else {
      assert.equal(m.serverRssPerConnectionBytes, null, 'below resolution is no value');
      assert.equal(m.serverRssPerConnectionKB, null);
      assert.equal(measured.atMost, Math.max(measured.estimate, 0) + measured.resolution);
      assert.match(cell.missing.serverRssPerConnectionBytes ?? '', /^below its resolution: /);
    }
    // Server CPU (% of one core) per 1000 connected clients.
    const cpuPer1000 = (cell.resources.server!.cpuPercent.mean / 20) * 1000;
    assert.ok(
      Math.abs(m.serverCpuPer1000Connections! - cpuPer1000) < 1e-9,
      `${m.serverCpuPer1000Connections} vs ${cpuPer1000}`,
    );
  }
});

/**
 * What a stack does with a client that stops reading, as slow-consumer records
 * it. Given a 256 KiB send-queue limit, uWS and Bun drop what does not fit
 * (every message the server says it dropped is one the slow client never gets,
 * and it gets every other one) or close the connection; ws has no limit and
 * queues all of it. The healthy clients get everything either way. 12.8 MB go
 * to the slow client, well past what the kernel's socket buffers hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMeasured, run, type CellResult, type MeasuredCell } from '../src/parent/index.js';

const TICKS = 100;
const PARAMS = {
  connections: 3,
  slowShare: 0.34,
  interval: '10ms',
  duration: `${TICKS * 10}ms`,
  messageSize: '128kb',
  backpressureLimit: '256kb',
} as const;

/** An ok cell's client and server counters, both as text for assertion messages, and its metrics. */
function countersOf(cell: CellResult): {
  c: Record<string, number>;
  s: Record<string, number>;
  counts: string;
  metrics: MeasuredCell['metrics'];
} {
  assert.ok(
    isMeasured(cell) && cell.status === 'ok',
    `${cell.server}: ${cell.status} ${'reason' in cell ? cell.reason : ''}`,
  );
  const c = cell.measurements.counters;
  const s = cell.measurements.serverCounters;
  return {
    c,
    s,
    counts: `${cell.server}: client ${JSON.stringify(c)} server ${JSON.stringify(s)}`,
    metrics: cell.metrics,
  };
}

test('slow-consumer: at the limit uWS and Bun drop what the slow client then misses; ws queues it all', async () => {
  const result = await run({
    scenario: 'slow-consumer',
    servers: ['uws', 'bun', 'ws'],
    clients: ['ws'],
    params: { ...PARAMS, onLimit: 'drop' },
  });
  const peaks: Record<string, number> = {};
  for (const cell of result.cells) {
    const { c, s, counts } = countersOf(cell);
    assert.equal(c.slowConnected, 1, counts);
    assert.equal(c.healthyReceived, 2 * TICKS, counts);
    assert.equal(c.healthyMissing, 0, counts);
    assert.equal(s.droppedHealthy, 0, counts);
    assert.equal(s.sentSlow! + s.droppedSlow!, TICKS, counts);
    assert.equal(c.slowReceived, s.sentSlow, counts);
    assert.equal(c.slowMissing, s.droppedSlow, counts);
    if (cell.server === 'ws') assert.equal(s.droppedSlow, 0, counts);
    else assert.ok(s.droppedSlow! > 0, counts);
    peaks[cell.server] = s.slowQueuedPeakBytes!;
  }
  assert.ok(
    peaks.ws! > peaks.uws! && peaks.ws! > peaks.bun!,
    `queued for the slow client at most: ${JSON.stringify(peaks)}`,
  );
});

test('slow-consumer: with onLimit close, uWS and Bun close the slow connection and say so', async () => {
  const result = await run({
    scenario: 'slow-consumer',
    servers: ['uws', 'bun'],
    clients: ['ws'],
    params: { ...PARAMS, onLimit: 'close' },
  });
  for (const cell of result.cells) {
    const { c, s, counts, metrics } = countersOf(cell);
    assert.equal(c.slowClosed, 1, counts);
    assert.equal(s.closedSlow, 1, counts);
    assert.equal(c.healthyClosed ?? 0, 0, counts);
    assert.equal(c.healthyReceived, 2 * TICKS, counts);
    assert.equal(metrics.slowClosedByServerAfterP50Ms !== null, true, counts);
  }
});

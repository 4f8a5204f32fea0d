/**
 * The open model's clock in one process (src/shared/scenario-kit/arrivals/pacer.ts),
 * with real timers: every message goes out at or after its due time, in due
 * order across connections; a stall of the process sends what fell due at
 * once, counting each one late with its lag; and when the window closes in the
 * middle of a stall, what fell due and never went out is counted missed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pacer } from '../src/shared/scenario-kit/arrivals/pacer.js';
import { RateCurve } from '../src/shared/scenario-kit/arrivals/rate-curve.js';
import { connectionDueTimes } from '../src/shared/scenario-kit/arrivals/due-times.js';
import { MetricsRegistry, summarizeEncoded } from '../src/shared/measure/metrics.js';
import { monotonicUs } from '../src/shared/measure/clock.js';

/** Holds the event loop for `ms`, as a GC pause or a busy process would. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Nothing else runs meanwhile.
  }
}

test('sends at or after their due times, in due order; a stall sends late; a close in a stall counts the missed', async () => {
  const metrics = new MetricsRegistry();
  const window = new AbortController();
  const originUs = monotonicUs();
  const pacer = new Pacer(
    {
      nowUs: monotonicUs,
      histogram: (name) => metrics.histogram(name),
      counter: (name) => metrics.counter(name),
      signal: window.signal,
    },
    originUs,
  );
  const curve = new RateCurve(1000);
  const sends: Array<{ connection: number; dueUs: number; nowUs: number }> = [];
  const done = [0, 1].map((connection) =>
    pacer.run(
      connectionDueTimes({ curve, index: connection, count: 2, process: 'uniform', seed: 1 }),
      (_n, dueUs, nowUs) => {
        sends.push({ connection, dueUs, nowUs });
      },
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  stall(30);
  await new Promise((resolve) => setTimeout(resolve, 50));
  // The window closes 40 ms into a stall: what fell due in its first 30 ms (more than 10 ms before the close) is missed.
  stall(40);
  window.abort();
  await Promise.all(done);

  assert.ok(sends.length > 100, `${sends.length} sends`);
  for (const [i, send] of sends.entries()) {
    assert.ok(send.nowUs >= send.dueUs, `send ${i} went out before it was due`);
    if (i > 0) assert.ok(send.dueUs >= sends[i - 1]!.dueUs, `send ${i} out of due order`);
  }
  assert.deepEqual([...new Set(sends.map((s) => s.connection))].sort(), [0, 1], 'both connections sent');
  const counters = metrics.counterValues();
  assert.equal(counters.sendsScheduled, sends.length);
  assert.ok((counters.sendsLate ?? 0) >= 20, `${counters.sendsLate} late: the 30 ms stall held back about 30 sends`);
  const lag = summarizeEncoded(metrics.encodeAll().sendLag!)!;
  assert.ok(lag.maxMs >= 25, `worst lag ${lag.maxMs} ms`);
  assert.ok(
    (counters.sendsMissed ?? 0) >= 20,
    `${counters.sendsMissed} missed: about 30 fell due more than 10 ms before the close`,
  );
});

test('a send that throws (a connection gone) ends that schedule only; the others go on', async () => {
  const metrics = new MetricsRegistry();
  const window = new AbortController();
  const pacer = new Pacer(
    {
      nowUs: monotonicUs,
      histogram: (n) => metrics.histogram(n),
      counter: (n) => metrics.counter(n),
      signal: window.signal,
    },
    monotonicUs(),
  );
  const curve = new RateCurve(2000);
  let kept = 0;
  const gone = pacer.run(connectionDueTimes({ curve, index: 0, count: 2, process: 'uniform', seed: 1 }), (n) => {
    if (n === 5) throw new Error('the connection is gone');
  });
  const other = pacer.run(connectionDueTimes({ curve, index: 1, count: 2, process: 'uniform', seed: 1 }), () => {
    kept += 1;
  });
  await assert.rejects(gone, /the connection is gone/);
  await new Promise((resolve) => setTimeout(resolve, 50));
  window.abort();
  await other;
  assert.ok(kept > 20, `the other connection sent ${kept}`);
});

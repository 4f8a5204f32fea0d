/**
 * Bare TCP ping-pong client for the baseline: one connection, one 32-byte
 * message in flight, every round trip recorded in the same HDR histogram type
 * wsbench uses. Gets {port, durationMs, payloadBytes}; answers {p50Ms, count}.
 */
import { connect } from 'node:net';
import { monotonicUs } from '../src/shared/measure/clock.js';
import { MetricsRegistry, summarizeEncoded } from '../src/shared/measure/metrics.js';

process.once('message', (task: { port: number; durationMs: number; payloadBytes: number }) => {
  const metrics = new MetricsRegistry();
  const rtt = metrics.histogram('rtt');
  const payload = Buffer.alloc(task.payloadBytes, 0x78);
  const socket = connect(task.port, '127.0.0.1');
  socket.setNoDelay(true);
  let pending = 0;
  let sentAtUs = 0;
  const deadlineUs = monotonicUs() + task.durationMs * 1000;
  const send = (): void => {
    pending = payload.length;
    sentAtUs = monotonicUs();
    socket.write(payload);
  };
  socket.on('connect', send);
  // TCP may split or merge: a round trip ends when all 32 bytes are back.
  socket.on('data', (chunk) => {
    pending -= chunk.length;
    if (pending > 0) return;
    const nowUs = monotonicUs();
    rtt.recordUs(nowUs - sentAtUs);
    if (nowUs < deadlineUs) return send();
    socket.end();
    const summary = summarizeEncoded(metrics.encodeAll().rtt!);
    process.send?.({ p50Ms: summary?.p50Ms ?? null, count: summary?.count ?? 0 }, undefined, {}, () => process.exit(0));
  });
});
process.on('disconnect', () => process.exit(0));

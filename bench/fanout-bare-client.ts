/**
 * The bare baseline of the fan-out comparison: one process holding N plain `ws`
 * connections to a fanout server, doing per message what any client measuring
 * one-way delay must do (read the tick's timestamp, keep the delay, count), with
 * no wsbench code. Delays go into a preallocated array, sorted once after the
 * window: the cheapest exact record there is.
 *
 * Forked by fanout-baseline.ts with `URL CONNECTIONS TICKS INTERVAL_MS CONNECT_RATE`.
 * Replies `{ open }` once connected; on "go" starts the stream (`{"start":true}`,
 * docs/protocols/fanout.md), replies `{ messages, windowMs }` when every tick has
 * arrived or is overdue, then `{ delayMs }` with the percentiles.
 */
import WebSocket from 'ws';
import { monotonicUs } from '../src/shared/measure/clock.js';
import { sourceAddressCount, sourceAddressFor } from '../src/shared/scenario-kit/source-addresses.js';

/** As fanout.ts: after the last tick was due, stragglers get this long. */
const DRAIN_MS = 5000;

const [url, connectionsText, ticksText, intervalText, connectRateText] = process.argv.slice(2);
const connections = Number(connectionsText);
const ticks = Number(ticksText);
const intervalMs = Number(intervalText);
const connectRate = Number(connectRateText);
process.on('disconnect', () => process.exit(0));

const delaysUs = new Float64Array(connections * ticks);
let messages = 0;
let onAllArrived: () => void = () => undefined;

function open(index: number, addresses: number): Promise<WebSocket> {
  const localAddress = sourceAddressFor(index, addresses);
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url!, { perMessageDeflate: false, ...(localAddress ? { localAddress } : {}) });
    socket.on('message', (data: Buffer) => {
      const nowUs = monotonicUs();
      // toString() first: JSON.parse(buffer) converts the Buffer through its generic ToString path,
      // which cost the bare client 0.2-0.3 µs a message more than this (a baseline is the cheapest way).
      const tick = JSON.parse(data.toString()) as { timestamp: number };
      if (messages < delaysUs.length) delaysUs[messages] = nowUs - tick.timestamp;
      if (++messages === delaysUs.length) onAllArrived();
    });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Opens every connection at about `connectRate` per second, as wsbench's client paces its own. */
async function openAll(): Promise<WebSocket[]> {
  const addresses = sourceAddressCount(connections, 0);
  const sockets: Array<Promise<WebSocket>> = [];
  const startedMs = performance.now();
  for (let index = 0; index < connections; index++) {
    const dueMs = (index / connectRate) * 1000 - (performance.now() - startedMs);
    if (dueMs > 1) await new Promise((resolve) => setTimeout(resolve, dueMs));
    sockets.push(open(index, addresses));
  }
  return Promise.all(sockets);
}

/** p-th percentile of sorted values, nearest rank (as HdrHistogram reads its own). */
const percentile = (sorted: Float64Array, p: number): number =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;

const sockets = await openAll();
process.send!({ open: true });
process.once('message', () => {
  const startedMs = performance.now();
  const ended = new Promise<void>((resolve) => {
    onAllArrived = resolve;
    setTimeout(resolve, (ticks - 1) * intervalMs + DRAIN_MS);
  });
  sockets[0]!.send(JSON.stringify({ start: true }));
  void ended.then(() => {
    const windowMs = performance.now() - startedMs;
    process.send!({ messages, windowMs }, undefined, {}, () => {
      // After the window, outside what was measured: the percentiles.
      const sorted = delaysUs.subarray(0, Math.min(messages, delaysUs.length)).sort();
      const at = (p: number): number | null => (sorted.length ? percentile(sorted, p) / 1000 : null);
      process.send!({ delayMs: { p50: at(50), p99: at(99), p999: at(99.9) } }, undefined, {}, () => process.exit(0));
    });
  });
});

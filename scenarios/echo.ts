/**
 * echo: each connection keeps `inflight` messages of `payload` bytes in flight;
 * the server sends every message straight back; the client records each round
 * trip. WebSocket keeps order per connection, so replies are matched to their
 * send times first-in, first-out and the payload carries no timestamp.
 *
 * Copy this file to write your own scenario: `wsbench run ./my-scenario.js`.
 */
import type { ClientConnection, Scenario } from '../src/index.js';

interface EchoParams {
  [key: string]: number | boolean | string;
  connections: number;
  payload: number;
  binary: boolean;
  inflight: number;
  duration: number;
  messages: number;
}

/** Connections opened at once per client process; more at a time only measures the kernel's SYN queue. */
const CONNECT_BATCH = 100;
/** After the window closes, replies still in flight get this long to arrive (counted, not timed). */
const DRAIN_MS = 1000;

const echo: Scenario<EchoParams> = {
  name: 'echo',
  description: 'Round trips of fixed-size messages, N connections x W in flight (ping-pong when W = 1).',
  parameters: {
    connections: { kind: 'integer', description: 'open connections (over all client processes)', default: 1, min: 1, max: 100_000, sweepable: true },
    payload: { kind: 'size', description: 'message size', default: 32, min: 1, max: 64 * 1024 * 1024, sweepable: true },
    binary: { kind: 'boolean', description: 'send binary frames instead of text', default: false },
    inflight: { kind: 'integer', description: 'messages in flight per connection', default: 1, min: 1, max: 10_000, sweepable: true },
    duration: { kind: 'duration', description: 'measurement window (ignored when --messages is set)', default: 5000, min: 100 },
    messages: { kind: 'integer', description: 'messages per connection, then stop (0 = run for --duration)', default: 0, min: 0 },
  },
  presets: {
    ci: { duration: '1s' },
    quick: { duration: '3s' },
  },
  windowMs: (p) => (p.messages > 0 ? undefined : p.duration),

  server: () => ({
    onMessage(connection, data) {
      connection.send(data);
    },
  }),

  async client(ctx) {
    const { payload: size, binary, inflight, messages: limit } = ctx.params;
    const payload = binary ? new Uint8Array(size).fill(0x78) : 'x'.repeat(size);
    const rtt = ctx.histogram('rtt');
    const sent = ctx.counter('sent');
    const received = ctx.counter('received');
    const errors = ctx.counter('errors');
    const late = ctx.counter('repliesAfterWindow');
    let outstanding = 0;
    let finished = 0;
    let wake: () => void = () => undefined;

    const open = async (): Promise<void> => {
      const sendTimesUs = new Float64Array(inflight);
      let head = 0;
      let tail = 0;
      let sentHere = 0;
      let pending = 0;
      let connection: ClientConnection | null = null;
      const sendOne = (): void => {
        sendTimesUs[tail] = ctx.nowUs();
        tail = (tail + 1) % inflight;
        sentHere += 1;
        pending += 1;
        outstanding += 1;
        sent.add();
        connection!.send(payload);
      };
      connection = await ctx.connect({
        onMessage(data) {
          const nowUs = ctx.nowUs();
          outstanding -= 1;
          pending -= 1;
          if (ctx.signal.aborted) {
            late.add();
            if (outstanding === 0) wake();
            return;
          }
          rtt.recordUs(nowUs - sendTimesUs[head]!);
          head = (head + 1) % inflight;
          received.add();
          if ((typeof data === 'string' ? data.length : data.byteLength) !== size) errors.add();
          if (limit === 0 || sentHere < limit) sendOne();
          else if (pending === 0 && ++finished === count) wake();
        },
        onUnexpectedClose() {
          errors.add();
        },
      });
      starters.push(() => {
        for (let i = 0; i < inflight && (limit === 0 || sentHere < limit); i++) sendOne();
      });
      connections.push(connection);
    };

    const connections: ClientConnection[] = [];
    const starters: Array<() => void> = [];
    const count = ctx.share(ctx.params.connections);
    for (let i = 0; i < count; i += CONNECT_BATCH) {
      await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, count - i) }, open));
    }
    await ctx.ready();
    for (const start of starters) start();

    // Run until the window closes (duration mode) or every connection is done (count mode).
    await new Promise<void>((resolve) => {
      wake = resolve;
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      if (count === 0) resolve();
    });
    if (outstanding > 0) await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, DRAIN_MS).unref();
    });
    ctx.done();
    ctx.counter('unansweredAtEnd').add(outstanding);
    await Promise.all(connections.map((c) => c.close()));
  },

  summarize(cell, params) {
    const rtt = cell.latency.rtt;
    const received = cell.counters.received ?? 0;
    const seconds = cell.windowMs / 1000;
    const perSec = (n: number): number | null => (seconds > 0 ? Math.round(n / seconds) : null);
    return {
      rttP50Ms: rtt?.p50Ms ?? null,
      rttP90Ms: rtt?.p90Ms ?? null,
      rttP99Ms: rtt?.p99Ms ?? null,
      rttP999Ms: rtt?.p999Ms ?? null,
      rttMaxMs: rtt?.maxMs ?? null,
      rttMeanMs: rtt?.meanMs ?? null,
      rttMinMs: rtt?.minMs ?? null,
      rttStdevMs: rtt?.stdevMs ?? null,
      messagesPerSec: perSec(received),
      /** Payload bytes echoed per second, one direction (the other carries the same). */
      payloadBytesPerSec: perSec(received * params.payload),
      sent: cell.counters.sent ?? 0,
      received,
      errors: cell.counters.errors ?? 0,
      connectionsLost: cell.counters.connectionsLost ?? 0,
      unansweredAtEnd: cell.counters.unansweredAtEnd ?? 0,
    };
  },
  columns: [
    { key: 'rttP50Ms', header: 'p50 ms' },
    { key: 'rttP99Ms', header: 'p99 ms' },
    { key: 'rttMaxMs', header: 'max ms' },
    { key: 'messagesPerSec', header: 'msg/s' },
    { key: 'errors', header: 'errors' },
  ],
};

export default echo;

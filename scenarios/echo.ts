/**
 * echo: each connection keeps `inflight` messages of `payload` bytes in flight;
 * the server sends every message straight back; the client records each round
 * trip. WebSocket keeps order per connection, so replies are matched to their
 * send times first-in, first-out and the payload carries no timestamp.
 *
 * Wire protocol for servers in other languages: docs/protocols/echo.md.
 *
 * Copy this file to write your own scenario: it imports only `wsbench/scenario`;
 * compile it and run `wsbench run ./my-scenario.js`. It is written per connection
 * (docs/writing-a-scenario.md): wsbench opens, spreads, drains and closes the
 * connections, and derives every metric from the recorders' declarations.
 */
import { aborted, counter, defineScenario, histogram, ProtocolGuard } from 'wsbench/scenario';

export default defineScenario({
  name: 'echo',
  description: 'Round trips of fixed-size messages, N connections x W in flight (ping-pong when W = 1).',
  parameters: {
    connections: {
      kind: 'integer',
      description: 'open connections (over all client processes)',
      default: 1,
      min: 1,
      max: 100_000,
      sweepable: true,
      spread: 'processes',
    },
    payload: { kind: 'size', description: 'message size', default: 32, min: 1, max: '64MiB', sweepable: true },
    binary: { kind: 'boolean', description: 'send binary frames instead of text', default: false },
    inflight: {
      kind: 'integer',
      description: 'messages in flight per connection',
      default: 1,
      min: 1,
      max: 10_000,
      sweepable: true,
    },
    messages: {
      kind: 'integer',
      description: 'messages per connection, then stop (0 = run for the duration)',
      default: 0,
      min: 0,
    },
  },
  duration: { description: 'measurement window (ignored when messages is set)', default: '5s' },
  presets: {
    ci: { duration: '1s' },
    // Bare `wsbench` (with --repeat 3): 17 measured pairs of 5 x 5 stacks, 3 rounds each, about a minute on 2 cores.
    quick: { duration: '600ms' },
  },
  windowMs: (p) => (p.messages > 0 ? undefined : p.duration),
  // Every reply depends on its own connection only.
  multiProcessServer: true,
  // Connections open a hundred at a time, about 2,500 a second here: 15 s plus 1 s per 1000.
  readyTimeoutMs: (p) => 15_000 + p.connections,
  // Only the size of a reply is checked: decoding it to a string would cost each message a few per cent of the client's CPU.
  connect: { textAsBytes: true },

  server: () => ({
    onMessage(connection, data) {
      connection.send(data);
    },
  }),

  recorders: {
    rtt: histogram({ primary: ['p50', 'p99'], description: 'round trip: send to reply, per message' }),
    received: counter({
      rate: {
        key: 'messagesPerSec',
        header: 'msg/s',
        unit: 'msg/s',
        role: 'primary-rate',
        description: 'replies received per second of the window',
      },
      total: true,
    }),
    sent: counter(),
    errors: counter({
      total: { role: 'errors', description: 'wrong-sized replies and connections that closed on their own' },
    }),
    connectionsLost: counter({ total: { header: 'lost', role: 'errors' } }),
    unansweredAtEnd: counter({
      total: { header: 'unanswered', description: 'requests still without a reply when the drain ended' },
    }),
    repliesAfterWindow: counter({ total: false }),
  },
  metrics: {
    payloadMegabytesPerSec: {
      header: 'payload MB/s',
      unit: 'MB/s',
      better: 'higher',
      role: 'progress',
      source: {
        custom: 'replies x payload size per second, one direction (the other carries the same)',
        compute: ({ measurements, params }) =>
          measurements.windowMs > 0
            ? ((measurements.counters.received ?? 0) * params.payload) / measurements.windowMs / 1000
            : null,
      },
    },
  },

  // Once per client process: the message every connection sends, and the check of what comes back.
  setup: (ctx) => ({
    payload: ctx.params.binary ? new Uint8Array(ctx.params.payload).fill(0x78) : 'x'.repeat(ctx.params.payload),
    guard: new ProtocolGuard(ctx, 'echo'),
  }),

  async connection(conn, ctx, { payload, guard }) {
    const { payload: size, binary, inflight, messages: limit } = ctx.params;
    const { rtt, sent, received, errors, repliesAfterWindow: late } = ctx.recorders;
    const sendTimesUs = new Float64Array(inflight);
    let head = 0;
    let tail = 0;
    let sentHere = 0;
    let pending = 0;
    // Read on every reply: a plain flag costs less there than the signal's getter.
    let windowClosed = ctx.signal.aborted;
    let finished: () => void = () => undefined;
    const allAnswered = new Promise<void>((resolve) => (finished = resolve));
    ctx.signal.addEventListener('abort', () => (windowClosed = true), { once: true });
    // `atUs`: a reply's arrival time when the next message answers it, so one clock read serves both.
    const sendOne = (atUs = ctx.nowUs()): void => {
      sendTimesUs[tail] = atUs;
      tail = (tail + 1) % inflight;
      sentHere += 1;
      pending += 1;
      sent.add();
      conn.send(payload);
    };
    conn.onMessage((data) => {
      const nowUs = ctx.nowUs();
      pending -= 1;
      if (windowClosed) {
        late.add();
        if (pending === 0) finished();
        return;
      }
      const rttUs = nowUs - sendTimesUs[head]!;
      head = (head + 1) % inflight;
      // Send first, then book-keep: the next message leaves without waiting for the records.
      if (limit === 0 || sentHere < limit) sendOne(nowUs);
      else if (pending === 0) finished();
      rtt.recordUs(rttUs);
      received.add();
      if ((typeof data === 'string' ? data.length : data.byteLength) !== size) {
        errors.add();
        guard.broken(`the message sent back (${size} ${binary ? 'binary ' : ''}bytes)`, data);
      }
    });
    conn.onUnexpectedClose(() => errors.add());
    for (let i = 0; i < inflight && (limit === 0 || sentHere < limit); i++) sendOne();

    // Until the window closes (duration mode) or every message is answered (count mode); then replies in flight get the drain.
    await Promise.race([allAnswered, aborted(ctx.signal)]);
    if (pending > 0) await Promise.race([allAnswered, aborted(ctx.drained)]);
    // Taken only now: a tally after the window, which the window's time series must not read as traffic (a hung server's test).
    ctx.recorders.unansweredAtEnd.add(pending);
    guard.throwIfBroken();
  },

  table: ['rttP50Ms', 'rttP99Ms', 'rttMaxMs', 'messagesPerSec', 'errors'],
  charts: [
    { kind: 'heatmap', metrics: ['rttP50Ms', 'rttP99Ms'] },
    { kind: 'percentiles', histograms: ['rtt'] },
    { kind: 'over-time', histogram: 'rtt', rates: ['messagesPerSec'] },
    { kind: 'resources' },
  ],
});

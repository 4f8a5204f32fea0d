/**
 * The echo scenario as it was written before the per-connection form: one
 * client(ctx) per client process that opens its connections in batches, says
 * ready, runs, drains and closes them itself. Kept as the baseline of
 * per-connection-cost.ts, which measures what the per-connection form costs
 * against it in the same window. Its metrics are echo's.
 */
import {
  cpuCostMetrics,
  defineScenario,
  latencyMetrics,
  rate,
  serverMemoryCostMetric,
  serverRssBaseline,
  total,
  ProtocolGuard,
  type ClientConnection,
} from 'wsbench/scenario';

/** Connections opened at once per client process; more at a time only measures the kernel's SYN queue. */
const CONNECT_BATCH = 100;
/** After the window closes, replies still in flight get this long to arrive (counted, not timed). */
const DRAIN_MS = 1000;

export default defineScenario({
  name: 'echo-client-form',
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

  server: (ctx) => ({
    onConnection: serverRssBaseline(ctx),
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
    const guard = new ProtocolGuard(ctx, 'echo');
    let outstanding = 0;
    let finished = 0;
    // Read on every reply: a plain flag costs less there than the signal's getter.
    let windowClosed = false;
    ctx.signal.addEventListener('abort', () => (windowClosed = true), { once: true });
    let wake: () => void = () => undefined;

    const open = async (): Promise<void> => {
      const sendTimesUs = new Float64Array(inflight);
      let head = 0;
      let tail = 0;
      let sentHere = 0;
      let pending = 0;
      let connection: ClientConnection | null = null;
      // `atUs`: a reply's arrival time when the next message answers it, so one clock read serves both.
      const sendOne = (atUs = ctx.nowUs()): void => {
        sendTimesUs[tail] = atUs;
        tail = (tail + 1) % inflight;
        sentHere += 1;
        pending += 1;
        outstanding += 1;
        sent.add();
        connection!.send(payload);
      };
      connection = await ctx.connect({
        // Only the size of a reply is checked: decoding it to a string would cost each message a few per cent of the client's CPU.
        textAsBytes: true,
        onMessage(data) {
          const nowUs = ctx.nowUs();
          outstanding -= 1;
          pending -= 1;
          if (windowClosed) {
            late.add();
            if (outstanding === 0) wake();
            return;
          }
          const rttUs = nowUs - sendTimesUs[head]!;
          head = (head + 1) % inflight;
          // Send first, then book-keep: the next message leaves without waiting for the records.
          if (limit === 0 || sentHere < limit) sendOne(nowUs);
          else if (pending === 0 && ++finished === count) wake();
          rtt.recordUs(rttUs);
          received.add();
          if ((typeof data === 'string' ? data.length : data.byteLength) !== size) {
            errors.add();
            guard.broken(`the message sent back (${size} ${binary ? 'binary ' : ''}bytes)`, data);
          }
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
    if (outstanding > 0)
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, DRAIN_MS).unref();
      });
    ctx.done();
    ctx.counter('unansweredAtEnd').add(outstanding);
    await Promise.all(connections.map((c) => c.close()));
    guard.throwIfBroken();
  },

  metrics: {
    ...latencyMetrics('rtt', { primary: ['p50', 'p99'], description: 'round trip: send to reply, per message' }),
    messagesPerSec: rate('received', 'msg/s', {
      unit: 'msg/s',
      role: 'primary-rate',
      description: 'replies received per second of the window',
    }),
    ...cpuCostMetrics('received', 'msg'),
    serverRssPerConnectionKB: serverMemoryCostMetric((p) => Number(p.connections)),
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
    sent: total('sent', 'sent'),
    received: total('received', 'received'),
    errors: total('errors', 'errors', {
      role: 'errors',
      description: 'wrong-sized replies and connections that closed on their own',
    }),
    connectionsLost: total('connectionsLost', 'lost', { role: 'errors' }),
    unansweredAtEnd: total('unansweredAtEnd', 'unanswered', {
      description: 'requests still without a reply when the drain ended',
    }),
  },
  table: [
    'rttP50Ms',
    'rttP99Ms',
    'rttMaxMs',
    'messagesPerSec',
    'serverCpuUsPerMessage',
    'clientCpuUsPerMessage',
    'serverRssPerConnectionKB',
    'errors',
  ],
  charts: [
    { kind: 'heatmap', metrics: ['rttP50Ms', 'rttP99Ms'] },
    { kind: 'percentiles', histograms: ['rtt'] },
    { kind: 'over-time', histogram: 'rtt', rates: ['messagesPerSec'] },
    { kind: 'resources' },
  ],
});

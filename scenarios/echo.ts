/**
 * echo: the server sends every message straight back; the client times each
 * round trip. Two ways to offer the load (docs/load-models.md):
 * - the open model (`rate` or `ratePerConnection`, with `stages` to ramp it):
 *   every message goes out when it is due, whatever came back, and is timed
 *   from its due time, so a stall of the server counts for every message that
 *   waited through it (no coordinated omission); the service time, from the
 *   actual send, is recorded beside it;
 * - the closed loop (the default): each connection keeps `inflight` messages
 *   in flight and sends the next on a reply, so the load is what the server
 *   lets through and a stall counts once per connection.
 * WebSocket keeps order per connection, so replies are matched to their times
 * first-in, first-out and the payload carries no timestamp.
 *
 * Wire protocol for servers in other languages: docs/protocols/echo.md.
 *
 * Copy this file to write your own scenario: it imports only `wsbench/scenario`;
 * compile it and run `wsbench run ./my-scenario.js`. It is written per connection
 * (docs/writing-a-scenario.md): wsbench opens, spreads, drains and closes the
 * connections, and derives every metric from the recorders' declarations. Its
 * replies are matched by hand rather than by conn.requests() because it is the
 * reference of the client's cost per message (npm run bench).
 */
import {
  aborted,
  counter,
  defineScenario,
  histogram,
  loadModelInfo,
  OPEN_MODEL_PARAMETERS,
  openModelProblem,
  ProtocolGuard,
  SEND_SCHEDULE_RECORDERS,
  cpuCostMetrics,
  serverMemoryCostMetric,
  serverRssBaseline,
  type MetricInput,
} from 'wsbench/scenario';

export default defineScenario({
  name: 'echo',
  description:
    'Round trips of fixed-size messages: at a rate, each timed from when it was due (open model), or N connections x W in flight (closed loop; ping-pong when W = 1).',
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
      description: 'messages in flight per connection (closed loop)',
      default: 1,
      min: 1,
      max: 10_000,
      sweepable: true,
    },
    messages: {
      kind: 'integer',
      description: 'messages per connection, then stop (closed loop; 0 = run for the duration)',
      default: 0,
      min: 0,
    },
    ...OPEN_MODEL_PARAMETERS,
  },
  duration: { description: 'measurement window (ignored when messages or stages are set)', default: '5s' },
  presets: {
    ci: { duration: '1s' },
    // Bare `wsbench` (with --repeat 3): 17 measured pairs of 5 x 5 stacks, 3 rounds each, about a minute on 2 cores.
    quick: { duration: '600ms' },
  },
  validate(p) {
    const open = p.rate > 0 || p.ratePerConnection > 0;
    if (open && p.inflight !== 1)
      return {
        parameter: 'inflight',
        message: "counts the closed loop's messages in flight; at a rate, the schedule sets them",
      };
    if (open && p.messages > 0)
      return {
        parameter: 'messages',
        message: 'ends the closed loop after a count; at a rate, the window sets the count',
      };
    if (p.messages > 0 && p.stages !== '')
      return { parameter: 'stages', message: 'fill a window; messages ends it by a count instead: give one of them' };
    return openModelProblem(p);
  },
  loadModel: (p) => loadModelInfo(p, p.connections, `${p.connections} conn x ${p.inflight} in flight`),
  windowMs: (p) => (p.messages > 0 ? undefined : p.duration),
  // Every reply depends on its own connection only.
  multiProcessServer: true,
  // Connections open a hundred at a time, about 2,500 a second here: 15 s plus 1 s per 1000.
  readyTimeoutMs: (p) => 15_000 + p.connections,
  // Only the size of a reply is checked: decoding it to a string would cost each message a few per cent of the client's CPU.
  connect: { textAsBytes: true },

  server: (ctx) => ({
    // Its RSS as the first connection arrives: the baseline of the server's memory per connection.
    onConnection: serverRssBaseline(ctx),
    onMessage(connection, data) {
      connection.send(data);
    },
  }),

  recorders: {
    rtt: histogram({
      primary: ['p50', 'p99'],
      description: 'round trip per message: from when it was due (open model) or sent (closed loop) to its reply',
    }),
    service: histogram({
      stats: ['p50', 'p99', 'max'],
      label: 'service',
      description: 'from when each message actually went out to its reply (the same as rtt in the closed loop)',
    }),
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
      total: { header: 'unanswered', description: 'messages still without a reply when the drain ended' },
    }),
    unansweredAge: histogram({
      stats: ['max'],
      label: 'unanswered age',
      description:
        'how long each message counted unanswered had waited, from its due time, when the drain ended (not in rtt)',
    }),
    repliesAfterWindow: counter({ total: false }),
    ...SEND_SCHEDULE_RECORDERS,
  },
  metrics: {
    // What a reply costs the server and the clients in CPU time, and the server's memory per connection.
    ...cpuCostMetrics('received', 'msg'),
    serverRssPerConnectionKB: serverMemoryCostMetric((p) => Number(p.connections)),
    payloadMegabytesPerSec: {
      header: 'payload MB/s',
      unit: 'MB/s',
      better: 'higher',
      role: 'progress',
      source: {
        custom: 'replies x payload size per second, one direction (the other carries the same)',
        // Its parameter typed here, not inferred: a compute typed from the scenario would leave the metric keys unknown to `table`.
        compute: ({ measurements, params }: MetricInput<{ payload: number }>) =>
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
    const { rtt, service, sent, received, errors, repliesAfterWindow: late } = ctx.recorders;
    const waiting = new SendTimes(inflight);
    // The closed loop sends the next message on a reply, itself; with stages (or at a rate), conn.iterate paces the sends.
    const selfPaced = ctx.load.model === 'closed' && ctx.load.stages.length === 0;
    let sentHere = 0;
    // Read on every reply: a plain flag costs less there than the signal's getter.
    let windowClosed = ctx.signal.aborted;
    let finished: () => void = () => undefined;
    const allAnswered = new Promise<void>((resolve) => (finished = resolve));
    /** Closed loop with stages: the steps waiting for their replies, oldest first. */
    const answers: Array<() => void> = [];
    ctx.signal.addEventListener('abort', () => (windowClosed = true), { once: true });
    // `dueUs` and `atUs`: one clock read serves a reply's arrival and the next message's send.
    const sendOne = (dueUs: number, atUs: number): void => {
      waiting.push(dueUs, atUs);
      sentHere += 1;
      sent.add();
      conn.send(payload);
    };
    conn.onMessage((data) => {
      const nowUs = ctx.nowUs();
      if (waiting.size === 0) return guard.broken('a reply to nothing sent', data);
      const dueUs = waiting.dueOfOldest();
      const sentUs = waiting.sentOfOldest();
      waiting.shift();
      // A reply in the drain is still timed: leaving out the replies the window's end caught would drop the slowest.
      rtt.recordUs(nowUs - dueUs);
      service.recordUs(nowUs - sentUs);
      if (windowClosed) {
        late.add();
        answers.shift()?.();
        if (waiting.size === 0) finished();
        return;
      }
      if (selfPaced) {
        if (limit === 0 || sentHere < limit) sendOne(nowUs, nowUs);
        else if (waiting.size === 0) finished();
      } else answers.shift()?.();
      received.add();
      if ((typeof data === 'string' ? data.length : data.byteLength) !== size) {
        errors.add();
        guard.broken(`the message sent back (${size} ${binary ? 'binary ' : ''}bytes)`, data);
      }
    });
    conn.onUnexpectedClose(() => errors.add());

    if (selfPaced) {
      for (let i = 0; i < inflight && (limit === 0 || sentHere < limit); i++) {
        const nowUs = ctx.nowUs();
        sendOne(nowUs, nowUs);
      }
      // Until the window closes (duration mode) or every message is answered (count mode).
      await Promise.race([allAnswered, aborted(ctx.signal)]);
    } else if (ctx.load.model === 'open') {
      // Each message when it is due, whatever came back: the step returns nothing, so nothing waits for a reply.
      await conn.iterate((_n, dueUs, nowUs) => sendOne(dueUs, nowUs));
    } else {
      // The closed loop with stages: each step waits for its reply, and a connection the stages leave out waits.
      await conn.iterate(
        (_n, dueUs, nowUs) =>
          new Promise<void>((answered) => {
            answers.push(answered);
            sendOne(dueUs, nowUs);
          }),
        { inflight },
      );
    }
    // Replies in flight get the drain; what it leaves unanswered is counted, with its age.
    if (waiting.size > 0) await Promise.race([allAnswered, aborted(ctx.drained)]);
    const endUs = ctx.nowUs();
    // Taken only now: a tally after the window, which the window's time series must not read as traffic (a hung server's test).
    ctx.recorders.unansweredAtEnd.add(waiting.size);
    for (const dueUs of waiting.dueTimes()) ctx.recorders.unansweredAge.recordUs(endUs - dueUs);
    guard.throwIfBroken();
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
    { kind: 'percentiles', histograms: ['rtt', 'service'] },
    { kind: 'over-time', histogram: 'rtt', rates: ['messagesPerSec'] },
    // Drawn when the run sweeps --rate: where each stack's latency bends up against the load it was offered.
    { kind: 'offered-load', parameter: 'rate', histogram: 'rtt', delivered: 'messagesPerSec' },
    { kind: 'resources' },
  ],
});

/**
 * The messages of one connection still waiting for their replies, oldest first: when each was due and
 * when it went out (the same in the closed loop). Replies come back in order, so the oldest is always the
 * one answered. It grows by doubling (the open model keeps whatever the server has not answered in flight)
 * and costs no allocation per message.
 */
class SendTimes {
  private due: Float64Array;
  private sent: Float64Array;
  private head = 0;
  private count = 0;
  /** Capacities are powers of two: an index wraps with a mask, not a division. */
  private mask: number;

  constructor(capacity: number) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(1, capacity)));
    this.due = new Float64Array(size);
    this.sent = new Float64Array(size);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count;
  }

  push(dueUs: number, sentUs: number): void {
    if (this.count === this.due.length) this.grow();
    const at = (this.head + this.count) & this.mask;
    this.due[at] = dueUs;
    this.sent[at] = sentUs;
    this.count += 1;
  }

  /** The oldest message's due time; read sentOfOldest() before shift(). */
  dueOfOldest(): number {
    return this.due[this.head]!;
  }

  sentOfOldest(): number {
    return this.sent[this.head]!;
  }

  shift(): void {
    this.head = (this.head + 1) & this.mask;
    this.count -= 1;
  }

  /** Every waiting message's due time, oldest first. */
  *dueTimes(): Generator<number> {
    for (let i = 0; i < this.count; i++) yield this.due[(this.head + i) & this.mask]!;
  }

  private grow(): void {
    const size = this.due.length;
    const due = new Float64Array(size * 2);
    const sent = new Float64Array(size * 2);
    for (let i = 0; i < this.count; i++) {
      due[i] = this.due[(this.head + i) & this.mask]!;
      sent[i] = this.sent[(this.head + i) & this.mask]!;
    }
    this.due = due;
    this.sent = sent;
    this.head = 0;
    this.mask = size * 2 - 1;
  }
}

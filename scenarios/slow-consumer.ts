/**
 * slow-consumer: the server streams a message to every client each `interval`;
 * a share of the clients read slowly or not at all. They really do not read:
 * their sockets are paused (throttleReading), so the bytes stay in the kernel's
 * buffers, TCP flow control stalls the server's writes to them, and whatever
 * the server keeps sending queues up in the server (or is dropped, or the
 * connection is closed, as the stack's backpressure policy decides). Nothing
 * is read and thrown away in JavaScript.
 *
 * Measured apart for healthy and slow clients: one-way delay (one host, one
 * monotonic clock) and messages received, skipped (a gap in the sequence: the
 * server dropped them) and missing; on the server, what it queued for each
 * group (bufferedAmountBytes, read every 100 ms and carried in the messages,
 * so the queue shows over time), what it dropped and closed, and its
 * RSS growth from the stream's start (read from /proc).
 *
 * Stacks with a send-queue limit (uWS maxBackpressure, Bun backpressureLimit)
 * get `backpressureLimit` and `onLimit` for the cell; ws, socket.io and Deno
 * buffer without limit whatever they say. Wire protocol for servers in other
 * languages: docs/protocols/slow-consumer.md.
 */
import {
  CONNECT_PHASE_PARAMETERS,
  connectFailureCounter,
  connectFailureRecorders,
  connectionShare,
  connectPhaseProblem,
  connectPhaseReadyMs,
  counter,
  defineScenario,
  histogram,
  messageText,
  openPaced,
  ProtocolGuard,
  streamEnd,
  unreportedHistogram,
  type ClientConnection,
  type MetricInput,
  type ServerConnection,
} from 'wsbench/scenario';
import { decodeStreamTick, encodeStreamTick, messageBytes } from './slow-consumer/stream-tick.js';

/** How often the server reads its connections' queues (every message would cost as much as sending it, with a thousand connections). */
const QUEUE_SAMPLE_MS = 100;
/**
 * `start` comes on one connection and each group's hello on its own: nothing orders them, so a busy server
 * can read start before a slow client's hello, and would book that client's first messages as a healthy
 * one's. The stream waits for every open connection's hello, at most this long.
 */
const HELLO_WAIT_MS = 2000;
/** After the stream's last message was due, the slow clients read freely for this long to take what is queued for them. */
const DRAIN_MS = 5000;
const START = JSON.stringify({ start: true });
const HELLO_SLOW = JSON.stringify({ hello: 'slow' });
const HELLO_HEALTHY = JSON.stringify({ hello: 'healthy' });

const ticksOf = (p: { duration: number; interval: number }): number => Math.floor(p.duration / p.interval);
const megabytes = (bytes: number | null): number | null => (bytes === null ? null : Math.round(bytes / 1e4) / 100);

/** Connection `index` (over all client processes) is slow when it takes the share past another whole client: evenly spread, the first never. */
function isSlow(index: number, share: number): boolean {
  return Math.floor((index + 1) * share + 1e-9) > Math.floor(index * share + 1e-9);
}

/** The server's peak RSS in the window minus its RSS when the stream started, in bytes. */
function serverRssGrowthBytes({ measurements: m, resources: { server } }: MetricInput): number | null {
  const atStart = m.serverCounters.rssAtStartBytes;
  if (!server || atStart === undefined) return null;
  return server.rssBytes.max - atStart;
}

export default defineScenario({
  name: 'slow-consumer',
  description:
    'A stream to N clients of which a share read slowly or not at all (paused sockets); healthy and slow clients apart, and what the server queued, dropped and closed.',
  requires: { pauseReading: true },
  parameters: {
    connections: {
      kind: 'integer',
      description: 'connected clients over all client processes',
      default: 100,
      min: 1,
      max: 100_000,
      sweepable: true,
      spread: 'processes',
    },
    slowShare: {
      kind: 'number',
      description: 'share of the clients that read slowly (0.1 = 10 %), spread evenly',
      default: 0.1,
      min: 0,
      max: 1,
      sweepable: true,
    },
    slowMode: {
      kind: 'choice',
      description: 'stop: slow clients stop reading; rate: they read slowReadRate bytes a second',
      choices: ['stop', 'rate'],
      default: 'stop',
      sweepable: true,
    },
    slowReadRate: {
      kind: 'size',
      description: 'bytes a second a slow client reads in slowMode rate',
      default: '4kb',
      min: 1,
    },
    stopAfter: {
      kind: 'duration',
      description: 'slow clients read normally this long into the stream first',
      default: '0ms',
      min: '0ms',
    },
    stopFor: {
      kind: 'duration',
      description: 'then read slowly this long, and normally again after (0 = until the stream ends)',
      default: '0ms',
      min: '0ms',
    },
    interval: {
      kind: 'duration',
      description: 'time between two messages of the stream',
      default: '10ms',
      min: '1ms',
      max: '1h',
      sweepable: true,
    },
    messageSize: {
      kind: 'size',
      description: 'size of each message (a small JSON header padded with spaces)',
      default: '1kb',
      min: 64,
      max: '1MiB',
      sweepable: true,
    },
    backpressureLimit: {
      kind: 'size',
      description:
        'per-connection send queue of stacks that limit it (uWS maxBackpressure, Bun backpressureLimit; 0 = the limit wsbench pins, 512 MiB); the others buffer without limit',
      default: '1MiB',
      min: 0,
      sweepable: true,
    },
    onLimit: {
      kind: 'choice',
      description: 'what such a stack does at the limit: drop the message, or close the connection',
      choices: ['drop', 'close'],
      default: 'drop',
      sweepable: true,
    },
    ...CONNECT_PHASE_PARAMETERS,
  },
  duration: { description: 'streaming time (messages sent = duration / interval)', min: '1ms', max: '24h' },
  presets: {
    ci: { connections: 20, slowShare: 0.1, duration: '1s', interval: '20ms' },
  },
  validate(p) {
    if (ticksOf(p) < 1)
      return {
        parameter: 'duration',
        message: `${p.duration}ms is shorter than interval ${p.interval}ms: no message would be sent`,
      };
    if (p.stopAfter >= p.duration)
      return {
        parameter: 'stopAfter',
        message: `${p.stopAfter}ms is not within the stream's ${p.duration}ms: no client would be slow`,
      };
    return connectPhaseProblem(p);
  },
  // A stack that closes a slow consumer at its limit is what is measured, counted per group: its own metrics
  // say which are faults (the healthy clients' losses: role errors), not the engine's connection ledger.
  connectionFaults: 'measured',
  sendQueueLimit: (p) => (p.backpressureLimit > 0 ? { bytes: p.backpressureLimit, onLimit: p.onLimit } : undefined),
  windowMs: () => undefined, // the clients end the cell once the stream and the slow clients' drain are over
  readyTimeoutMs: (p) => connectPhaseReadyMs(p),

  server(ctx) {
    const p = ctx.params;
    const ticks = ticksOf(p);
    const intervalUs = p.interval * 1000;
    const groups = new Map<ServerConnection, 'slow' | 'healthy'>();
    const recorders = ctx.recorders;
    const sent = { slow: recorders.sentSlow, healthy: recorders.sentHealthy };
    const dropped = { slow: recorders.droppedSlow, healthy: recorders.droppedHealthy };
    const closed = { slow: recorders.closedSlow, healthy: recorders.closedHealthy };
    const slowClosedAfter = recorders.slowClosedAfter;
    const peaks = { slow: 0, healthy: 0 };
    let slowQueued = 0;
    let startUs = 0;
    let seq = 0;
    let streaming = false;
    let startAsked = false;
    let helloDeadline: NodeJS.Timeout | undefined;
    let timer: NodeJS.Timeout | undefined;
    let sampler: NodeJS.Timeout | undefined;

    const sampleQueues = (): void => {
      const bytes = { slow: 0, healthy: 0 };
      for (const connection of ctx.connections())
        bytes[groups.get(connection) ?? 'healthy'] += connection.bufferedAmountBytes();
      slowQueued = bytes.slow;
      peaks.slow = Math.max(peaks.slow, bytes.slow);
      peaks.healthy = Math.max(peaks.healthy, bytes.healthy);
    };
    const tick = (): void => {
      const nowUs = ctx.nowUs();
      // A late timer still owes every message that fell due, each stamped with its own time.
      while (seq < ticks && startUs + seq * intervalUs <= nowUs) {
        const message = encodeStreamTick({ seq, t: startUs + seq * intervalUs, q: slowQueued }, p.messageSize);
        for (const connection of ctx.connections()) {
          const group = groups.get(connection) ?? 'healthy';
          if (connection.send(message)) sent[group].add();
          else dropped[group].add();
        }
        seq += 1;
      }
      if (seq < ticks) timer = setTimeout(tick, Math.max(0, (startUs + seq * intervalUs - ctx.nowUs()) / 1000));
    };
    const startStream = (): void => {
      if (streaming) return;
      clearTimeout(helloDeadline);
      streaming = true;
      startUs = ctx.nowUs();
      recorders.rssAtStartBytes.add(process.memoryUsage.rss());
      sampler = setInterval(sampleQueues, QUEUE_SAMPLE_MS);
      tick();
    };
    const everyGroupKnown = (): boolean => {
      for (const connection of ctx.connections()) if (!groups.has(connection)) return false;
      return true;
    };
    return {
      onMessage(connection, data) {
        const text = messageText(data);
        if (text === HELLO_SLOW || text === HELLO_HEALTHY) {
          groups.set(connection, text === HELLO_SLOW ? 'slow' : 'healthy');
          if (startAsked && everyGroupKnown()) startStream();
        } else if (text === START && !startAsked) {
          startAsked = true;
          if (everyGroupKnown()) startStream();
          else helloDeadline = setTimeout(startStream, HELLO_WAIT_MS);
        }
      },
      onClose(connection) {
        const group = groups.get(connection) ?? 'healthy';
        if (streaming) {
          closed[group].add();
          if (group === 'slow') slowClosedAfter.recordUs(ctx.nowUs() - startUs);
        }
        groups.delete(connection);
        // The one connection start still waited for may be this one.
        if (startAsked && everyGroupKnown()) startStream();
      },
      onMeasureEnd() {
        clearTimeout(helloDeadline);
        clearTimeout(timer);
        clearInterval(sampler);
        sampleQueues();
        recorders.slowQueuedPeakBytes.add(peaks.slow);
        recorders.healthyQueuedPeakBytes.add(peaks.healthy);
        recorders.ticksSent.add(seq);
      },
    };
  },

  async client(ctx) {
    const p = ctx.params;
    const ticks = ticksOf(p);
    const { count, first, sourceOf } = connectionShare(ctx, p.connections, p.sourceAddresses);
    const guard = new ProtocolGuard(ctx, 'slow-consumer');
    // Taken once, here: the message handlers record into them with no lookup.
    const recorders = ctx.recorders;
    const delay = { healthy: recorders.delay, slow: recorders.slowDelay };
    const received = { healthy: recorders.healthyReceived, slow: recorders.slowReceived };
    const skipped = { healthy: recorders.healthySkipped, slow: recorders.slowSkipped };
    const closed = { healthy: recorders.healthyClosed, slow: recorders.slowClosed };
    const closedAfter = recorders.slowClosedByServerAfter;
    const rxBytes = recorders.rxBytes;
    // The server's queue for slow clients as the stream says it, kept by one connection: a level, not a sum.
    const serverQueued = recorders.serverSlowQueuedBytes;
    let queuedSeen = 0;
    let streamStartUs = 0;
    let complete = 0;
    let wake: () => void = () => undefined;

    interface Reader {
      connection: ClientConnection;
      group: 'slow' | 'healthy';
      received: number;
      nextSeq: number;
      done: boolean;
      tracksQueue: boolean;
    }
    let readers: Reader[] = [];
    const finish = (reader: Reader): void => {
      if (reader.done) return;
      reader.done = true;
      if (++complete === readers.length) wake();
    };

    readers = await openPaced({
      count,
      ratePerSec: p.connectRate / ctx.processCount,
      timeoutMs: p.connectTimeout,
      signal: ctx.signal,
      open: async (index) => {
        const global = first + index;
        const reader = {
          group: isSlow(global, p.slowShare) ? 'slow' : 'healthy',
          received: 0,
          nextSeq: 0,
          done: false,
          tracksQueue: global === 0,
        } as Reader;
        reader.connection = await ctx.connect({
          ...sourceOf(global),
          textAsBytes: true,
          inspectSocket: true,
          onMessage(data) {
            const nowUs = ctx.nowUs();
            const tick = decodeStreamTick(data);
            if (!tick) return guard.broken('a stream message {"seq","t","q"} padded with spaces', data);
            received[reader.group].add();
            rxBytes.add(messageBytes(data));
            delay[reader.group].recordUs(nowUs - tick.t);
            if (tick.seq > reader.nextSeq) skipped[reader.group].add(tick.seq - reader.nextSeq);
            reader.nextSeq = tick.seq + 1;
            if (reader.tracksQueue) {
              serverQueued.add(tick.q - queuedSeen);
              queuedSeen = tick.q;
            }
            if (++reader.received === ticks || reader.nextSeq >= ticks) finish(reader);
          },
          onUnexpectedClose() {
            if (streamStartUs > 0) {
              closed[reader.group].add();
              if (reader.group === 'slow') closedAfter.recordUs(ctx.nowUs() - streamStartUs);
            }
            finish(reader);
          },
        });
        reader.connection.send(reader.group === 'slow' ? HELLO_SLOW : HELLO_HEALTHY);
        return reader;
      },
      discard: (late) => void late.connection.close(),
      onFailure: connectFailureCounter(ctx),
    });
    // Done before the window (lost while connecting): they count as complete already.
    complete = readers.filter((r) => r.done).length;
    recorders.connected.add(readers.length);
    const slow = readers.filter((r) => r.group === 'slow');
    recorders.slowConnected.add(slow.length);
    if (slow.some((r) => !r.connection.throttleReading))
      throw new Error('a slow client could not reach its socket to stop reading it');

    await ctx.ready();
    streamStartUs = ctx.nowUs();
    if (first === 0) readers[0]?.connection.send(START);
    const timers: NodeJS.Timeout[] = [];
    const throttle = (bytesPerSec: number | null): void => {
      for (const reader of slow) if (!reader.done) reader.connection.throttleReading?.(bytesPerSec);
    };
    timers.push(setTimeout(() => throttle(p.slowMode === 'stop' ? 0 : p.slowReadRate), p.stopAfter));
    if (p.stopFor > 0) timers.push(setTimeout(() => throttle(null), p.stopAfter + p.stopFor));
    const lastDueMs = (ticks - 1) * p.interval;
    // The stream is over: the slow clients read freely and take whatever is still queued for them.
    timers.push(setTimeout(() => throttle(null), lastDueMs));
    const end = streamEnd(ctx.signal, lastDueMs + DRAIN_MS, () => complete >= readers.length);
    wake = end.wake;
    await end.finished;
    for (const timer of timers) clearTimeout(timer);
    ctx.done();
    // Both made, whichever groups there are: a group with no client misses nothing, a measured 0.
    const missing = { slow: recorders.slowMissing, healthy: recorders.healthyMissing };
    for (const reader of readers) missing[reader.group].add(Math.max(0, ticks - reader.received));
    throttle(null);
    await Promise.all(readers.map((r) => r.connection.close()));
    guard.throwIfBroken();
  },

  recorders: {
    sentSlow: counter({ side: 'server', total: { key: 'serverSentSlow', header: 'srv sent slow' } }),
    sentHealthy: counter({ side: 'server', total: false }),
    droppedSlow: counter({
      side: 'server',
      total: {
        key: 'serverDroppedSlow',
        header: 'srv drop',
        better: 'none',
        description: 'messages to slow clients the stack refused to queue',
      },
    }),
    droppedHealthy: counter({
      side: 'server',
      total: {
        key: 'serverDroppedHealthy',
        header: 'srv drop healthy',
        role: 'errors',
        description: 'messages to healthy clients the stack refused to queue',
      },
    }),
    closedSlow: counter({ side: 'server', total: false }),
    closedHealthy: counter({ side: 'server', total: false }),
    slowClosedAfter: unreportedHistogram({ side: 'server' }),
    // Read by the computed metrics below (peaks in MB, RSS growth), or kept in the JSON only.
    rssAtStartBytes: counter({ side: 'server', total: false }),
    slowQueuedPeakBytes: counter({ side: 'server', total: false }),
    healthyQueuedPeakBytes: counter({ side: 'server', total: false }),
    ticksSent: counter({ side: 'server', total: false }),
    connected: counter({ total: { header: 'conn' } }),
    slowConnected: counter({ total: { header: 'slow' } }),
    ...connectFailureRecorders(),
    delay: histogram({
      stats: ['p50', 'p99', 'max'],
      primary: ['p50', 'p99'],
      description: "healthy clients, one-way: the message's due time on the server to its arrival",
    }),
    slowDelay: histogram({
      stats: ['p50', 'p99', 'max'],
      label: 'slow',
      description: 'slow clients, one-way, their drain at the end included',
    }),
    healthyReceived: counter({ total: { header: 'recv' } }),
    // Faults: what a healthy client lost. The slow clients' losses below are what the stack does by design.
    healthyMissing: counter({
      total: { header: 'miss', role: 'errors', description: 'messages a healthy client never received' },
    }),
    healthySkipped: counter({
      total: {
        header: 'skip',
        role: 'errors',
        description: "messages missing from the middle of a healthy client's sequence (dropped by the server)",
      },
    }),
    healthyClosed: counter({
      total: {
        header: 'closed',
        role: 'errors',
        description: 'healthy clients whose connection closed during the stream',
      },
    }),
    slowReceived: counter({ total: { header: 'slow recv' } }),
    slowMissing: counter({
      total: {
        header: 'slow miss',
        better: 'lower',
        description: 'messages a slow client never received, its drain at the end included',
      },
    }),
    slowSkipped: counter({
      total: {
        header: 'slow skip',
        better: 'lower',
        description: "messages missing from the middle of a slow client's sequence (dropped by the server)",
      },
    }),
    slowClosed: counter({
      total: {
        header: 'slow closed',
        better: 'none',
        description: 'slow clients whose connection the server closed during the stream',
      },
    }),
    slowClosedByServerAfter: histogram({
      stats: ['p50', 'max'],
      label: 'closed after',
      description: "from the stream's start to a slow client's connection closing",
    }),
    rxBytes: counter({ total: false }),
    serverSlowQueuedBytes: counter({
      rate: {
        key: 'slowQueueGrowth',
        header: 'queue B/s',
        unit: 'bytes/s',
        better: 'none',
        description:
          "growth of the server's queue for slow clients, as the stream reports it (over the window: its level at the stream's end, per second)",
      },
    }),
  },
  // Each compute's input typed, not inferred: one typed from the scenario would leave these keys unknown to `table`.
  metrics: {
    serverSlowQueuedPeakMB: {
      header: 'srv queue MB',
      unit: 'MB',
      better: 'none',
      role: 'detail',
      acrossRounds: 'max',
      source: {
        custom:
          'peak of the bytes the server had queued for its slow connections (bufferedAmountBytes of each, read every 100 ms), in MB',
        compute: ({ measurements: m }: MetricInput) => megabytes(m.serverCounters.slowQueuedPeakBytes ?? null),
      },
    },
    serverHealthyQueuedPeakMB: {
      header: 'srv queue healthy MB',
      unit: 'MB',
      better: 'lower',
      role: 'detail',
      acrossRounds: 'max',
      source: {
        custom: 'the same for the healthy connections',
        compute: ({ measurements: m }: MetricInput) => megabytes(m.serverCounters.healthyQueuedPeakBytes ?? null),
      },
    },
    serverRssGrowthMB: {
      header: 'srv RSS growth MB',
      unit: 'MB',
      better: 'lower',
      role: 'detail',
      acrossRounds: 'max',
      source: {
        custom: "the server's peak RSS in the window (from /proc) minus its RSS when the stream started, in MB",
        compute: (input: MetricInput) => megabytes(serverRssGrowthBytes(input)),
      },
    },
    serverRssMB: {
      header: 'srv RSS MB',
      unit: 'MB',
      better: 'lower',
      role: 'detail',
      source: {
        custom: "the server's peak RSS in the window, in MB",
        compute: ({ resources: { server } }: MetricInput) => megabytes(server ? server.rssBytes.max : null),
      },
    },
  },
  table: [
    'connected',
    'slowConnected',
    'delayP50Ms',
    'delayP99Ms',
    'healthyMissing',
    'slowDelayP50Ms',
    'slowDelayMaxMs',
    'slowReceived',
    'slowSkipped',
    'slowMissing',
    'slowClosed',
    'serverDroppedSlow',
    'serverSlowQueuedPeakMB',
    'serverRssGrowthMB',
  ],
  charts: [
    {
      kind: 'by-parameter',
      parameter: 'slowShare',
      metrics: ['serverRssGrowthMB', 'serverSlowQueuedPeakMB'],
      title: 'server memory by share of slow clients',
    },
    {
      kind: 'by-parameter',
      parameter: 'slowShare',
      metrics: ['delayP50Ms', 'delayP99Ms'],
      title: "healthy clients' delay by share of slow clients",
    },
    { kind: 'over-time', rates: ['slowQueueGrowth'], title: "growth of the server's queue for slow clients" },
    { kind: 'percentiles', histograms: ['delay', 'slowDelay'] },
    { kind: 'resources' },
  ],
});

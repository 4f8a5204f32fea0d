/**
 * firehose (seed 003): a long-run receive-path benchmark on one connection.
 * The client subscribes to 13 instruments; the server answers with a snapshot
 * per instrument (up to ~80 KB) and then replays a synthetic order-book update
 * stream (~220 bytes a message), at `rate` messages/s or as fast as
 * backpressure allows. Messages above `fragmentSize` leave as several frames.
 *
 * The client counts what it receives the way the seed's telemetry does; the
 * frames come from the bytes on the wire (the stacks hide frames from their
 * users), and are n/a where a stack cannot hand those bytes over. When the
 * window closes the client unsubscribes and reads until the server's reply, so
 * every message the server sent is accounted for (counted apart from the rates).
 * Wire protocol for servers in other languages: docs/protocols/firehose.md.
 */
import {
  counter,
  defineScenario,
  messageText,
  parseJson,
  ProtocolGuard,
  rate,
  unreportedHistogram,
  WIRE_METRICS,
  WireTelemetry,
  type ClientConnection,
  type ScenarioConnectOptions,
  type MetricDefinition,
  type MetricInput,
  RESOURCE_METRICS,
} from 'wsbench/scenario';
import { buildOrderBookFeed, INSTRUMENTS } from './firehose/order-book-feed.js';
import { FeedSender, prepareFeed, prepareText, sendCounted, type SendCounters } from './firehose/feed-sender.js';

/** After the window, the backlog (at most ~1 MiB queued in the server) gets this long to arrive. */
const DRAIN_MS = 10_000;
const SYMBOLS = INSTRUMENTS.map(([symbol]) => symbol);
/** Requests and replies shaped like Kraken's v2 API; replies start `{"method"`, feed messages `{"channel"`. */
const SUBSCRIBE = JSON.stringify({
  method: 'subscribe',
  params: { channel: 'book', depth: 1000, symbol: SYMBOLS },
  req_id: 1,
});
const UNSUBSCRIBE = JSON.stringify({
  method: 'unsubscribe',
  params: { channel: 'book', depth: 1000, symbol: SYMBOLS },
  req_id: 2,
});
const CHAR_M = 0x6d;
const replyText = (method: string, reqId: unknown): string => JSON.stringify({ method, success: true, req_id: reqId });

/** The third character of a reply (`{"m`) or of its UTF-8 bytes, which agree while it is ASCII; -1 for shorter messages. */
const thirdCharCode = (data: string | Uint8Array): number =>
  typeof data === 'string' ? data.charCodeAt(2) : (data[2] ?? -1);

/** Messages and bytes received in all, the backlog read after the window included. */
function rxTotals(c: Readonly<Record<string, number>>): { messages: number; bytes: number } {
  return {
    messages: (c.received ?? 0) + (c.receivedAfterWindow ?? 0),
    bytes: (c.rxBytes ?? 0) + (c.rxBytesAfterWindow ?? 0),
  };
}

/** The smallest or largest message, from the counter the client writes once (absent when nothing arrived). */
/** The smallest or largest message of a round: several rounds take the min or max of theirs, never a sum. */
function messageBytes(
  header: string,
  description: string,
  counter: string,
  acrossRounds: 'min' | 'max',
): MetricDefinition {
  return {
    header,
    unit: 'bytes',
    better: 'none',
    role: 'detail',
    description,
    acrossRounds,
    source: {
      custom: `counter ${counter}, null when no message arrived`,
      compute: ({ measurements: { counters: c } }) => c[counter] ?? null,
    },
  };
}

export default defineScenario({
  name: 'firehose',
  description:
    'One connection receives a synthetic 13-instrument order-book feed (snapshots, then ~220-byte updates, large ones fragmented); ' +
    'seed-style RX telemetry (seed 003).',
  requires: { fragmentControl: true, wireTap: true },
  parameters: {
    rate: {
      kind: 'integer',
      description: 'update messages per second (0 = as fast as backpressure allows)',
      default: 0,
      min: 0,
      max: 10_000_000,
      sweepable: true,
    },
    fragmentSize: {
      kind: 'size',
      description: 'largest frame payload; longer messages are sent as several frames',
      default: '8KiB',
      min: 16,
      max: '64MiB',
      sweepable: true,
    },
  },
  duration: { description: 'how long to stream (Ctrl+C ends it early and keeps the results)', max: '168h' },
  presets: {
    // The seed: ~10 h of Kraken book traffic, 17.7 M messages (~490/s, 100-110 KB/s), 8 KB receive buffer.
    seed: { duration: '10h', rate: 490, fragmentSize: '8KiB' },
    // Small fragments so snapshots and batched updates must arrive in several frames.
    ci: { duration: '2s', rate: 0, fragmentSize: '1KiB' },
  },
  // Each connection's stream is its own.
  multiProcessServer: true,

  server(ctx) {
    const fragmentBytes = ctx.params.fragmentSize;
    const feed = prepareFeed(buildOrderBookFeed(), fragmentBytes);
    const counters: SendCounters = {
      messages: ctx.recorders.messagesSent,
      frames: ctx.recorders.framesSent,
      bytes: ctx.recorders.bytesSent,
    };
    const senders = new Map<number, FeedSender>();
    const stop = (id: number): void => {
      senders.get(id)?.stop();
      senders.delete(id);
    };
    return {
      onMessage(connection, data) {
        let request: { method?: unknown; req_id?: unknown };
        try {
          request = JSON.parse(messageText(data)) as typeof request;
        } catch {
          return void ctx.recorders.badRequests.add();
        }
        stop(connection.id);
        sendCounted(
          connection,
          prepareText(replyText(String(request.method), request.req_id), fragmentBytes),
          fragmentBytes,
          counters,
        );
        if (request.method !== 'subscribe') return;
        const sender = new FeedSender(connection, feed, fragmentBytes, ctx.params.rate, counters);
        senders.set(connection.id, sender);
        sender.start();
      },
      onClose: (connection) => stop(connection.id),
      onMeasureEnd() {
        for (const id of [...senders.keys()]) stop(id);
      },
    };
  },

  async client(ctx) {
    if (ctx.share(1) === 0) {
      // Only one process holds the connection; the others just keep the window's rhythm.
      await ctx.ready();
      if (!ctx.signal.aborted)
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      return;
    }
    // Taken once, here: the message handler records into them with no lookup.
    const { received, rxBytes, sent, txBytes } = ctx.recorders;
    const { receivedAfterWindow: late, rxBytesAfterWindow: lateBytes } = ctx.recorders;
    const wire = new WireTelemetry(ctx, ctx);
    const sizes = ctx.recorders.messageBytes;
    let inWindow = true;
    let minBytes = Number.POSITIVE_INFINITY;
    let maxBytes = 0;
    let unsubscribed: () => void = () => undefined;
    const guard = new ProtocolGuard(ctx, 'firehose');
    let replied = false;

    const options: Omit<ScenarioConnectOptions, 'localAddress'> = {
      // Feed messages are counted and sized, never read: decoding each to a string cost ~8 % of the client's CPU.
      textAsBytes: true,
      onMessage(data) {
        const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
        // Only the first message is read: the reply to subscribe must come before the feed.
        if (!replied) {
          replied = true;
          const reply = parseJson(messageText(data)) as { method?: unknown } | undefined;
          if (reply?.method !== 'subscribe')
            return guard.broken('the reply {"method":"subscribe","success":true,"req_id":1}', data);
        }
        if (inWindow) {
          received.add();
          rxBytes.add(size);
          sizes.recordBytes(size);
        } else {
          late.add();
          lateBytes.add(size);
        }
        if (size < minBytes) minBytes = size;
        if (size > maxBytes) maxBytes = size;
        if (
          thirdCharCode(data) === CHAR_M &&
          (JSON.parse(messageText(data)) as { method?: string }).method === 'unsubscribe'
        )
          unsubscribed();
      },
      onUnexpectedClose: () => unsubscribed(), // counted by the core as connectionsLost; nothing more will come
    };
    let connection: ClientConnection;
    let tapped = true;
    try {
      connection = await ctx.connect({ ...options, onWireData: wire.push });
    } catch (error) {
      tapped = false;
      ctx.note(`frame counts n/a: ${(error as Error).message}`);
      connection = await ctx.connect(options);
    }
    const send = (text: string): void => {
      connection.send(text);
      sent.add();
      txBytes.add(Buffer.byteLength(text));
    };

    await ctx.ready();
    send(SUBSCRIBE);
    if (!ctx.signal.aborted)
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    inWindow = false;
    const drained =
      !guard.ok ||
      (await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), DRAIN_MS);
        unsubscribed = () => {
          clearTimeout(timer);
          resolve(true);
        };
        send(UNSUBSCRIBE);
      }));
    // Counted either way: a drain that ended in time is a measured 0, not a counter never made.
    ctx.recorders.drainTimedOut.add(drained ? 0 : 1);
    await connection.close();
    if (tapped) {
      wire.flush(ctx);
      if (wire.firstError) ctx.note(`wire framing error: ${wire.firstError}`);
    }
    if (maxBytes > 0) {
      ctx.recorders.messageBytesMin.add(minBytes);
      ctx.recorders.messageBytesMax.add(maxBytes);
    }
    guard.throwIfBroken();
  },

  recorders: {
    messagesSent: counter({ side: 'server', total: { key: 'serverMessagesSent', header: 'server msgs' } }),
    framesSent: counter({ side: 'server', total: { key: 'serverFramesSent', header: 'server frames' } }),
    // Reported as serverBytesSent in `metrics`: bytes, where a counter's total is a count.
    bytesSent: counter({ side: 'server', total: false }),
    badRequests: counter({ side: 'server', total: false }),
    received: counter({
      rate: {
        key: 'messagesPerSec',
        header: 'msg/s',
        unit: 'msg/s',
        role: 'primary-rate',
        description: 'messages received in the window, per second',
      },
    }),
    // Its total in `metrics` (rxBytes, the backlog included), and its second rate, megabytesPerSec.
    rxBytes: counter({
      rate: {
        key: 'bytesPerSec',
        header: 'B/s',
        unit: 'bytes/s',
        description: 'message bytes received in the window, per second',
      },
    }),
    receivedAfterWindow: counter({
      total: {
        key: 'rxMessagesAfterWindow',
        header: 'rx after window',
        description: 'the backlog read after the window closed',
      },
    }),
    rxBytesAfterWindow: counter({ total: false }),
    sent: counter({ total: { key: 'txMessages', header: 'tx msgs' } }),
    // Reported in `metrics` (txBytes): bytes, where a counter's total is a count.
    txBytes: counter({ total: false }),
    // Counted by wsbench itself: the closes it saw the client not ask for.
    connectionsLost: counter({
      total: { key: 'closeEvents', header: 'closes', role: 'errors', description: 'closes the client did not ask for' },
    }),
    drainTimedOut: counter({
      total: {
        header: 'drain timeouts',
        role: 'errors',
        description: "the server's reply to unsubscribe never came",
      },
    }),
    // Reported in `metrics` as the smallest and largest of the rounds, never their sum.
    messageBytesMin: counter({ total: false }),
    messageBytesMax: counter({ total: false }),
    // Its median is messageBytesP50 in `metrics`, better 'none' (a size is no better smaller).
    messageBytes: unreportedHistogram({ unit: 'bytes' }),
  },
  // Each compute's input typed, not inferred: one typed from the scenario would leave these keys unknown to `table`.
  metrics: {
    // A counter declares one rate: rxBytes' second, in MB/s.
    megabytesPerSec: rate('rxBytes', 'MB/s', {
      unit: 'MB/s',
      scale: 1e-6,
      role: 'progress',
      description: 'message bytes received in the window',
    }),
    rxMessages: {
      header: 'rx msgs',
      unit: 'count',
      better: 'none',
      role: 'detail',
      source: {
        custom: 'messages received, the backlog after the window included',
        compute: ({ measurements: m }: MetricInput) => rxTotals(m.counters).messages,
      },
    },
    rxBytes: {
      header: 'rx bytes',
      unit: 'bytes',
      better: 'none',
      role: 'detail',
      source: {
        custom: 'message bytes received, the backlog after the window included',
        compute: ({ measurements: m }: MetricInput) => rxTotals(m.counters).bytes,
      },
    },
    txBytes: { header: 'tx bytes', unit: 'bytes', better: 'none', role: 'detail', source: { counter: 'txBytes' } },
    messageBytesMin: messageBytes('min B', 'smallest message received', 'messageBytesMin', 'min'),
    messageBytesAvg: {
      header: 'avg B',
      unit: 'bytes',
      better: 'none',
      role: 'detail',
      source: {
        custom: 'rxBytes / rxMessages',
        compute: ({ measurements: { counters: c } }: MetricInput) => {
          const { messages, bytes } = rxTotals(c);
          return messages > 0 ? bytes / messages : null;
        },
      },
    },
    messageBytesMax: messageBytes('max B', 'largest message received', 'messageBytesMax', 'max'),
    messageBytesP50: {
      header: 'p50 B',
      unit: 'bytes',
      better: 'none',
      role: 'detail',
      description: 'median message received (in the window)',
      source: { histogram: 'messageBytes', stat: 'p50' },
    },
    ...WIRE_METRICS,
    serverBytesSent: {
      header: 'server bytes',
      unit: 'bytes',
      better: 'none',
      role: 'detail',
      source: { counter: 'bytesSent', side: 'server' },
    },
    // A fault: the feed waits for backpressure, so a message the stack refused to queue is one the client never gets.
    stackDrops: {
      header: 'stack drops',
      unit: 'count',
      better: 'lower',
      role: 'errors',
      source: {
        custom: 'messages the server stack refused to queue, as the stack counts them',
        compute: ({ stackDrops }: MetricInput) => stackDrops,
      },
    },
    clientCpuPercent: RESOURCE_METRICS.clientCpu,
    clientRssBytes: RESOURCE_METRICS.clientRss,
  },
  table: [
    'messagesPerSec',
    'megabytesPerSec',
    'rxMessages',
    'txMessages',
    'receiveErrors',
    'closeEvents',
    'messageBytesMin',
    'messageBytesAvg',
    'messageBytesMax',
    'framesPerMessageAvg',
    'framesPerMessageMax',
    'fastPathPercent',
    'assembledMessages',
    'assemblyAvgUs',
    'clientCpuPercent',
  ],
  charts: [
    { kind: 'sizes', histogram: 'messageBytes' },
    { kind: 'over-time', rates: ['messagesPerSec', 'megabytesPerSec'] },
    { kind: 'resources' },
  ],
});

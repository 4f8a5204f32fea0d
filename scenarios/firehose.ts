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
 */
import type { ClientConnection, ClientConnectOptions, Scenario } from '../src/index.js';
import { messageText } from '../src/message-text.js';
import { buildOrderBookFeed, INSTRUMENTS } from './lib/order-book-feed.js';
import { FeedSender, prepareFeed, prepareText, sendCounted, type SendCounters } from './lib/feed-sender.js';
import { WireTelemetry } from './lib/wire-telemetry.js';

interface FirehoseParams {
  [key: string]: number | boolean | string;
  duration: number;
  rate: number;
  fragmentSize: number;
}

/** After the window, the backlog (at most ~1 MiB queued in the server) gets this long to arrive. */
const DRAIN_MS = 10_000;
const SYMBOLS = INSTRUMENTS.map(([symbol]) => symbol);
/** Requests and replies shaped like Kraken's v2 API; replies start `{"method"`, feed messages `{"channel"`. */
const SUBSCRIBE = JSON.stringify({ method: 'subscribe', params: { channel: 'book', depth: 1000, symbol: SYMBOLS }, req_id: 1 });
const UNSUBSCRIBE = JSON.stringify({ method: 'unsubscribe', params: { channel: 'book', depth: 1000, symbol: SYMBOLS }, req_id: 2 });
const CHAR_M = 0x6d;
const replyText = (method: string, reqId: unknown): string => JSON.stringify({ method, success: true, req_id: reqId });

const firehose: Scenario<FirehoseParams> = {
  name: 'firehose',
  description: 'One connection receives a synthetic 13-instrument order-book feed (snapshots, then ~220-byte updates, large ones fragmented); seed-style RX telemetry (seed 003).',
  requires: { fragmentControl: true },
  parameters: {
    duration: { kind: 'duration', description: 'how long to stream (Ctrl+C ends it early and keeps the results)', default: 10_000, min: 100, max: 7 * 86_400_000 },
    rate: { kind: 'integer', description: 'update messages per second (0 = as fast as backpressure allows)', default: 0, min: 0, max: 10_000_000, sweepable: true },
    fragmentSize: { kind: 'size', description: 'largest frame payload; longer messages are sent as several frames', default: 8192, min: 16, max: 64 * 1024 * 1024, sweepable: true },
  },
  presets: {
    // The seed: ~10 h of Kraken book traffic, 17.7 M messages (~490/s, 100-110 KB/s), 8 KB receive buffer.
    seed: { duration: '10h', rate: '490', fragmentSize: '8KiB' },
    // Small fragments so snapshots and batched updates must arrive in several frames.
    ci: { duration: '2s', rate: '0', fragmentSize: '1KiB' },
  },
  windowMs: (p) => p.duration,

  server(ctx) {
    const fragmentBytes = ctx.params.fragmentSize;
    const feed = prepareFeed(buildOrderBookFeed(), fragmentBytes);
    const counters: SendCounters = {
      messages: ctx.counter('messagesSent'),
      frames: ctx.counter('framesSent'),
      bytes: ctx.counter('bytesSent'),
      dropped: ctx.counter('sendsDropped'),
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
          return void ctx.counter('badRequests').add();
        }
        stop(connection.id);
        sendCounted(connection, prepareText(replyText(String(request.method), request.req_id), fragmentBytes), fragmentBytes, counters);
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
      if (!ctx.signal.aborted) await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      return;
    }
    const received = ctx.counter('received');
    const rxBytes = ctx.counter('rxBytes');
    const late = ctx.counter('receivedAfterWindow');
    const lateBytes = ctx.counter('rxBytesAfterWindow');
    const sent = ctx.counter('sent');
    const txBytes = ctx.counter('txBytes');
    const wire = new WireTelemetry(ctx, ctx);
    const sizes = ctx.sizeHistogram('messageBytes');
    let inWindow = true;
    let minBytes = Number.POSITIVE_INFINITY;
    let maxBytes = 0;
    let unsubscribed: () => void = () => undefined;

    const options: Omit<ClientConnectOptions, 'localAddress'> = {
      onMessage(data) {
        const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
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
        if (typeof data === 'string' && data.charCodeAt(2) === CHAR_M && (JSON.parse(data) as { method?: string }).method === 'unsubscribe') unsubscribed();
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
    if (!ctx.signal.aborted) await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    inWindow = false;
    const drained = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), DRAIN_MS);
      unsubscribed = () => {
        clearTimeout(timer);
        resolve(true);
      };
      send(UNSUBSCRIBE);
    });
    if (!drained) ctx.counter('drainTimedOut').add();
    await connection.close();
    if (tapped) {
      wire.flush(ctx);
      ctx.counter('wireTapped').add();
      if (wire.firstError) ctx.note(`wire framing error: ${wire.firstError}`);
    }
    if (maxBytes > 0) {
      ctx.counter('messageBytesMin').add(minBytes);
      ctx.counter('messageBytesMax').add(maxBytes);
    }
  },

  summarize(cell, _params, context) {
    const c = cell.counters;
    const s = cell.serverCounters;
    const seconds = cell.windowMs / 1000;
    const tapped = (c.wireTapped ?? 0) > 0;
    const wire = (value: number | undefined): number | null => (tapped ? (value ?? 0) : null);
    const rxMessages = (c.received ?? 0) + (c.receivedAfterWindow ?? 0);
    const rxBytes = (c.rxBytes ?? 0) + (c.rxBytesAfterWindow ?? 0);
    const wireMessages = c.wireMessages ?? 0;
    const assembled = c.assembledMessages ?? 0;
    const assembly = cell.latency.assembly;
    const ratio = (part: number, whole: number): number | null => (tapped && whole > 0 ? part / whole : null);
    return {
      /** Messages received while the window was open, per second: the throughput to quote. */
      messagesPerSec: seconds > 0 ? Math.round((c.received ?? 0) / seconds) : null,
      bytesPerSec: seconds > 0 ? Math.round((c.rxBytes ?? 0) / seconds) : null,
      megabytesPerSec: seconds > 0 ? (c.rxBytes ?? 0) / seconds / 1e6 : null,
      /** Totals include the backlog read after the window closed. */
      rxMessages,
      rxBytes,
      rxMessagesAfterWindow: c.receivedAfterWindow ?? 0,
      txMessages: c.sent ?? 0,
      txBytes: c.txBytes ?? 0,
      /** Framing violations seen on the wire. */
      receiveErrors: c.wireProtocolErrors ?? 0,
      /** Closes the client did not ask for. */
      closeEvents: c.connectionsLost ?? 0,
      drainTimedOut: c.drainTimedOut ?? 0,
      messageBytesMin: c.messageBytesMin ?? null,
      messageBytesAvg: rxMessages > 0 ? rxBytes / rxMessages : null,
      messageBytesMax: c.messageBytesMax ?? null,
      framesPerMessageAvg: ratio(c.wireDataFrames ?? 0, wireMessages),
      framesPerMessageMax: wire(c.wireMaxFramesPerMessage),
      fastPathMessages: wire(c.fastPathMessages),
      assembledMessages: wire(assembled),
      fastPathPercent: tapped && wireMessages > 0 ? (100 * (c.fastPathMessages ?? 0)) / wireMessages : null,
      assemblyAvgUs: tapped && assembled > 0 ? (c.assemblyTotalUs ?? 0) / assembled : null,
      assemblyP99Us: tapped && assembly ? assembly.p99Ms * 1000 : null,
      assemblyMaxUs: tapped && assembly ? assembly.maxMs * 1000 : null,
      assemblyTotalMs: wire(c.assemblyTotalUs === undefined ? undefined : c.assemblyTotalUs / 1000),
      wireMessages: wire(c.wireMessages),
      wirePayloadBytes: wire(c.wirePayloadBytes),
      wireDataFrames: wire(c.wireDataFrames),
      wireControlFrames: wire(c.wireControlFrames),
      wireBytes: wire(c.wireBytes),
      serverMessagesSent: s.messagesSent ?? 0,
      serverFramesSent: s.framesSent ?? 0,
      serverBytesSent: s.bytesSent ?? 0,
      serverSendsDropped: s.sendsDropped ?? 0,
      serverStackDrops: context.serverStackDrops,
      clientCpuPercent: context.resources.clients.reduce((sum, r) => sum + r.cpuPercent.mean, 0),
      clientRssBytes: context.resources.clients.reduce((sum, r) => sum + r.rssBytes.max, 0),
    };
  },
  columns: [
    { key: 'messagesPerSec', header: 'msg/s' },
    { key: 'megabytesPerSec', header: 'MB/s' },
    { key: 'rxMessages', header: 'rx msgs' },
    { key: 'txMessages', header: 'tx msgs' },
    { key: 'receiveErrors', header: 'rx err' },
    { key: 'closeEvents', header: 'closes' },
    { key: 'messageBytesMin', header: 'min B' },
    { key: 'messageBytesAvg', header: 'avg B' },
    { key: 'messageBytesMax', header: 'max B' },
    { key: 'framesPerMessageAvg', header: 'frm/msg' },
    { key: 'framesPerMessageMax', header: 'max frm' },
    { key: 'fastPathPercent', header: 'fast %' },
    { key: 'assembledMessages', header: 'assembled' },
    { key: 'assemblyAvgUs', header: 'asm µs' },
    { key: 'clientCpuPercent', header: 'cli CPU%' },
  ],
};

export default firehose;

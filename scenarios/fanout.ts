/**
 * fanout (seed 002): the server streams a ~97-byte JSON price tick to every
 * connected client every `interval`; each client measures the one-way delay
 * from the tick's timestamp (one host, one monotonic clock) and counts what
 * arrives. A comma list of `--connections` is the seed's high-load ladder, one
 * cell per step; one connection for 60 s is its "client test".
 *
 * The server sends exactly floor(duration / interval) ticks, so every client
 * knows how many to expect: the cell ends when each connection has them all, or
 * DRAIN_MS after the last one was due. What never arrived is `missing`.
 */
import type { ClientConnection, Scenario } from '../src/index.js';
import { messageText } from '../src/message-text.js';
import { openFileLimit } from '../src/core/environment.js';
import { CONNECT_FAILURES, openPaced, type ConnectFailure } from './lib/paced-connections.js';
import { decodePriceTick, encodePriceTick, priceWalk } from './lib/price-message.js';
import { localPortCount, sourceAddressFor, sourceAddressCount } from './lib/source-addresses.js';

interface FanoutParams {
  [key: string]: number | boolean | string;
  connections: number;
  interval: number;
  duration: number;
  connectRate: number;
  connectTimeout: number;
  sourceAddresses: number;
}

/** Open files a process needs besides its sockets (stdio, IPC, libuv, the modules it loads). */
const FD_RESERVE = 100;
/** The core waits 120 s for clients to be ready; the connect phase must end well before. */
const CONNECT_BUDGET_MS = 100_000;
/** Fewer connections than this get no RSS-per-connection figure (noise, see summarize). */
const MIN_CONNECTIONS_FOR_RSS = 100;
/** After the last tick was due, stragglers get this long before they count as missing. */
const DRAIN_MS = 5000;

/** Counter and metric name of one failure reason, e.g. connectFailedEMFILE, connectFailedOther. */
const failureKey = (reason: ConnectFailure): string => `connectFailed${reason === 'other' ? 'Other' : reason}`;
const ticksOf = (p: FanoutParams): number => Math.floor(p.duration / p.interval);

const fanout: Scenario<FanoutParams> = {
  name: 'fanout',
  description: 'Server streams a 97-byte JSON price tick to every client each interval; one-way delay and delivery per client count (seed 002).',
  parameters: {
    connections: { kind: 'integer', description: 'connected clients, over all client processes (a comma list is the load ladder)', default: 10, min: 1, max: 100_000, sweepable: true },
    interval: { kind: 'duration', description: 'time between two price ticks', default: 100, min: 1, max: 3_600_000, sweepable: true },
    duration: { kind: 'duration', description: 'streaming time of each step (ticks sent = duration / interval)', default: 10_000, min: 1, max: 86_400_000 },
    connectRate: { kind: 'integer', description: 'connections opened per second, over all client processes', default: 1000, min: 1, max: 100_000 },
    connectTimeout: { kind: 'duration', description: 'a connection not open after this counts as failed (ETIMEDOUT)', default: 10_000, min: 100, max: 60_000 },
    sourceAddresses: { kind: 'integer', description: 'loopback source addresses 127.0.0.2.. to spread connections over (0 = one per 1000 connections above 1000)', default: 0, min: 0, max: 250 },
  },
  presets: {
    // The seed streamed 3.15 (Tornado) to 11.91 (Starlette) msgs/s per client; a 100 ms
    // tick (10/s) sits at its busy end. 10 s per step: 3 steps x 5 pairs in about 4 minutes.
    seed: { connections: '10,100,1000', interval: '100ms', duration: '10s' },
    'seed-client': { connections: '1', interval: '100ms', duration: '60s' },
    ci: { connections: '10,100', interval: '50ms', duration: '1s' },
  },
  validate(p) {
    const limit = openFileLimit();
    if (limit !== null && p.connections + FD_RESERVE > limit) {
      return `--connections ${p.connections} needs about ${p.connections + FD_RESERVE} open files in the server process (one per connection), above the open-file limit of ${limit} (ulimit -n)`;
    }
    const connectMs = (p.connections / p.connectRate) * 1000 + p.connectTimeout;
    if (connectMs > CONNECT_BUDGET_MS) {
      return `--connections ${p.connections} at --connect-rate ${p.connectRate} with --connect-timeout ${p.connectTimeout}ms may take ${Math.ceil(connectMs / 1000)} s to connect, more than the ${CONNECT_BUDGET_MS / 1000} s allowed; raise --connect-rate`;
    }
    if (ticksOf(p) < 1) return `--duration ${p.duration}ms is shorter than --interval ${p.interval}ms: no tick would be sent`;
    const ports = localPortCount();
    const perAddress = Math.ceil(p.connections / Math.max(1, sourceAddressCount(p.connections, p.sourceAddresses)));
    if (ports !== null && perAddress > ports) {
      return `--connections ${p.connections} puts ${perAddress} connections on one source address, more than its ${ports} local ports; raise --source-addresses`;
    }
    return null;
  },
  windowMs: () => undefined, // clients end the cell once every tick has arrived or is overdue

  server(ctx) {
    const intervalUs = ctx.params.interval * 1000;
    const ticks = ticksOf(ctx.params);
    const nextPrice = priceWalk();
    const ticksSent = ctx.counter('ticksSent');
    const messagesSent = ctx.counter('messagesSent');
    // How late the timer fired each tick: the part of the delay the server's own scheduling adds.
    const lateness = ctx.histogram('tickLateness');
    let startUs = 0;
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const tick = (): void => {
      const nowUs = ctx.nowUs();
      // Catch up on every tick that is due: a stalled server still owes them, stamped when they were due.
      while (sent < ticks && startUs + sent * intervalUs <= nowUs) {
        const intendedUs = startUs + sent * intervalUs;
        lateness.recordUs(nowUs - intendedUs);
        messagesSent.add(ctx.connections().size);
        ctx.broadcast(encodePriceTick({ seq: sent, price: nextPrice(), timestamp: intendedUs }));
        ticksSent.add();
        sent += 1;
      }
      if (sent < ticks) timer = setTimeout(tick, Math.max(0, (startUs + sent * intervalUs - ctx.nowUs()) / 1000));
    };
    return {
      onMeasureStart() {
        startUs = ctx.nowUs();
        tick();
      },
      onMeasureEnd() {
        clearTimeout(timer);
      },
    };
  },

  async client(ctx) {
    const p = ctx.params;
    const ticks = ticksOf(p);
    const count = ctx.share(p.connections);
    // Global index of this process's first connection, as share() spreads them.
    const first = Math.floor(p.connections / ctx.processCount) * ctx.processIndex + Math.min(ctx.processIndex, p.connections % ctx.processCount);
    const addresses = sourceAddressCount(p.connections, p.sourceAddresses);
    const delay = ctx.histogram('delay');
    const received = ctx.counter('received');
    const rxBytes = ctx.counter('rxBytes');
    const outOfOrder = ctx.counter('outOfOrder');
    const badMessages = ctx.counter('badMessages');
    const connected = ctx.counter('connected');
    const failed = ctx.counter('connectFailed');
    const failedBy = Object.fromEntries(CONNECT_FAILURES.map((r) => [r, ctx.counter(failureKey(r))])) as Record<ConnectFailure, ReturnType<typeof ctx.counter>>;
    const notedReasons = new Set<ConnectFailure>();
    let complete = 0;
    let wake: () => void = () => undefined;

    /** One kept connection's count of ticks; only kept ones decide when the step is over. */
    interface Tally {
      received: number;
      nextSeq: number;
      done: boolean;
      kept: boolean;
    }
    const finish = (tally: Tally): void => {
      if (tally.done) return;
      tally.done = true;
      if (tally.kept && ++complete === kept.length) wake();
    };
    let kept: Array<{ connection: ClientConnection; tally: Tally }> = [];

    kept = await openPaced({
      count,
      ratePerSec: p.connectRate / ctx.processCount,
      timeoutMs: p.connectTimeout,
      signal: ctx.signal,
      // The first connection loads the stack's lazy code; RSS after it is the per-connection baseline.
      onFirstOpened: () => void ctx.counter('rssAfterFirstConnectBytes').add(process.memoryUsage.rss()),
      open: async (index) => {
        const tally: Tally = { received: 0, nextSeq: 0, done: false, kept: false };
        const localAddress = sourceAddressFor(first + index, addresses);
        const connection = await ctx.connect({
          ...(localAddress ? { localAddress } : {}),
          onMessage(data) {
            const nowUs = ctx.nowUs();
            const text = messageText(data);
            const tick = decodePriceTick(text);
            received.add();
            rxBytes.add(Buffer.byteLength(text));
            if (!tick) return void badMessages.add();
            delay.recordUs(nowUs - tick.timestamp);
            if (tick.seq !== tally.nextSeq) outOfOrder.add();
            tally.nextSeq = tick.seq + 1;
            if (++tally.received === ticks) finish(tally);
          },
          // Counted by the core as connectionsLost; a dropped client expects nothing more.
          onUnexpectedClose: () => finish(tally),
        });
        return { connection, tally };
      },
      discard: (late) => void late.connection.close(),
      onFailure(_index, reason, message) {
        failed.add();
        failedBy[reason].add();
        if (!notedReasons.has(reason)) {
          notedReasons.add(reason);
          ctx.note(`connect failed (${reason}): ${message}`);
        }
      },
    });
    for (const { tally } of kept) {
      tally.kept = true;
      if (tally.done) complete += 1; // lost before the window opened
    }
    connected.add(kept.length);

    await ctx.ready();
    await new Promise<void>((resolve) => {
      const deadline = setTimeout(done, (ticks - 1) * p.interval + DRAIN_MS);
      function done(): void {
        clearTimeout(deadline);
        ctx.signal.removeEventListener('abort', done);
        resolve();
      }
      wake = done;
      ctx.signal.addEventListener('abort', done, { once: true });
      if (complete >= kept.length) done();
    });
    ctx.counter('missing').add(kept.reduce((sum, { tally }) => sum + Math.max(0, ticks - tally.received), 0));
    await Promise.all(kept.map(({ connection }) => connection.close()));
  },

  summarize(cell, p, context) {
    const c = cell.counters;
    const delay = cell.latency.delay;
    const received = c.received ?? 0;
    const connected = c.connected ?? 0;
    const connectFailed = c.connectFailed ?? 0;
    const dropped = c.connectionsLost ?? 0;
    const clients = context.resources.clients;
    const clientRss = clients.reduce((sum, r) => sum + r.rssBytes.max, 0);
    const streamSeconds = (ticksOf(p) * p.interval) / 1000;
    // Peak RSS in the window minus RSS once each process had one connection open, per further
    // connection. Below MIN_CONNECTIONS_FOR_RSS the GC's own swings outweigh the connections' share.
    const extra = connected - clients.length;
    const perConnection =
      connected >= MIN_CONNECTIONS_FOR_RSS && clients.length && c.rssAfterFirstConnectBytes !== undefined
        ? Math.round((clientRss - c.rssAfterFirstConnectBytes) / extra)
        : null;
    const failures = Object.fromEntries(CONNECT_FAILURES.map((r) => [failureKey(r), c[failureKey(r)] ?? 0]));
    return {
      connected,
      connectFailed,
      ...failures,
      /** Connections lost during the run (the seed's "errors" beyond failed connects). */
      dropped,
      /** Failed to connect + dropped + unreadable messages: the seed's error count. */
      errors: connectFailed + dropped + (c.badMessages ?? 0),
      ticksSent: cell.serverCounters.ticksSent ?? 0,
      messagesSentByServer: cell.serverCounters.messagesSent ?? 0,
      received,
      missing: c.missing ?? 0,
      outOfOrder: c.outOfOrder ?? 0,
      delayMeanMs: delay?.meanMs ?? null,
      delayP50Ms: delay?.p50Ms ?? null,
      delayStdevMs: delay?.stdevMs ?? null,
      delayP99Ms: delay?.p99Ms ?? null,
      delayP999Ms: delay?.p999Ms ?? null,
      delayMaxMs: delay?.maxMs ?? null,
      serverTickLatenessP99Ms: cell.serverLatency.tickLateness?.p99Ms ?? null,
      /** Messages delivered to all clients per second of streaming. */
      messagesPerSec: streamSeconds > 0 ? Math.round(received / streamSeconds) : null,
      avgMessageBytes: received > 0 ? (c.rxBytes ?? 0) / received : null,
      serverCpuPercent: context.resources.server?.cpuPercent.mean ?? null,
      serverRssBytes: context.resources.server?.rssBytes.max ?? null,
      clientCpuPercent: clients.length ? clients.reduce((sum, r) => sum + r.cpuPercent.mean, 0) : null,
      clientRssBytes: clients.length ? clientRss : null,
      clientRssMB: clients.length ? clientRss / 1e6 : null,
      clientRssPerConnectionBytes: perConnection,
      clientRssPerConnectionKB: perConnection === null ? null : perConnection / 1000,
    };
  },
  columns: [
    { key: 'connected', header: 'conn' },
    { key: 'connectFailed', header: 'fail' },
    { key: 'dropped', header: 'drop' },
    { key: 'received', header: 'recv' },
    { key: 'missing', header: 'miss' },
    { key: 'delayMeanMs', header: 'mean ms' },
    { key: 'delayP50Ms', header: 'p50 ms' },
    { key: 'delayStdevMs', header: 'std ms' },
    { key: 'delayP99Ms', header: 'p99 ms' },
    { key: 'delayP999Ms', header: 'p99.9 ms' },
    { key: 'delayMaxMs', header: 'max ms' },
    { key: 'messagesPerSec', header: 'msg/s' },
    { key: 'avgMessageBytes', header: 'avg B' },
    { key: 'clientCpuPercent', header: 'cli CPU%' },
    { key: 'clientRssMB', header: 'cli MB' },
    { key: 'clientRssPerConnectionKB', header: 'cli KB/conn' },
  ],
};

export default fanout;

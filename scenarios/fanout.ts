/**
 * fanout (seed 002): the server streams a ~97-byte JSON price tick to every
 * connected client every `interval`; each client measures the one-way delay
 * from the tick's timestamp (one host, one monotonic clock) and counts what
 * arrives. A sweep of `connections` is the seed's high-load ladder, one cell
 * per step; one connection for 60 s is its "client test".
 *
 * The server sends exactly floor(duration / interval) ticks, so every client
 * knows how many to expect: the cell ends when each connection has them all, or
 * DRAIN_MS after the last one was due. What never arrived is `missing`.
 *
 * The stream starts when the server gets `{"start":true}`, which the first
 * connection of the first client process sends once the window is open: a
 * server in any language learns it that way (docs/protocols/fanout.md).
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
  scaleWithResolution,
  serverRssBaseline,
  serverRssPerConnection,
  streamEnd,
  unreportedHistogram,
  type ClientConnection,
  type MetricInput,
  type ValueWithResolution,
  RESOURCE_METRICS,
} from 'wsbench/scenario';
import { decodePriceTick, encodePriceTick, priceWalk } from './fanout/price-message.js';

/** Fewer connections than this get no RSS-per-connection figure (the GC's swings outweigh them). */
const MIN_CONNECTIONS_FOR_RSS = 100;
/** After the last tick was due, stragglers get this long before they count as missing. */
const DRAIN_MS = 5000;

const ticksOf = (p: { duration: number; interval: number }): number => Math.floor(p.duration / p.interval);
/** Starts the stream; a start while one is running changes nothing. */
const START = JSON.stringify({ start: true });

const divide = (value: number | null, by: number): number | null => (value === null ? null : value / by);
const DELAY_DESCRIPTION = "one-way: the tick's due time on the server to its arrival";

/**
 * Client RSS per connection, in bytes: peak RSS in the window minus RSS once each process had
 * one connection open, per further connection; null below MIN_CONNECTIONS_FOR_RSS. Its resolution
 * is the clients' own RSS swing in the window (twice the peak over the mean, at least a page each)
 * per connection, as for the server (serverRssPerConnection of wsbench/scenario).
 */
function rssPerConnection({
  measurements: { counters: c },
  resources: { clients },
}: MetricInput): ValueWithResolution | null {
  const connected = c.connected ?? 0;
  const baseline = c.rssAfterFirstConnectBytes;
  if (connected < MIN_CONNECTIONS_FOR_RSS || clients.length === 0 || baseline === undefined) return null;
  const peak = clients.reduce((sum, r) => sum + r.rssBytes.max, 0);
  const swing = clients.reduce((sum, r) => sum + Math.max(2 * (r.rssBytes.max - r.rssBytes.mean), 4096), 0);
  const further = connected - clients.length;
  return { estimate: Math.round((peak - baseline) / further), resolution: Math.ceil(swing / further) };
}

export default defineScenario({
  name: 'fanout',
  description:
    'Server streams a 97-byte JSON price tick to every client each interval; one-way delay and delivery per client count (seed 002).',
  parameters: {
    connections: {
      kind: 'integer',
      description: 'connected clients over all client processes; each value of a sweep is one step of the load ladder',
      default: 10,
      min: 1,
      max: 100_000,
      sweepable: true,
      spread: 'processes',
    },
    interval: {
      kind: 'duration',
      description: 'time between two price ticks',
      default: '100ms',
      min: '1ms',
      max: '1h',
      sweepable: true,
    },
    ...CONNECT_PHASE_PARAMETERS,
  },
  duration: { description: 'streaming time of each step (ticks sent = duration / interval)', min: '1ms', max: '24h' },
  presets: {
    // The seed streamed 3.15 (Tornado) to 11.91 (Starlette) msgs/s per client; a 100 ms
    // tick (10/s) sits at its busy end. 10 s per step: 3 steps x 5 pairs in about 4 minutes.
    seed: { connections: [10, 100, 1000], interval: '100ms', duration: '10s' },
    'seed-client': { connections: 1, interval: '100ms', duration: '60s' },
    ci: { connections: [10, 100], interval: '50ms', duration: '1s' },
  },
  validate(p) {
    if (ticksOf(p) < 1) {
      return {
        parameter: 'duration',
        message: `${p.duration}ms is shorter than interval ${p.interval}ms: no tick would be sent`,
      };
    }
    return connectPhaseProblem(p);
  },
  windowMs: () => undefined, // clients end the cell once every tick has arrived or is overdue
  // Each server process streams to its own connections, started together through tellSiblings.
  multiProcessServer: true,
  readyTimeoutMs: (p) => connectPhaseReadyMs(p),

  server(ctx) {
    const intervalUs = ctx.params.interval * 1000;
    const ticks = ticksOf(ctx.params);
    const nextPrice = priceWalk();
    // How late the timer fired each tick (tickLateness): the part of the delay the server's own scheduling adds.
    const { ticksSent, messagesSent, tickLateness: lateness } = ctx.recorders;
    let startUs = 0;
    let sent = 0;
    let streaming = false;
    let timer: NodeJS.Timeout | undefined;
    // One server process counts the ticks; with several, each sends every tick to its own connections.
    const countsTicks = ctx.processIndex === 0;
    const tick = (): void => {
      const nowUs = ctx.nowUs();
      // Catch up on every tick that is due: a stalled server still owes them, stamped when they were due.
      while (sent < ticks && startUs + sent * intervalUs <= nowUs) {
        const intendedUs = startUs + sent * intervalUs;
        lateness.recordUs(nowUs - intendedUs);
        messagesSent.add(ctx.connections().size);
        ctx.broadcast(encodePriceTick({ seq: sent, price: nextPrice(), timestamp: intendedUs }));
        if (countsTicks) ticksSent.add();
        sent += 1;
      }
      if (sent < ticks) timer = setTimeout(tick, Math.max(0, (startUs + sent * intervalUs - ctx.nowUs()) / 1000));
      else streaming = false;
    };
    const begin = (atUs: number): void => {
      streaming = true;
      startUs = atUs;
      sent = 0;
      tick();
    };
    return {
      onConnection: serverRssBaseline(ctx),
      onMessage(_connection, data) {
        if (streaming || messageText(data) !== START) return;
        const atUs = ctx.nowUs();
        // The start reached one process; the others stream on the same schedule (one host, one monotonic clock).
        ctx.tellSiblings({ startUs: atUs });
        begin(atUs);
      },
      onSiblingMessage(data) {
        const at = (data as { startUs?: unknown }).startUs;
        if (!streaming && typeof at === 'number') begin(at);
      },
      onMeasureEnd() {
        clearTimeout(timer);
      },
    };
  },

  async client(ctx) {
    const p = ctx.params;
    const ticks = ticksOf(p);
    const { count, first, sourceOf } = connectionShare(ctx, p.connections, p.sourceAddresses);
    // Taken once, here: the message handler records into them with no lookup.
    const { delay, received, rxBytes, outOfOrder, badMessages, connected } = ctx.recorders;
    const guard = new ProtocolGuard(ctx, 'fanout');
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
      // A browser page cannot read its processes' memory (it has no process.memoryUsage): no baseline, no per-connection figure.
      onFirstOpened: () => {
        if (typeof process.memoryUsage === 'function')
          ctx.recorders.rssAfterFirstConnectBytes.add(process.memoryUsage.rss());
      },
      open: async (index) => {
        const tally: Tally = { received: 0, nextSeq: 0, done: false, kept: false };
        const connection = await ctx.connect({
          ...sourceOf(first + index),
          // The engine's own deadline, the same as the pacing's: a connection not open by then counts as one that could not.
          timeoutMs: p.connectTimeout,
          // Sizes come from the bytes; the text is decoded once, for JSON.parse, not twice (adapter and here).
          textAsBytes: true,
          onMessage(data) {
            const nowUs = ctx.nowUs();
            const tick = decodePriceTick(messageText(data));
            received.add();
            rxBytes.add(typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength);
            if (!tick) {
              badMessages.add();
              return guard.broken('a price tick {"seq","price","timestamp"}', data);
            }
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
      onFailure: connectFailureCounter(ctx),
    });
    for (const { tally } of kept) {
      tally.kept = true;
      if (tally.done) complete += 1; // lost before the window opened
    }
    connected.add(kept.length);

    await ctx.ready();
    // One start for the whole cell: from the process that holds the first connections.
    if (first === 0) kept[0]?.connection.send(START);
    const end = streamEnd(ctx.signal, (ticks - 1) * p.interval + DRAIN_MS, () => complete >= kept.length);
    wake = end.wake;
    await end.finished;
    ctx.recorders.missing.add(kept.reduce((sum, { tally }) => sum + Math.max(0, ticks - tally.received), 0));
    // The stream is over: closing 10,000 connections is cleanup, in neither the window's rates nor its CPU.
    ctx.done();
    await Promise.all(kept.map(({ connection }) => connection.close()));
    guard.throwIfBroken();
  },

  recorders: {
    ticksSent: counter({ side: 'server', total: { header: 'ticks' } }),
    messagesSent: counter({ side: 'server', total: { key: 'messagesSentByServer', header: 'sent' } }),
    // Its p99 is serverTickLatenessP99Ms, below: a key histogram() would name tickLatenessP99Ms.
    tickLateness: unreportedHistogram({ side: 'server' }),
    connected: counter({ total: { header: 'conn' } }),
    ...connectFailureRecorders(),
    received: counter({ total: { header: 'recv' } }),
    missing: counter({
      total: { header: 'miss', role: 'errors', description: 'ticks a kept connection never received' },
    }),
    outOfOrder: counter({ total: { header: 'out of order', role: 'errors' } }),
    // Counted by wsbench itself: the connections it saw lost.
    connectionsLost: counter({
      total: { key: 'dropped', header: 'drop', role: 'errors', description: 'connections lost during the run' },
    }),
    // Every statistic but the mean, which `metrics` declares with its own header.
    delay: histogram({
      stats: ['p50', 'p90', 'p99', 'p999', 'max', 'min', 'stdev', 'count'],
      primary: ['p50', 'p99'],
      description: DELAY_DESCRIPTION,
    }),
    rxBytes: counter({ total: false }),
    badMessages: counter({ total: false }),
    rssAfterFirstConnectBytes: counter({ total: false }),
  },
  // Each compute's input typed, not inferred: one typed from the scenario would leave these keys unknown to `table`.
  metrics: {
    errors: {
      header: 'errors',
      unit: 'count',
      better: 'lower',
      role: 'errors',
      description: "the seed's error count",
      source: {
        custom: 'failed to connect + connections lost + unreadable messages',
        compute: ({ measurements: { counters: c } }: MetricInput) =>
          (c.connectFailed ?? 0) + (c.connectionsLost ?? 0) + (c.badMessages ?? 0),
      },
    },
    delayMeanMs: {
      header: 'mean ms',
      unit: 'ms',
      better: 'lower',
      role: 'detail',
      description: DELAY_DESCRIPTION,
      source: { histogram: 'delay', stat: 'mean' },
    },
    serverTickLatenessP99Ms: {
      header: 'server late p99 ms',
      unit: 'ms',
      better: 'lower',
      role: 'detail',
      description: "how late the server's timer fired for a tick",
      source: { histogram: 'tickLateness', stat: 'p99', side: 'server' },
    },
    messagesPerSec: {
      header: 'msg/s',
      unit: 'msg/s',
      better: 'higher',
      role: 'primary-rate',
      acrossRounds: 'mean',
      source: {
        custom: 'messages received over all clients, per second of streaming (ticks x interval)',
        compute: ({ measurements, params: p }: MetricInput<{ duration: number; interval: number }>) => {
          const seconds = (ticksOf(p) * p.interval) / 1000;
          return seconds > 0 ? Math.round((measurements.counters.received ?? 0) / seconds) : null;
        },
      },
    },
    avgMessageBytes: {
      header: 'avg B',
      unit: 'bytes',
      better: 'none',
      role: 'detail',
      source: {
        custom: 'bytes received / messages received',
        compute: ({ measurements: { counters: c } }: MetricInput) =>
          (c.received ?? 0) > 0 ? (c.rxBytes ?? 0) / (c.received ?? 0) : null,
      },
    },
    serverCpuPercent: RESOURCE_METRICS.serverCpu,
    serverRssBytes: RESOURCE_METRICS.serverRss,
    clientCpuPercent: RESOURCE_METRICS.clientCpu,
    clientRssBytes: RESOURCE_METRICS.clientRss,
    clientRssMB: {
      header: 'cli MB',
      unit: 'MB',
      better: 'lower',
      role: 'detail',
      source: {
        custom: 'peak RSS of every client process, added up, in MB',
        compute: ({ resources: { clients } }: MetricInput) =>
          divide(clients.length ? clients.reduce((sum, r) => sum + r.rssBytes.max, 0) : null, 1e6),
      },
    },
    clientRssPerConnectionBytes: {
      header: 'cli B/conn',
      unit: 'bytes',
      better: 'lower',
      role: 'detail',
      acrossRounds: 'mean',
      source: {
        custom: 'client peak RSS minus RSS after the first connection, per further connection (from 100 connections)',
        compute: rssPerConnection,
      },
    },
    clientRssPerConnectionKB: {
      header: 'cli KB/conn',
      unit: 'KB',
      better: 'lower',
      role: 'detail',
      acrossRounds: 'mean',
      source: {
        custom: 'clientRssPerConnectionBytes / 1000',
        compute: (input: MetricInput) => scaleWithResolution(rssPerConnection(input), 1 / 1000),
      },
    },
    serverRssPerConnectionBytes: {
      header: 'srv B/conn',
      unit: 'bytes',
      better: 'lower',
      role: 'detail',
      acrossRounds: 'mean',
      source: {
        custom:
          'server peak RSS in the window minus its RSS when the first connection arrived, per connected client (from 100 connections)',
        compute: (input: MetricInput) =>
          serverRssPerConnection(input, input.measurements.counters.connected ?? 0, MIN_CONNECTIONS_FOR_RSS),
      },
    },
    serverRssPerConnectionKB: {
      header: 'srv KB/conn',
      unit: 'KB',
      better: 'lower',
      role: 'detail',
      acrossRounds: 'mean',
      source: {
        custom: 'serverRssPerConnectionBytes / 1000',
        compute: (input: MetricInput) =>
          scaleWithResolution(
            serverRssPerConnection(input, input.measurements.counters.connected ?? 0, MIN_CONNECTIONS_FOR_RSS),
            1 / 1000,
          ),
      },
    },
  },
  table: [
    'connected',
    'connectFailed',
    'dropped',
    'received',
    'missing',
    'delayMeanMs',
    'delayP50Ms',
    'delayStdevMs',
    'delayP99Ms',
    'delayP999Ms',
    'delayMaxMs',
    'messagesPerSec',
    'avgMessageBytes',
    'clientCpuPercent',
    'clientRssMB',
    'clientRssPerConnectionKB',
    'serverRssPerConnectionKB',
  ],
  charts: [
    {
      kind: 'by-parameter',
      parameter: 'connections',
      metrics: ['delayP50Ms', 'delayP99Ms', 'delayP999Ms'],
      title: 'delay by connections',
    },
    {
      kind: 'by-parameter',
      parameter: 'connections',
      metrics: ['connectFailed', 'dropped', 'missing'],
      title: 'errors by connections',
    },
    { kind: 'percentiles', histograms: ['delay'] },
    { kind: 'resources' },
  ],
});

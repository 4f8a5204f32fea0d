/**
 * ticker-orders (seed 001): the server broadcasts a simulated price tick every
 * `tickInterval` to every client; on each tick a client sends a buy or sell
 * order; the server acknowledges it; the client times the order's round trip.
 *
 * Ticks carry their intended broadcast time and a sequence number, so the
 * client also sees how late each tick arrived (one host, one monotonic clock)
 * and which ticks it never got. `tickToAck` runs from the tick's intended time
 * to the acknowledgement: a stalled ticker or a stalled client cannot hide
 * delay there (coordinated omission); the order round trip, the seed's metric,
 * starts when the client actually sent.
 *
 * The ticker starts when the first connection subscribes (`{"sub":true}`, sent
 * by every client once the window is open), the way a server in any language
 * learns it: docs/protocols/ticker-orders.md.
 */
import {
  aborted,
  counter,
  defineScenario,
  histogram,
  messageText,
  unreportedHistogram,
  waitUntil,
  ProtocolGuard,
  parseJson,
  type ClientConnection,
  type MetricDefinition,
  type MetricInput,
} from 'wsbench/scenario';

/** A tick: sequence number, intended broadcast time (µs, server clock), one price per symbol. */
interface Tick {
  k: number;
  t: number;
  p: number[];
}
/** An order: id, the tick it answers, side, symbol index, quantity, client send time, tick's intended time. */
interface Order {
  o: number;
  k: number;
  s: 'buy' | 'sell';
  y: number;
  q: number;
  t: number;
  i: number;
}
/** Sent by every client connection once the window is open; the first one starts the ticker. */
const SUBSCRIBE = JSON.stringify({ sub: true });
/** The acknowledgement echoes the order's times so the client keeps no per-order state. */
interface Ack {
  a: number;
  t: number;
  i: number;
  px: number;
}

/** Connections opened at once per client process. */
const CONNECT_BATCH = 100;
/** Acks still in flight when the window closes get this long (timed and counted). */
const DRAIN_MS = 1000;
const START_PRICE = 100;

const ORDER_RTT = 'order round trip: from sending the order to its acknowledgement';
const TICK_TO_ACK = "from the tick's intended broadcast time to the acknowledgement of its order";
const TICK_TIMER_LAG = "how late the server's tick timer fired";

/** A latency statistic under a header of its own (histogram() heads them "<label> <stat> ms"). */
function headed(
  header: string,
  source: { histogram: string; stat: 'mean' | 'max' | 'min' | 'stdev' | 'p99'; side?: 'server' },
  description: string,
  role: 'primary-latency' | 'detail' = 'detail',
): MetricDefinition {
  return { header, unit: 'ms', better: 'lower', role, description, source };
}

export default defineScenario({
  name: 'ticker-orders',
  description:
    'Price ticks broadcast on a schedule; each client answers every tick with an order and times the acknowledgement.',
  parameters: {
    tickInterval: {
      kind: 'duration',
      description: 'time between two price ticks',
      default: '10ms',
      min: '1ms',
      max: '60s',
      sweepable: true,
    },
    connections: {
      kind: 'integer',
      description: 'trading clients (over all client processes)',
      default: 1,
      min: 1,
      max: 10_000,
      sweepable: true,
      spread: 'processes',
    },
    symbols: {
      kind: 'integer',
      description: 'stock symbols priced on every tick',
      default: 1,
      min: 1,
      max: 1000,
      sweepable: true,
    },
  },
  presets: {
    // The seed ran one client against a 10 ms ticker "for a while"; 30 s gives ~3,000 orders.
    seed: { tickInterval: '10ms', connections: 1, symbols: 1, duration: '30s' },
    ci: { duration: '1s' },
  },
  // Connections open a hundred at a time, about 2,500 a second here: 15 s plus 1 s per 1000.
  readyTimeoutMs: (p) => 15_000 + p.connections,

  server(ctx) {
    const { tickInterval, symbols } = ctx.params;
    const intervalUs = tickInterval * 1000;
    const prices = Array.from({ length: symbols }, () => START_PRICE);
    const {
      ticksBroadcast: ticks,
      ordersReceived: orders,
      ordersMalformed: badOrders,
      tickTimerLag: timerLag,
    } = ctx.recorders;
    let startUs = 0;
    let next = 0;
    let timer: NodeJS.Timeout | undefined;
    let running = false;

    // A late timer broadcasts every tick that fell due, each stamped with its own
    // intended time, so the delay shows up in the clients' numbers instead of vanishing.
    const tick = (): void => {
      const nowUs = ctx.nowUs();
      while (startUs + next * intervalUs <= nowUs) {
        const intendedUs = startUs + next * intervalUs;
        for (let i = 0; i < prices.length; i++) prices[i] = Math.max(1, prices[i]! * (1 + (Math.random() - 0.5) / 500));
        const message: Tick = { k: next, t: intendedUs, p: prices.map((price) => Math.round(price * 100) / 100) };
        ctx.broadcast(JSON.stringify(message));
        timerLag.recordUs(nowUs - intendedUs);
        ticks.add();
        next += 1;
      }
      timer = setTimeout(tick, Math.max(0, (startUs + next * intervalUs - ctx.nowUs()) / 1000));
    };

    return {
      onMeasureEnd() {
        clearTimeout(timer);
      },
      onMessage(connection, data) {
        let order: Order;
        try {
          order = JSON.parse(messageText(data)) as Order;
        } catch {
          badOrders.add();
          return;
        }
        if ('sub' in order) {
          if (running) return;
          running = true;
          startUs = ctx.nowUs();
          return tick();
        }
        orders.add();
        const ack: Ack = { a: order.o, t: order.t, i: order.i, px: prices[order.y] ?? 0 };
        connection.send(JSON.stringify(ack));
      },
    };
  },

  async client(ctx) {
    const { symbols } = ctx.params;
    const { orderRtt, tickToAck, tickDelay, ordersSent, ordersAcked } = ctx.recorders;
    const { ticksReceived, ticksMissed, ticksDuplicated, errors } = ctx.recorders;
    const guard = new ProtocolGuard(ctx, 'ticker-orders');
    let nextOrderId = 0;
    let outstanding = 0;

    const open = async (): Promise<ClientConnection> => {
      // Gaps count from the first tick a connection sees: a server may start ticking before every subscription arrived.
      let nextTick = -1;
      let connection: ClientConnection | null = null;
      const onTick = (tick: Tick, nowUs: number): void => {
        ticksReceived.add();
        tickDelay.recordUs(nowUs - tick.t);
        if (nextTick >= 0 && tick.k > nextTick) ticksMissed.add(tick.k - nextTick);
        nextTick = tick.k + 1;
        const symbol = tick.k % symbols;
        const order: Order = {
          o: nextOrderId++,
          k: tick.k,
          s: Math.random() < 0.5 ? 'buy' : 'sell',
          y: symbol,
          q: 1 + Math.floor(Math.random() * 100),
          t: ctx.nowUs(),
          i: tick.t,
        };
        outstanding += 1;
        ordersSent.add();
        connection!.send(JSON.stringify(order));
      };
      connection = await ctx.connect({
        onMessage(data) {
          const nowUs = ctx.nowUs();
          const message = parseJson(messageText(data)) as Tick | Ack | undefined;
          if (typeof message?.t !== 'number' || (!('a' in message) && typeof (message as Tick).k !== 'number')) {
            return guard.broken('a tick {"k","t","p"} or an acknowledgement {"a","t","i","px"}', data);
          }
          if ('a' in message) {
            outstanding -= 1;
            ordersAcked.add();
            orderRtt.recordUs(nowUs - message.t);
            tickToAck.recordUs(nowUs - message.i);
            return;
          }
          if (ctx.signal.aborted) return; // ticks after the window are neither counted nor answered
          if (message.k < nextTick) ticksDuplicated.add();
          else onTick(message, nowUs);
        },
        onUnexpectedClose() {
          errors.add();
        },
      });
      return connection;
    };

    const connections: ClientConnection[] = [];
    const count = ctx.share(ctx.params.connections);
    for (let i = 0; i < count; i += CONNECT_BATCH) {
      connections.push(...(await Promise.all(Array.from({ length: Math.min(CONNECT_BATCH, count - i) }, open))));
    }
    await ctx.ready();
    for (const connection of connections) connection.send(SUBSCRIBE);
    await aborted(ctx.signal);
    if (guard.ok) await waitUntil(() => outstanding <= 0, DRAIN_MS);
    ctx.recorders.ordersUnanswered.add(Math.max(0, outstanding));
    await Promise.all(connections.map((c) => c.close()));
    guard.throwIfBroken();
  },

  recorders: {
    // The order round trip, the seed's metric: its mean, max, min and stdev keep the seed's headers, below.
    orderRtt: histogram({
      stats: ['p50', 'p90', 'p99', 'p999', 'count'],
      primary: ['p50', 'p99'],
      description: ORDER_RTT,
    }),
    tickToAck: histogram({
      stats: ['p50', 'p90', 'p999', 'max', 'mean', 'min', 'stdev', 'count'],
      label: 'tick>ack',
      description: TICK_TO_ACK,
    }),
    tickDelay: histogram({
      label: 'tick delay',
      description: "from the tick's intended broadcast time to its arrival at a client",
    }),
    ordersSent: counter({ total: { header: 'orders' } }),
    ordersAcked: counter({
      total: { header: 'acked' },
      rate: {
        key: 'ordersPerSec',
        header: 'orders/s',
        unit: 'msg/s',
        role: 'primary-rate',
        description: 'orders acknowledged per second of the window',
      },
    }),
    ordersUnanswered: counter({
      total: { header: 'unanswered', description: 'orders still without an acknowledgement when the drain ended' },
    }),
    ticksReceived: counter({ total: { header: 'ticks' } }),
    ticksMissed: counter({
      total: { header: 'missed', role: 'errors', description: 'ticks a client never got (sequence gaps)' },
    }),
    ticksDuplicated: counter({ total: { header: 'dup ticks', role: 'errors' } }),
    // Reported with the server's malformed orders, in `errors` below.
    errors: counter({ total: false }),
    connectionsLost: counter({ total: { header: 'lost', role: 'errors' } }),
    ticksBroadcast: counter({ side: 'server', total: { header: 'broadcast' } }),
    ordersReceived: counter({ side: 'server', total: { key: 'ordersReceivedByServer', header: 'server orders' } }),
    ordersMalformed: counter({ side: 'server', total: false }),
    // Its metrics are keyed serverTickTimerLag..., which histogram() would not derive from this name.
    tickTimerLag: unreportedHistogram({ side: 'server' }),
  },
  metrics: {
    orderRttMeanMs: headed('Avg ms', { histogram: 'orderRtt', stat: 'mean' }, ORDER_RTT, 'primary-latency'),
    orderRttMaxMs: headed('Max ms', { histogram: 'orderRtt', stat: 'max' }, ORDER_RTT),
    orderRttMinMs: headed('Min ms', { histogram: 'orderRtt', stat: 'min' }, ORDER_RTT),
    orderRttStdevMs: headed('Std ms', { histogram: 'orderRtt', stat: 'stdev' }, ORDER_RTT),
    tickToAckP99Ms: headed('tick>ack p99', { histogram: 'tickToAck', stat: 'p99' }, TICK_TO_ACK),
    ticksNominalPerConnection: {
      header: 'nominal ticks',
      unit: 'count',
      better: 'none',
      role: 'detail',
      source: {
        custom:
          'ticks one connection should have seen in the window at the nominal rate: window / tickInterval, rounded down',
        // Its parameter typed here, not inferred: a compute typed from the scenario would leave the metric keys unknown to `table`.
        compute: ({ measurements, params }: MetricInput<{ tickInterval: number }>) =>
          measurements.windowMs > 0 ? Math.floor(measurements.windowMs / params.tickInterval) : null,
      },
    },
    serverTickTimerLagP99Ms: headed(
      'tick lag p99 ms',
      { histogram: 'tickTimerLag', stat: 'p99', side: 'server' },
      TICK_TIMER_LAG,
    ),
    serverTickTimerLagMaxMs: headed(
      'tick lag max ms',
      { histogram: 'tickTimerLag', stat: 'max', side: 'server' },
      TICK_TIMER_LAG,
    ),
    errors: {
      header: 'errors',
      unit: 'count',
      better: 'lower',
      role: 'errors',
      source: {
        custom: 'connections that closed on their own plus orders the server could not parse',
        compute: ({ measurements }: MetricInput) =>
          (measurements.counters.errors ?? 0) + (measurements.serverCounters.ordersMalformed ?? 0),
      },
    },
  },
  table: [
    'orderRttMeanMs',
    'orderRttMaxMs',
    'orderRttMinMs',
    'orderRttStdevMs',
    'orderRttP99Ms',
    'tickToAckP99Ms',
    'ordersSent',
    'ordersAcked',
    'ticksReceived',
    'ticksMissed',
    'errors',
  ],
  charts: [
    { kind: 'percentiles', histograms: ['orderRtt', 'tickToAck', 'tickDelay'] },
    { kind: 'over-time', histogram: 'orderRtt', rates: ['ordersPerSec'] },
    { kind: 'resources' },
  ],
});

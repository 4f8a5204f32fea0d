/**
 * idle: N connections held open, each sending a small ping every `interval`
 * that the server answers, for `duration`. What it measures is the cost of
 * holding connections: the server's RSS and CPU per connection, how many
 * connected, failed or dropped, and the ping round trip (proof that every
 * connection is alive and served, not just open).
 *
 * Pings are spread evenly over the interval (connection i is due at i/N of it),
 * so the server sees a steady N/interval pings per second, never a burst; each
 * round trip is timed from when its ping was due, so a stalled client or server
 * shows as latency instead of hiding it.
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
  openPaced,
  scaleWithResolution,
  serverRssBaseline,
  serverRssPerConnection,
  type ClientConnection,
  type MetricInput,
  RESOURCE_METRICS,
} from 'wsbench/scenario';

/** Spacing of the ping scheduler's timer. */
const SCHEDULER_TICK_MS = 10;
/** After the window, pongs still in flight get this long before they count as unanswered. */
const DRAIN_MS = 1000;
const PING = 'ping';

const connectedOf = (input: MetricInput): number => input.measurements.counters.connected ?? 0;

export default defineScenario({
  name: 'idle',
  description:
    'N connections held open, each pinging every interval; server RSS and CPU per connection, ping round trips.',
  parameters: {
    connections: {
      kind: 'integer',
      description: 'open connections over all client processes',
      default: 100,
      min: 1,
      max: 100_000,
      sweepable: true,
      spread: 'processes',
    },
    interval: {
      kind: 'duration',
      description: 'time between two pings on one connection',
      default: '1s',
      min: '10ms',
      max: '1h',
      sweepable: true,
    },
    ...CONNECT_PHASE_PARAMETERS,
  },
  duration: { description: 'measurement window, every connection open', min: '1s', max: '24h' },
  presets: {
    ci: { connections: 20, interval: '200ms', duration: '1s' },
    ladder: { connections: [1000, 5000, 10_000], interval: '1s', duration: '10s' },
  },
  validate: (p) => connectPhaseProblem(p),
  // A ping's answer depends on its own connection only.
  multiProcessServer: true,
  readyTimeoutMs: (p) => connectPhaseReadyMs(p),

  server(ctx) {
    const pings = ctx.recorders.pingsAnswered;
    return {
      onConnection: serverRssBaseline(ctx),
      onMessage(connection, data) {
        pings.add();
        connection.send(data);
      },
      onMeasureStart() {
        ctx.recorders.openAtWindowStart.add(ctx.connections().size);
      },
    };
  },

  async client(ctx) {
    const p = ctx.params;
    const { count, first, sourceOf } = connectionShare(ctx, p.connections, p.sourceAddresses);
    const { rtt, pingsSent: sent, pongsReceived: received, badReplies } = ctx.recorders;
    let outstanding = 0;
    let wake: () => void = () => undefined;

    /** One connection and the due times of its pings still in flight (WebSocket keeps order: first out, first back). */
    interface Held {
      connection: ClientConnection;
      dueUs: number[];
      head: number;
    }
    const held = await openPaced<Held>({
      count,
      ratePerSec: p.connectRate / ctx.processCount,
      timeoutMs: p.connectTimeout,
      signal: ctx.signal,
      open: async (index) => {
        const entry: Held = { connection: undefined as unknown as ClientConnection, dueUs: [], head: 0 };
        entry.connection = await ctx.connect({
          ...sourceOf(first + index),
          // The engine's own deadline, the same as the pacing's: a connection not open by then counts as one that could not.
          timeoutMs: p.connectTimeout,
          onMessage(data) {
            const nowUs = ctx.nowUs();
            if (entry.head >= entry.dueUs.length) return void badReplies.add();
            const dueUs = entry.dueUs[entry.head++]!;
            if (entry.head === entry.dueUs.length) entry.dueUs.length = entry.head = 0;
            outstanding -= 1;
            received.add();
            if (data !== PING) badReplies.add();
            if (!ctx.signal.aborted) rtt.recordUs(nowUs - dueUs);
            else if (outstanding === 0) wake();
          },
          onUnexpectedClose: () => undefined, // counted by the core as connectionsLost
        });
        return entry;
      },
      discard: (late) => void late.connection.close(),
      onFailure: connectFailureCounter(ctx),
    });
    ctx.recorders.connected.add(held.length);

    await ctx.ready();
    // One timer for every connection: by now, pings number k < elapsed / interval * N are due, k-th on connection k mod N.
    const startUs = ctx.nowUs();
    const spacingUs = (p.interval * 1000) / Math.max(1, held.length);
    let next = 0;
    const timer = setInterval(() => {
      const due = Math.floor((ctx.nowUs() - startUs) / spacingUs) + 1;
      for (; next < due && held.length > 0; next++) {
        const entry = held[next % held.length]!;
        entry.dueUs.push(startUs + next * spacingUs);
        outstanding += 1;
        sent.add();
        entry.connection.send(PING);
      }
    }, SCHEDULER_TICK_MS);
    if (!ctx.signal.aborted)
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    clearInterval(timer);
    if (outstanding > 0) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, DRAIN_MS).unref();
      });
    }
    ctx.recorders.unanswered.add(outstanding);
    await Promise.all(held.map(({ connection }) => connection.close()));
  },

  recorders: {
    connected: counter({ total: { header: 'conn' } }),
    ...connectFailureRecorders(),
    // wsbench counts the connections lost itself: declared for its metric, never taken here.
    connectionsLost: counter({
      total: { key: 'dropped', header: 'drop', role: 'errors', description: 'connections lost during the run' },
    }),
    unanswered: counter({
      total: { header: 'unanswered', role: 'errors', description: 'pings without a pong when the drain ended' },
    }),
    badReplies: counter({
      total: {
        header: 'bad replies',
        role: 'errors',
        description: 'pongs that were not the ping sent, or came unasked',
      },
    }),
    pingsSent: counter({ total: { header: 'pings' } }),
    pongsReceived: counter({ total: { header: 'pongs' } }),
    rtt: histogram({ primary: ['p50', 'p99'], description: 'ping round trip, from when the ping was due' }),
    openAtWindowStart: counter({
      side: 'server',
      total: {
        key: 'serverOpenAtWindowStart',
        header: 'srv conn',
        description: 'connections the server held when the window opened',
      },
    }),
    pingsAnswered: counter({ side: 'server', total: false }),
  },
  // Each compute's input is typed, not inferred: an inferred one would leave these keys unknown to `table`.
  metrics: {
    serverRssPerConnectionBytes: {
      header: 'srv B/conn',
      unit: 'bytes',
      better: 'lower',
      role: 'detail',
      acrossRounds: 'mean',
      source: {
        custom:
          "server peak RSS in the window minus its RSS when the first connection arrived, per connected client; below resolution when smaller than the window's own RSS swing per connection",
        compute: (input: MetricInput) => serverRssPerConnection(input, connectedOf(input)),
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
          scaleWithResolution(serverRssPerConnection(input, connectedOf(input)), 1 / 1000),
      },
    },
    serverCpuPer1000Connections: {
      header: 'srv CPU%/1k conn',
      unit: '%',
      better: 'lower',
      role: 'detail',
      acrossRounds: 'mean',
      source: {
        custom: 'server CPU mean (% of one core) per 1000 connected clients, pings included',
        compute: ({ resources: { server }, measurements: m }: MetricInput) => {
          const connected = m.counters.connected ?? 0;
          return server && connected > 0 ? (server.cpuPercent.mean / connected) * 1000 : null;
        },
      },
    },
    serverCpuPercent: RESOURCE_METRICS.serverCpu,
    serverRssBytes: RESOURCE_METRICS.serverRss,
    clientCpuPercent: RESOURCE_METRICS.clientCpu,
  },
  table: [
    'connected',
    'connectFailed',
    'dropped',
    'unanswered',
    'rttP50Ms',
    'rttP99Ms',
    'rttMaxMs',
    'serverRssPerConnectionKB',
    'serverCpuPer1000Connections',
    'clientCpuPercent',
  ],
  charts: [
    {
      kind: 'by-parameter',
      parameter: 'connections',
      metrics: ['serverRssPerConnectionKB'],
      title: 'server memory per connection',
    },
    {
      kind: 'by-parameter',
      parameter: 'connections',
      metrics: ['serverCpuPer1000Connections', 'serverCpuPercent'],
      title: 'server CPU by connections',
    },
    {
      kind: 'by-parameter',
      parameter: 'connections',
      metrics: ['rttP50Ms', 'rttP99Ms'],
      title: 'ping round trip by connections',
    },
    {
      kind: 'by-parameter',
      parameter: 'connections',
      metrics: ['connectFailed', 'dropped', 'unanswered'],
      title: 'errors by connections',
    },
    { kind: 'resources' },
  ],
});

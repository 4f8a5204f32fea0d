/**
 * reconnect-storm: N clients connect and hold; `restartAt` into the window
 * wsbench kills the server (SIGKILL, as a crash) and starts it again on the
 * same port after `downtime`. Every client was dropped at once and comes back
 * by the reconnect policy the parameters give: `immediate`, a `fixed` delay,
 * or exponential `backoff` with full jitter. The thundering herd, measured.
 *
 * Each client's time to be back runs from the moment wsbench killed the
 * server (the orchestrator's CLOCK_MONOTONIC reading, handed to the clients
 * by ctx.serverRestart(): one host, one clock) to its own new connection's
 * open: an HDR histogram whose percentiles are the time until 50/90/99/100 %
 * of the clients were back. Every attempt, and every failed one by reason
 * (refused while the server is down, reset, timeout, HTTP status ...), is
 * counted; a client still down when the window ends is `never back`. Only the
 * kill may drop a connection: one lost before it, or after its client was
 * back, is `lost unplanned`, a fault like `never back`.
 *
 * The window closes once every client of every process is back, or at its
 * `duration` at the latest. Wire protocol for servers in other languages:
 * docs/protocols/reconnect-storm.md (accept the connection and hold it).
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
  sleep,
  unreportedHistogram,
  type ClientConnection,
  RESOURCE_METRICS,
} from 'wsbench/scenario';
import { ATTEMPT_FAILURE_RECORDERS, attemptFailureCounter } from './reconnect-storm/attempt-failures.js';
import { RECONNECT_POLICIES, reconnectDelays } from './reconnect-storm/reconnect-delays.js';

/** One client: its connection while it has one, when it last came back, and whether an attempt is under way. */
interface Client {
  index: number;
  connection: ClientConnection | null;
  backAtUs: number | null;
  reconnecting: boolean;
}

export default defineScenario({
  name: 'reconnect-storm',
  description:
    'N clients hold a connection; the server is killed and started again; time until the clients are back, attempts and failures by reason.',
  parameters: {
    connections: {
      kind: 'integer',
      description: 'clients over all client processes, each holding one connection',
      default: 100,
      min: 1,
      max: 100_000,
      sweepable: true,
      spread: 'processes',
    },
    policy: {
      kind: 'choice',
      choices: RECONNECT_POLICIES,
      default: 'backoff',
      sweepable: true,
      description:
        'when a dropped client tries again: immediate (at once, after every failure too), fixed (delay before every attempt), backoff (a random wait up to backoffBase x 2^attempt, at most backoffCap)',
    },
    delay: {
      kind: 'duration',
      description: "the fixed policy's wait before every attempt",
      default: '250ms',
      min: '1ms',
      max: '1m',
      sweepable: true,
    },
    backoffBase: {
      kind: 'duration',
      description: "the backoff policy's first ceiling, doubled after every failed attempt",
      default: '100ms',
      min: '1ms',
      max: '1m',
    },
    backoffCap: {
      kind: 'duration',
      description: "the backoff policy's largest ceiling",
      default: '3s',
      min: '1ms',
      max: '10m',
    },
    restartAt: {
      kind: 'duration',
      description: 'when in the window wsbench kills the server',
      default: '1s',
      min: '0ms',
      max: '1h',
    },
    downtime: {
      kind: 'duration',
      description: 'from the kill until wsbench starts the server again',
      default: '500ms',
      min: '0ms',
      max: '1h',
      sweepable: true,
    },
    attemptTimeout: {
      kind: 'duration',
      description: 'a reconnect attempt not open by then fails (timeout)',
      default: '5s',
      min: '100ms',
      max: '1m',
    },
    ...CONNECT_PHASE_PARAMETERS,
  },
  duration: {
    description: 'the longest the window lasts: it closes earlier once every client is back',
    default: '15s',
    min: '500ms',
    max: '24h',
  },
  presets: {
    ci: { connections: 20, restartAt: '300ms', downtime: '200ms', duration: '8s' },
    herd: { connections: 1000, policy: ['immediate', 'fixed', 'backoff'], downtime: '1s', duration: '20s' },
  },
  validate(p) {
    if (p.backoffCap < p.backoffBase)
      return { parameter: 'backoffCap', message: `${p.backoffCap}ms is below backoffBase ${p.backoffBase}ms` };
    if (p.restartAt + p.downtime >= p.duration) {
      return {
        parameter: 'duration',
        message: `${p.duration}ms ends before the server is back (restartAt ${p.restartAt}ms + downtime ${p.downtime}ms)`,
      };
    }
    return connectPhaseProblem(p);
  },
  // Every client is dropped by the restart on purpose, and failed attempts are counted by reason: its own
  // metrics say which are faults (connectFailed, neverBack: role errors), not the engine's connection ledger.
  connectionFaults: 'measured',
  serverRestart: { atMs: (p) => p.restartAt, downtimeMs: (p) => p.downtime },
  // Holding a connection needs nothing the server processes would have to share.
  multiProcessServer: true,
  readyTimeoutMs: (p) => connectPhaseReadyMs(p),

  // Accept and hold: all a reconnect storm asks of a server.
  server: () => ({}),

  async client(ctx) {
    const p = ctx.params;
    const { count, first, sourceOf } = connectionShare(ctx, p.connections, p.sourceAddresses);
    const { timeToBack, attempts, back, attemptsAbandoned: abandoned } = ctx.recorders;
    const attemptFailed = attemptFailureCounter(ctx);
    const settings = { policy: p.policy, delayMs: p.delay, backoffBaseMs: p.backoffBase, backoffCapMs: p.backoffCap };
    let down = 0;
    let wake: () => void = () => undefined;
    /** Every drop: when its connection opened and when it was lost (µs), judged once the kill's time is known. */
    const drops: Array<{ openedAtUs: number; lostAtUs: number }> = [];

    const open = async (client: Client): Promise<ClientConnection> => {
      let openedAtUs = Number.NaN;
      const connection = await ctx.connect({
        ...sourceOf(first + client.index),
        onMessage: () => undefined,
        // wsbench counts the drop in connectionsLost; the client goes after its server again.
        onUnexpectedClose: () => {
          drops.push({ openedAtUs, lostAtUs: ctx.nowUs() });
          client.connection = null;
          down += 1;
          if (!client.reconnecting) void reconnect(client);
        },
      });
      openedAtUs = ctx.nowUs();
      return connection;
    };

    const reconnect = async (client: Client): Promise<void> => {
      client.reconnecting = true;
      const delayOf = reconnectDelays(settings, first + client.index);
      for (let attempt = 0; !ctx.signal.aborted; attempt++) {
        const delayMs = delayOf(attempt);
        // `immediate` still lets the event loop turn between attempts, or one client would starve the rest.
        await (delayMs > 0 ? sleep(delayMs, ctx.signal) : new Promise((resolve) => setImmediate(resolve)));
        if (ctx.signal.aborted) break;
        attempts.add();
        const outcome = await withinDeadline(open(client), p.attemptTimeout, ctx.signal);
        if (outcome.kind === 'open') {
          client.connection = outcome.connection;
          client.backAtUs = ctx.nowUs();
          back.add();
          down -= 1;
          client.reconnecting = false;
          if (down === 0) wake();
          return;
        }
        if (outcome.kind === 'abandoned') abandoned.add();
        else attemptFailed(outcome.message);
        if (outcome.kind === 'abandoned') break;
      }
      client.reconnecting = false;
    };

    const clients = await openPaced<Client>({
      count,
      ratePerSec: p.connectRate / ctx.processCount,
      timeoutMs: p.connectTimeout,
      signal: ctx.signal,
      open: async (index) => {
        const client: Client = { index, connection: null, backAtUs: null, reconnecting: false };
        client.connection = await open(client);
        return client;
      },
      discard: (late) => void late.connection?.close(),
      onFailure: connectFailureCounter(ctx),
    });
    ctx.recorders.connected.add(clients.length);

    await ctx.ready();
    const restart = await ctx.serverRestart();
    // One process records the server's own downtime, so the cell holds it once (none when it never served again).
    const servingAtUs = restart?.servingAtUs ?? null;
    if (restart && servingAtUs !== null && ctx.processIndex === 0)
      ctx.recorders.serverDown.recordUs(servingAtUs - restart.stoppedAtUs);
    // Every client dropped by the kill is back, or the window is over.
    if (servingAtUs !== null && down > 0 && !ctx.signal.aborted) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    ctx.done();
    if (restart) {
      for (const client of clients) {
        if (client.connection && client.backAtUs !== null && client.backAtUs >= restart.stoppedAtUs)
          timeToBack.recordUs(client.backAtUs - restart.stoppedAtUs);
      }
    }
    ctx.recorders.neverBack.add(clients.filter((c) => c.connection === null).length);
    // The kill drops the connections that were open when it came; any other drop is the server's doing.
    const byKill = (d: { openedAtUs: number; lostAtUs: number }): boolean =>
      restart !== null && d.openedAtUs < restart.stoppedAtUs && d.lostAtUs >= restart.stoppedAtUs;
    ctx.recorders.lostUnplanned.add(drops.filter((d) => !byKill(d)).length);
    await Promise.all(clients.map((c) => c.connection?.close()));
  },

  recorders: {
    connected: counter({ total: { header: 'conn', description: 'clients connected before the window opened' } }),
    ...connectFailureRecorders(),
    // Counted by wsbench itself. Not a fault: the kill drops every client on purpose.
    connectionsLost: counter({
      total: {
        key: 'lost',
        header: 'lost',
        description: 'connections dropped under the clients (by the kill, as a rule: one per client)',
      },
    }),
    // A fault: a drop the kill did not cause.
    lostUnplanned: counter({
      total: {
        header: 'lost unplanned',
        role: 'errors',
        description:
          'connections dropped other than by the kill: before it, or after their client was back (the server closed them or went away)',
      },
    }),
    back: counter({ total: { header: 'back', better: 'higher', description: 'clients connected again after a drop' } }),
    // A fault: a client the server never took back within the window.
    neverBack: counter({
      total: {
        header: 'never back',
        role: 'errors',
        description: 'clients still without a connection when the window ended',
      },
    }),
    timeToBack: histogram({
      stats: ['p50', 'p90', 'p99', 'max', 'count'],
      primary: ['p50', 'p99'],
      label: 'back',
      description:
        "from the kill to the client's new connection open, over the clients that came back (all of them when never back is 0: then p50/p90/p99/max are the time until 50/90/99/100 % were back)",
    }),
    // Its max is serverDownMs, below: a key histogram() would name serverDownMaxMs.
    serverDown: unreportedHistogram(),
    attempts: counter({
      total: { header: 'attempts', better: 'none', description: 'reconnect attempts, the successful ones included' },
    }),
    // Not faults: attempts fail while the server is down, by design; a client that never gets back is neverBack.
    ...ATTEMPT_FAILURE_RECORDERS,
    attemptsAbandoned: counter({
      total: {
        header: 'abandoned',
        description: 'attempts under way when the window closed (neither open nor failed)',
      },
    }),
  },
  metrics: {
    serverDownMs: {
      header: 'srv back ms',
      unit: 'ms',
      better: 'lower',
      role: 'detail',
      source: { histogram: 'serverDown', stat: 'max' },
      description:
        'from the kill until wsbench first saw the new server serving (its own server: the ready signal; a command: its first handshake answered)',
    },
    serverCpuPeak: {
      header: 'srv CPU% peak',
      unit: '%',
      better: 'lower',
      role: 'detail',
      source: { resource: 'server', stat: 'cpuMax' },
      description: "the highest of the server's 250 ms CPU samples in the window (its old and new process alike)",
    },
    serverRssPeak: {
      header: 'srv RSS peak',
      unit: 'bytes',
      better: 'lower',
      role: 'detail',
      source: { resource: 'server', stat: 'rssMax' },
      description: "the server's largest RSS sample in the window",
    },
    serverCpuPercent: RESOURCE_METRICS.serverCpu,
    clientCpuPercent: RESOURCE_METRICS.clientCpu,
  },
  table: [
    'connected',
    'lost',
    'back',
    'neverBack',
    'serverDownMs',
    'timeToBackP50Ms',
    'timeToBackP90Ms',
    'timeToBackP99Ms',
    'timeToBackMaxMs',
    'attempts',
    'attemptsRefused',
    'attemptsFailed',
    'serverCpuPeak',
  ],
  charts: [
    { kind: 'cumulative', histogram: 'timeToBack', title: 'clients back, by time since the server was killed' },
    { kind: 'percentiles', histograms: ['timeToBack'], title: 'time to be back, by percentile of the clients' },
    { kind: 'resources' },
  ],
});

type Outcome =
  | { kind: 'open'; connection: ClientConnection }
  | { kind: 'failed'; message: string }
  | { kind: 'abandoned' };

/**
 * The attempt's outcome by its deadline; `abandoned` when the window closes first. A connection
 * that opens after its attempt gave up is closed at once: it no longer counts.
 */
function withinDeadline(attempt: Promise<ClientConnection>, timeoutMs: number, signal: AbortSignal): Promise<Outcome> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Outcome): void => {
      if (settled) {
        if (outcome.kind === 'open') void outcome.connection.close();
        return;
      }
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = (): void => finish({ kind: 'abandoned' });
    const timer = setTimeout(
      () => finish({ kind: 'failed', message: `no open within ${timeoutMs}ms: timed out` }),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    attempt.then(
      (connection) => finish({ kind: 'open', connection }),
      (error: unknown) => finish({ kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
    );
  });
}

/**
 * churn: connections come and go at a fixed rate, as mobile clients do all
 * day. Each connection opens, exchanges `messages` echo round trips and
 * closes; a new one starts every 1/rate seconds whether or not the ones before
 * it are done (open loop), and its handshake is timed from the moment it was
 * due, so a client or server that falls behind shows in the latency instead
 * of slowing the schedule down (coordinated omission).
 *
 * The handshake is split where the client stack lets it be seen (ws, undici
 * and socket.io: the Node socket's connect and secureConnect events): TCP
 * connect, TLS, and the upgrade. Bun's and Deno's WebSocket hide their socket:
 * their cells show the total alone, and a note says why. A failed handshake
 * is counted by what the stack said: refused, reset, timeout, TLS, HTTP status.
 *
 * Wire protocol for servers in other languages: docs/protocols/churn.md (the
 * echo protocol; the stats route counts `accepted` connections).
 */
import {
  classifyHandshakeFailure,
  connectionShare,
  counter,
  defineScenario,
  handshakeFailureCounters,
  handshakeFailureRecorders,
  histogram,
  sleep,
  type ClientConnection,
  type MetricInput,
} from 'wsbench/scenario';

/** Seconds of the cell's window (the schedule and the last connections' drain). */
const windowSeconds = (m: MetricInput['measurements']): number => m.windowMs / 1000;

/**
 * The server's CPU time in the window, per connection it accepted, in µs: its mean CPU (of one
 * core, from /proc) times the window, over the connections its server half saw open.
 */
function serverCpuPerHandshakeUs({ measurements: m, resources: { server } }: MetricInput): number | null {
  const accepted = m.serverCounters.accepted ?? 0;
  if (!server || accepted === 0) return null;
  return Math.round(((server.cpuPercent.mean / 100) * m.windowMs * 1000) / accepted);
}

/** One counter per class of failed handshake, the breakdown of handshakeFailed: handshakeFailedRefused .. handshakeFailedOther. */
const HANDSHAKE_FAILURE_RECORDERS = handshakeFailureRecorders('handshakeFailed', (f) => ({
  header: `fail ${f}`,
  better: 'lower',
}));

export default defineScenario({
  name: 'churn',
  description:
    'Connections open, exchange a few echo messages and close, at a fixed rate of new connections a second; handshake latency by step, failures by reason.',
  parameters: {
    rate: {
      kind: 'integer',
      description:
        'new connections a second, over all client processes (open loop: due on schedule whatever happened before)',
      default: 50,
      min: 1,
      max: 100_000,
      sweepable: true,
    },
    messages: {
      kind: 'integer',
      description: 'echo round trips each connection makes before it closes',
      default: 3,
      min: 0,
      max: 1000,
      sweepable: true,
    },
    payload: { kind: 'size', description: 'size of each message', default: 32, min: 1, max: '1MiB' },
    handshakeTimeout: {
      kind: 'duration',
      description: 'a connection not open by then counts as failed (timeout); its echoes get as long again',
      default: '5s',
      min: '100ms',
      max: '6s',
    },
    sourceAddresses: {
      kind: 'integer',
      description:
        'loopback source addresses 127.0.0.2.. to spread connections over (0 = one per 1000 connections of the schedule above 1000)',
      default: 0,
      min: 0,
      max: 250,
    },
  },
  // Refused, reset and unanswered handshakes are what churn counts, by reason: its own metrics say
  // which are faults (handshakeFailed, exchangeFailed: role errors), not the engine's connection ledger.
  connectionFaults: 'measured',
  duration: {
    description: 'how long new connections are started (the window lasts until the last of them is done)',
    default: '10s',
  },
  presets: {
    ci: { duration: '1s', rate: 20 },
  },
  // The clients end the window once every connection they started is done.
  windowMs: () => undefined,
  // Every connection talks to its own server process only.
  multiProcessServer: true,

  server(ctx) {
    const { accepted, echoed } = ctx.recorders;
    // The clients' warm-up connections come before the window: only the window's are counted.
    let measuring = false;
    return {
      onConnection: () => measuring && accepted.add(),
      onMessage(connection, data) {
        if (measuring) echoed.add();
        connection.send(data);
      },
      onMeasureStart: () => (measuring = true),
      onMeasureEnd: () => (measuring = false),
    };
  },

  async client(ctx) {
    const p = ctx.params;
    const payload = 'x'.repeat(p.payload);
    const perProcessRate = p.rate / ctx.processCount;
    const intervalUs = 1e6 / perProcessRate;
    // Processes take turns, so the whole schedule is even rather than bunched.
    const offsetUs = (intervalUs * ctx.processIndex) / ctx.processCount;
    const scheduled = Math.ceil((p.rate * p.duration) / 1000);
    const { first: firstIndex, sourceOf } = connectionShare(ctx, scheduled, p.sourceAddresses);

    const { handshake, tcpConnect: tcp, tlsHandshake: tls, upgrade, exchange } = ctx.recorders;
    const { attempts, opened, handshakeFailed: failed, exchanged, exchangeFailed, stepsHidden } = ctx.recorders;
    // Each class's counter taken now, so a class that never happened reads a counted 0.
    const byFailure = handshakeFailureCounters(ctx.recorders, 'handshakeFailed');
    const noted = new Set<string>();
    const noteOnce = (text: string): void => {
      if (noted.has(text)) return;
      noted.add(text);
      ctx.note(text);
    };

    /** One connection's life: open (timed from its due time), `messages` echoes, close. */
    const live = async (index: number, dueUs: number): Promise<void> => {
      attempts.add();
      let onReply: () => void = () => undefined;
      let lost: string | null = null;
      let onLost: (reason: string) => void = () => undefined;
      const opening = ctx.connect({
        ...sourceOf(firstIndex + index),
        inspectSocket: true,
        onMessage: () => onReply(),
        onUnexpectedClose: (reason) => {
          lost = reason;
          onLost(reason);
        },
      });
      let connection: ClientConnection;
      try {
        connection = await withDeadline(
          opening,
          p.handshakeTimeout,
          `timed out: not open after ${p.handshakeTimeout} ms`,
        );
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
        const failure = classifyHandshakeFailure(message);
        failed.add();
        byFailure[failure].add();
        noteOnce(`handshake failed (${failure}): ${message}`);
        // One that opens after its deadline is closed at once: it no longer counts.
        opening.then(
          (late) => void late.close(),
          () => undefined,
        );
        return;
      }
      handshake.recordUs(ctx.nowUs() - dueUs);
      opened.add();
      const steps = connection.handshakePhases();
      if (steps.tcpConnectUs === null) {
        stepsHidden.add();
        noteOnce(`handshake steps not shown: ${steps.reason ?? 'the client stack does not say'}`);
      } else {
        tcp.recordUs(steps.tcpConnectUs);
        if (steps.tlsHandshakeUs !== null) tls.recordUs(steps.tlsHandshakeUs);
        if (steps.upgradeUs !== null) upgrade.recordUs(steps.upgradeUs);
      }
      const startedUs = ctx.nowUs();
      const done =
        lost !== null
          ? { count: 0, failure: lost }
          : await echoes(connection, p.messages, p.handshakeTimeout, (reply, gone) => {
              onReply = reply;
              onLost = gone;
            });
      exchanged.add(done.count);
      if (done.failure) {
        exchangeFailed.add();
        noteOnce(`exchange broke off: ${done.failure}`);
      } else if (p.messages > 0) exchange.recordUs(ctx.nowUs() - startedUs);
      await connection.close();
    };

    /** One connection before the window, so the stack's code is loaded and compiled before the first timed handshake. */
    async function warmUp(): Promise<void> {
      const opening = ctx.connect({ onMessage: () => undefined, inspectSocket: true });
      try {
        await (
          await withDeadline(opening, p.handshakeTimeout, `timed out: not open after ${p.handshakeTimeout} ms`)
        ).close();
      } catch (error) {
        opening.then(
          (late) => void late.close(),
          () => undefined,
        );
        ctx.note(
          `the warm-up connection before the window failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
        );
      }
    }

    /** `messages` echoes one after another; resolves with how many came back, and why it stopped early. */
    function echoes(
      connection: ClientConnection,
      messages: number,
      timeoutMs: number,
      listen: (reply: () => void, lost: (reason: string) => void) => void,
    ): Promise<{ count: number; failure?: string }> {
      return new Promise((resolve) => {
        let count = 0;
        const timer = setTimeout(() => finish(`no echo within ${timeoutMs} ms`), timeoutMs);
        function finish(failure?: string): void {
          clearTimeout(timer);
          listen(
            () => undefined,
            () => undefined,
          );
          resolve(failure ? { count, failure } : { count });
        }
        listen(
          () => {
            count += 1;
            if (count >= messages) return finish();
            connection.send(payload);
          },
          (reason) => finish(reason),
        );
        if (messages === 0) return finish();
        connection.send(payload);
      });
    }

    await warmUp();
    await ctx.ready();
    const startUs = ctx.nowUs();
    const running = new Set<Promise<void>>();
    const endUs = startUs + p.duration * 1000;
    for (let index = 0; ; index++) {
      const dueUs = startUs + offsetUs + index * intervalUs;
      if (dueUs >= endUs || ctx.signal.aborted) break;
      const waitMs = (dueUs - ctx.nowUs()) / 1000;
      if (waitMs > 1) await sleep(waitMs, ctx.signal);
      if (ctx.signal.aborted) break;
      // Not awaited: the next connection is due on schedule, however this one fares.
      const life = live(index, dueUs).finally(() => running.delete(life));
      running.add(life);
    }
    await Promise.all(running);
    ctx.done();
  },

  recorders: {
    attempts: counter({ total: { header: 'tried' } }),
    opened: counter({ total: { header: 'opened' } }),
    // A fault: a server that refuses (429, 503), resets or never answers a handshake did not serve that client,
    // whatever rate it was asked for. The cell is errors; the breakdown below says why.
    handshakeFailed: counter({
      total: { header: 'failed', role: 'errors', description: 'handshakes that did not open, for any reason' },
    }),
    ...HANDSHAKE_FAILURE_RECORDERS,
    // A fault: an opened connection that stopped answering.
    exchangeFailed: counter({
      total: {
        header: 'lost',
        role: 'errors',
        description: 'opened connections whose echoes broke off (closed, or none within the timeout)',
      },
    }),
    exchanged: counter({ total: false }),
    handshake: histogram({
      stats: ['p50', 'p90', 'p99', 'max', 'count'],
      primary: ['p50', 'p99'],
      label: 'hs',
      description:
        'from the moment the connection was due to its open: TCP, TLS and upgrade, plus any wait for the client to get to it',
    }),
    tcpConnect: histogram({
      stats: ['p50', 'p99'],
      label: 'tcp',
      description: "connect() to the socket's connect event",
    }),
    tlsHandshake: histogram({
      stats: ['p50', 'p99'],
      label: 'tls',
      description: 'connect event to secureConnect (TLS cells only)',
    }),
    upgrade: histogram({
      stats: ['p50', 'p99'],
      label: 'upg',
      description: 'socket ready (TCP, or TLS) to the WebSocket open (socket.io: to its connect event)',
    }),
    exchange: histogram({
      stats: ['p50', 'p99'],
      label: 'echo',
      description: "the connection's echo round trips, one after another",
    }),
    stepsHidden: counter({
      total: { header: 'no steps', description: 'opened connections whose client stack shows the total only' },
    }),
    accepted: counter({ side: 'server', total: { header: 'accepted' } }),
    echoed: counter({ side: 'server', total: false }),
  },
  // Each compute's input is typed, not inferred: an inferred one would leave these keys unknown to `table`.
  metrics: {
    handshakesPerSec: {
      header: 'hs/s',
      unit: '/s',
      better: 'higher',
      role: 'primary-rate',
      source: {
        custom: "connections opened / window (the schedule and the last connections' drain)",
        compute: ({ measurements: m }: MetricInput) =>
          m.windowMs > 0 ? (m.counters.opened ?? 0) / windowSeconds(m) : null,
      },
    },
    serverCpuPerHandshakeUs: {
      header: 'srv µs/hs',
      unit: 'us',
      better: 'lower',
      role: 'detail',
      acrossRounds: 'mean',
      source: {
        custom:
          'server CPU time in the window (mean CPU % of one core x window, from /proc) / connections its server half accepted',
        compute: serverCpuPerHandshakeUs,
      },
    },
  },
  table: [
    'attempts',
    'opened',
    'handshakeFailed',
    'handshakesPerSec',
    'handshakeP50Ms',
    'handshakeP99Ms',
    'handshakeMaxMs',
    'tcpConnectP50Ms',
    'tlsHandshakeP50Ms',
    'upgradeP50Ms',
    'upgradeP99Ms',
    'exchangeFailed',
    'serverCpuPerHandshakeUs',
  ],
  charts: [
    { kind: 'percentiles', histograms: ['handshake', 'tcpConnect', 'tlsHandshake', 'upgrade'] },
    {
      kind: 'by-parameter',
      parameter: 'rate',
      metrics: ['handshakeP50Ms', 'handshakeP99Ms'],
      title: 'handshake latency by rate',
    },
    { kind: 'by-parameter', parameter: 'rate', metrics: ['handshakesPerSec'], title: 'handshakes a second by rate' },
    { kind: 'resources' },
  ],
});

/** `promise`, or a rejection with `message` after `ms`. */
function withDeadline<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

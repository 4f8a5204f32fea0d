/**
 * push-vs-poll (seed 000): one order-event backend serves the same updates two
 * ways, pushed over WebSocket and kept for REST polling (push-vs-poll/backend.ts).
 * The first client process places orders over HTTP and watches with one
 * WebSocket subscriber and one REST poller (undici, keep-alive, fixed rate).
 *
 * Latency runs from an update's creation on the server to the moment a client
 * has seen it: one host, one monotonic clock. Polls run on a schedule of their
 * own, but the reference point is the update's creation, so a late poll adds
 * to latency and cannot hide it.
 *
 * test=continuous (seed test 1): `iterations` times, K orders at once, after a
 * random pause within one poll interval (so batches land at every phase of the
 * poll schedule); one sample per batch and approach: until all K were seen.
 * test=sustained (seed test 2): a steady flow of `samples` orders over
 * `duration` (one at a random moment of each equal slot), once with only the
 * subscriber listening and once with only the poller, so the server's CPU
 * time in each phase belongs to one approach.
 *
 * Wire protocol for servers in other languages: docs/protocols/push-vs-poll.md.
 */
import {
  counter,
  defineScenario,
  histogram,
  sleep,
  waitUntil,
  ProtocolGuard,
  type MetricDefinition,
  type MetricInput,
} from 'wsbench/scenario';
import { PHASES, orderBackend, phaseCpuPercent, type Phase, type PlaceResponse } from './push-vs-poll/backend.js';
import { createPoller, openSubscriber, type BatchTracker } from './push-vs-poll/observers.js';

const ONE_CLOCK =
  'push-vs-poll: one host, one clock: latency = client CLOCK_MONOTONIC at sighting minus the server process CLOCK_MONOTONIC at creation; ' +
  'valid on one machine only';
/** An update not seen by both approaches within this (plus ten poll intervals) counts as missing. */
const SIGHTING_TIMEOUT_MS = 2000;
/** Slack on top of the measured phases before the orchestrator closes the window anyway. */
const WINDOW_SLACK_MS = 5000;

const sightingTimeoutMs = (p: { pollInterval: number }): number => SIGHTING_TIMEOUT_MS + 10 * p.pollInterval;
const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const round2 = (value: number | null): number | null => (value === null ? null : Math.round(value * 100) / 100);

/** Bytes per update one approach delivered: the byte counters added up, over the update counter. */
function perUpdate(
  header: string,
  bytes: string[],
  updates: 'restUpdates' | 'wsUpdates',
  description?: string,
): MetricDefinition {
  return {
    header,
    unit: 'bytes',
    better: 'lower',
    role: 'detail',
    ...(description ? { description } : {}),
    source: {
      custom: `(${bytes.join(' + ')}) / ${updates}, null when no update arrived`,
      compute: ({ measurements: { counters: c } }) =>
        round2(
          ratio(
            bytes.reduce((sum, name) => sum + (c[name] ?? 0), 0),
            c[updates] ?? 0,
          ),
        ),
    },
  };
}

/** Server CPU time over wall time in one phase of test=sustained; null in continuous, which runs both at once. */
function phaseCpu(phase: Phase, header: string): MetricDefinition {
  return {
    header,
    unit: '%',
    better: 'lower',
    role: 'detail',
    source: {
      custom: `server CPU time / wall time during the ${phase} phase`,
      compute: ({ measurements: m }) => round2(phaseCpuPercent(m.serverCounters, phase)),
    },
  };
}

const PLACED = 'batches (continuous) or orders (sustained) placed';
const WATCHES = 'from the creation of a batch on the server until every update of it was seen';
const WATCHER = { ws: `subscriber: ${WATCHES}`, rest: `poller: ${WATCHES}` };
/** The statistics of histogram ws or rest whose table headers are the seed's ("WS mean", not histogram()'s "WS avg ms"). */
function seedHeaded(
  histogram: 'ws' | 'rest',
  stat: 'mean' | 'p50' | 'max' | 'count',
  header: string,
): MetricDefinition {
  const counting = stat === 'count';
  return {
    header,
    unit: counting ? 'count' : 'ms',
    better: counting ? 'none' : 'lower',
    role: stat === 'mean' || stat === 'p50' ? 'primary-latency' : 'detail',
    source: { histogram, stat },
    description: WATCHER[histogram],
  };
}
/** A counter that reports no metric of its own: the computed metrics below read it. */
const unreported = counter({ total: false });
const unreportedOnServer = counter({ side: 'server', total: false });
/** Mean WS latency gained over REST, in ms; null unless both saw something. */
const improvementMs = ({ measurements: { latency: l } }: MetricInput): number | null =>
  l.ws && l.rest ? l.rest.meanMs - l.ws.meanMs : null;

export default defineScenario({
  name: 'push-vs-poll',
  description:
    'Order updates pushed over WebSocket vs polled over REST from the same server: latency from creation to sighting, and what each costs.',
  // The client half places orders and polls over HTTP (ctx.http).
  requires: { httpRoutes: true, httpClient: true },
  parameters: {
    test: {
      kind: 'choice',
      description:
        'continuous: K orders at once, per iteration (seed test 1); sustained: steady flow, one approach at a time (seed test 2)',
      default: 'continuous',
      choices: ['continuous', 'sustained'],
      sweepable: true,
    },
    pollInterval: {
      kind: 'duration',
      description: 'REST poll interval (fixed rate, one request at a time)',
      default: '50ms',
      min: '1ms',
      max: '60s',
      sweepable: true,
    },
    iterations: { kind: 'integer', description: 'continuous: batches placed', default: 50, min: 1, max: 1_000_000 },
    orders: {
      kind: 'integer',
      description: 'continuous: orders placed at once per batch (K)',
      default: 3,
      min: 1,
      max: 10_000,
      sweepable: true,
    },
    samples: {
      kind: 'integer',
      description: 'sustained: orders placed evenly over each phase',
      default: 25,
      min: 1,
      max: 1_000_000,
    },
  },
  duration: { description: 'sustained: length of each phase (websocket, then rest)', default: '5s' },
  presets: {
    // Seed 000: 50 iterations of 3 orders, 50 ms polling; test 2 with 25 samples (its duration is not stated: 5 s per phase).
    seed: {
      test: ['continuous', 'sustained'],
      pollInterval: '50ms',
      iterations: 50,
      orders: 3,
      duration: '5s',
      samples: 25,
    },
    ci: { test: ['continuous', 'sustained'], pollInterval: '50ms', iterations: 10, duration: '600ms', samples: 6 },
  },
  validate(p) {
    if (p.test === 'sustained' && p.duration / p.samples < 1) {
      const message = `${p.samples} samples in ${p.duration}ms is more than one order per millisecond (raise duration or lower samples)`;
      return { parameter: 'samples', message };
    }
    return null;
  },
  windowMs: (p) =>
    p.test === 'sustained' ? PHASES.length * (p.duration + sightingTimeoutMs(p)) + WINDOW_SLACK_MS : undefined,

  server: (ctx) => orderBackend(ctx),

  async client(ctx) {
    const p = ctx.params;
    if (ctx.processIndex > 0) {
      ctx.note('push-vs-poll: only client process 1 places and observes orders; the others stay idle');
      await ctx.ready();
      return;
    }
    ctx.note(ONE_CLOCK);
    const { placeRequests, errors } = ctx.recorders;
    const expected = { websocket: ctx.recorders.batchesExpectedWs, rest: ctx.recorders.batchesExpectedRest };
    const guard = new ProtocolGuard(ctx, 'push-vs-poll');
    const subscriber = await openSubscriber(ctx, guard);
    const poller = createPoller(ctx, p.pollInterval);
    const post = async <T>(path: string, body: unknown): Promise<T | null> => {
      const response = await ctx.http
        .request('POST', path, JSON.stringify(body))
        .catch((error: Error) => ({ status: 0, body: error.message }));
      if (response.status === 200) return JSON.parse(response.body) as T;
      errors.add();
      ctx.note(`POST ${path} failed: ${response.status} ${response.body.slice(0, 100)}`);
      return null;
    };
    const place = async (count: number): Promise<number | null> => {
      placeRequests.add();
      return (await post<PlaceResponse>('/orders', { count }))?.batch ?? null;
    };
    // A lost subscriber sees nothing more: waiting for it would only stretch the run.
    const seenBy = (trackers: BatchTracker[], batch: number): Promise<boolean> =>
      waitUntil(
        () => !guard.ok || trackers.every((t) => t.has(batch) || (t === subscriber.tracker && !subscriber.alive())),
        sightingTimeoutMs(p),
        1,
      );

    await ctx.ready();
    try {
      if (p.test === 'continuous') {
        poller.start(0);
        for (let i = 0; i < p.iterations && !ctx.signal.aborted; i++) {
          await sleep(Math.random() * p.pollInterval, ctx.signal);
          const batch = await place(p.orders);
          if (batch === null) continue;
          expected.websocket.add();
          expected.rest.add();
          await seenBy([subscriber.tracker, poller.tracker], batch);
        }
      } else {
        for (const phase of PHASES) {
          if (ctx.signal.aborted) break;
          await runPhase(phase);
        }
      }
    } finally {
      ctx.done();
      await poller.stop();
      const wire = poller.wireBytes();
      ctx.recorders.restWireBytesUp.add(wire.sentBytes);
      ctx.recorders.restWireBytesDown.add(wire.receivedBytes);
      await subscriber.close();
    }
    guard.throwIfBroken();

    async function runPhase(phase: Phase): Promise<void> {
      const started = await post<{ cursor: number }>('/phase', { name: phase, state: 'start' });
      if (!started) return;
      await subscriber.subscribe(phase === 'websocket');
      if (phase === 'rest') poller.start(started.cursor);
      const tracker = phase === 'websocket' ? subscriber.tracker : poller.tracker;
      const spacingMs = p.duration / p.samples;
      const startMs = performance.now();
      let last: number | null = null;
      // One order at a random moment within each slot: a fixed spacing would keep every order
      // at the same phase of the poll schedule and bias REST latency (200 ms slots, 50 ms polls).
      for (let i = 0; i < p.samples && !ctx.signal.aborted; i++) {
        await sleep(startMs + (i + Math.random()) * spacingMs - performance.now(), ctx.signal);
        const batch = await place(1);
        if (batch === null) continue;
        expected[phase].add();
        last = batch;
      }
      // A phase lasts at least its duration: Node's timers count whole milliseconds, so one sleep can end up to a
      // millisecond early (the poller of a 600 ms rest phase ran 601 ms here, and once less than 600).
      const endMs = startMs + p.duration;
      while (performance.now() < endMs && !ctx.signal.aborted) await sleep(endMs - performance.now(), ctx.signal);
      if (last !== null) await seenBy([tracker], last);
      if (phase === 'rest') await poller.stop();
      await post('/phase', { name: phase, state: 'end' });
    }
  },

  recorders: {
    ws: histogram({ stats: ['p90', 'p99', 'p999', 'min', 'stdev', 'count'], label: 'WS', description: WATCHER.ws }),
    rest: histogram({ stats: ['p90', 'p99', 'p999', 'min', 'stdev'], label: 'REST', description: WATCHER.rest }),
    batchesExpectedWs: counter({
      total: { key: 'wsExpectedSamples', header: 'WS expected', description: `${PLACED} while the subscriber watched` },
    }),
    batchesExpectedRest: counter({
      total: { key: 'restExpectedSamples', header: 'REST expected', description: `${PLACED} while the poller watched` },
    }),
    // A fault of the measurement itself: its latencies cannot be trusted.
    negativeLatencies: counter({
      total: {
        header: 'negative',
        role: 'errors',
        description: 'updates seen before their creation time: the one-clock assumption broke',
      },
    }),
    restRequests: counter({ total: { header: 'HTTP reqs' } }),
    restEmptyPolls: counter({ total: { header: 'empty' } }),
    restUpdates: counter({ total: { header: 'REST updates' } }),
    restPollActiveUs: unreported,
    restPollsBehindSchedule: counter({ total: { header: 'polls late', better: 'lower' } }),
    // Read by metrics written out below: bytes (a counter's total is a count) and bytes per update.
    restWireBytesUp: unreported,
    restWireBytesDown: unreported,
    restBodyBytesDown: unreported,
    wsUpdates: counter({ total: { header: 'WS updates' } }),
    wsPayloadBytesDown: unreported,
    wsPayloadBytesUp: unreported,
    wsWireBytesDown: unreported,
    wsWireBytesUnavailable: unreported,
    pollsServed: counter({ side: 'server', total: { key: 'serverPollsServed', header: 'polls served' } }),
    updatesCreated: counter({ side: 'server', total: { key: 'serverUpdatesCreated', header: 'updates created' } }),
    updatesPushed: unreportedOnServer,
    emptyPollsServed: unreportedOnServer,
    cpuUs_websocket: unreportedOnServer,
    wallUs_websocket: unreportedOnServer,
    cpuUs_rest: unreportedOnServer,
    wallUs_rest: unreportedOnServer,
    placeRequests: counter({ total: { header: 'orders placed' } }),
    errors: counter({ total: { header: 'errors', role: 'errors' } }),
    connectionsLost: counter({ total: { header: 'lost', role: 'errors' } }),
  },
  // Each compute's input is typed, not inferred: an inferred one would leave these keys unknown to `table`.
  metrics: {
    wsMeanMs: seedHeaded('ws', 'mean', 'WS mean'),
    wsP50Ms: seedHeaded('ws', 'p50', 'WS p50'),
    wsMaxMs: seedHeaded('ws', 'max', 'WS max'),
    restMeanMs: seedHeaded('rest', 'mean', 'REST mean'),
    restP50Ms: seedHeaded('rest', 'p50', 'REST p50'),
    restMaxMs: seedHeaded('rest', 'max', 'REST max'),
    restSamples: seedHeaded('rest', 'count', 'samples'),
    improvementMs: {
      header: 'gain ms',
      unit: 'ms',
      better: 'higher',
      role: 'detail',
      source: { custom: 'REST mean - WS mean', compute: (input: MetricInput) => round2(improvementMs(input)) },
    },
    improvementPercent: {
      header: 'gain %',
      unit: '%',
      better: 'higher',
      role: 'detail',
      source: {
        custom: '(REST mean - WS mean) / REST mean x 100',
        compute: (input: MetricInput) => {
          const gain = improvementMs(input);
          const restMean = input.measurements.latency.rest?.meanMs;
          return gain === null || !restMean ? null : round2((gain / restMean) * 100);
        },
      },
    },
    restPollActiveMs: {
      header: 'polling ms',
      unit: 'ms',
      better: 'none',
      role: 'detail',
      source: {
        custom: 'time the poller ran',
        compute: ({ measurements: m }: MetricInput) => Math.round((m.counters.restPollActiveUs ?? 0) / 1000),
      },
    },
    restPollsScheduled: {
      header: 'polls due',
      unit: 'count',
      better: 'none',
      role: 'detail',
      acrossRounds: 'sum',
      source: {
        custom: 'polls the fixed-rate schedule asked for while the poller ran (one at its start, one per interval)',
        compute: ({ measurements: m, params }: MetricInput<{ pollInterval: number }>) => {
          const activeMs = (m.counters.restPollActiveUs ?? 0) / 1000;
          return activeMs > 0 ? Math.floor(activeMs / params.pollInterval) + 1 : 0;
        },
      },
    },
    restWireBytesUp: {
      header: 'REST wire up',
      unit: 'bytes',
      better: 'lower',
      role: 'detail',
      source: { counter: 'restWireBytesUp' },
    },
    restWireBytesDown: {
      header: 'REST wire down',
      unit: 'bytes',
      better: 'lower',
      role: 'detail',
      source: { counter: 'restWireBytesDown' },
    },
    restWireBytesUpPerUpdate: perUpdate('REST up B/upd', ['restWireBytesUp'], 'restUpdates'),
    restWireBytesDownPerUpdate: perUpdate('REST down B/upd', ['restWireBytesDown'], 'restUpdates'),
    restWireBytesPerUpdate: perUpdate(
      'REST wire B/upd',
      ['restWireBytesUp', 'restWireBytesDown'],
      'restUpdates',
      'poll bytes both ways, headers included',
    ),
    restBodyBytesDownPerUpdate: perUpdate('REST body B/upd', ['restBodyBytesDown'], 'restUpdates'),
    wsPayloadBytesDownPerUpdate: perUpdate('WS down B/upd', ['wsPayloadBytesDown'], 'wsUpdates'),
    wsPayloadBytesUpPerUpdate: perUpdate('WS up B/upd', ['wsPayloadBytesUp'], 'wsUpdates'),
    wsWireBytesDownPerUpdate: {
      ...perUpdate(
        'WS wire B/upd',
        ['wsWireBytesDown'],
        'wsUpdates',
        'every byte received on the WebSocket after the upgrade',
      ),
      source: {
        custom: 'wsWireBytesDown / wsUpdates, null where the client stack hands over no raw bytes',
        compute: ({ measurements: { counters: c } }: MetricInput) =>
          (c.wsWireBytesUnavailable ?? 0) > 0 ? null : round2(ratio(c.wsWireBytesDown ?? 0, c.wsUpdates ?? 0)),
      },
    },
    serverCpuPercentWebsocket: phaseCpu('websocket', 'CPU% ws'),
    serverCpuPercentRest: phaseCpu('rest', 'CPU% rest'),
  },
  table: [
    'wsMeanMs',
    'wsP50Ms',
    'wsMaxMs',
    'restMeanMs',
    'restP50Ms',
    'restMaxMs',
    'improvementMs',
    'improvementPercent',
    'restSamples',
    'restRequests',
    'restEmptyPolls',
    'restWireBytesPerUpdate',
    'wsWireBytesDownPerUpdate',
    'serverCpuPercentWebsocket',
    'serverCpuPercentRest',
  ],
  charts: [
    { kind: 'by-parameter', parameter: 'test', histograms: ['ws', 'rest'] },
    { kind: 'percentiles', histograms: ['ws', 'rest'] },
    { kind: 'resources' },
  ],
});

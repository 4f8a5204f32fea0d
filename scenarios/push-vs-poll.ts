/**
 * push-vs-poll (seed 000): one order-event backend serves the same updates two
 * ways, pushed over WebSocket and kept for REST polling (lib/push-vs-poll-backend.ts).
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
 */
import type { Scenario } from '../src/index.js';
import { latencyMetrics } from './lib/latency-metrics.js';
import { PHASES, orderBackend, phaseCpuCounter, phaseWallCounter, type Phase, type PlaceResponse } from './lib/push-vs-poll-backend.js';
import { createPoller, openSubscriber, type BatchTracker } from './lib/push-vs-poll-observers.js';
import { sleep, waitUntil } from './lib/waiting.js';

interface PushPollParams {
  [key: string]: number | boolean | string;
  test: string;
  pollInterval: number;
  iterations: number;
  orders: number;
  duration: number;
  samples: number;
}

const ONE_CLOCK =
  'push-vs-poll: one host, one clock: latency = client CLOCK_MONOTONIC at sighting minus the server process CLOCK_MONOTONIC at creation; valid on one machine only';
/** An update not seen by both approaches within this (plus ten poll intervals) counts as missing. */
const SIGHTING_TIMEOUT_MS = 2000;
/** Slack on top of the measured phases before the orchestrator closes the window anyway. */
const WINDOW_SLACK_MS = 5000;

const sightingTimeoutMs = (p: PushPollParams): number => SIGHTING_TIMEOUT_MS + 10 * p.pollInterval;
const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const round2 = (value: number | null): number | null => (value === null ? null : Math.round(value * 100) / 100);

const pushVsPoll: Scenario<PushPollParams> = {
  name: 'push-vs-poll',
  description: 'Order updates pushed over WebSocket vs polled over REST from the same server: latency from creation to sighting, and what each costs.',
  parameters: {
    test: { kind: 'string', description: 'continuous: K orders at once, per iteration (seed test 1); sustained: steady flow, one approach at a time (seed test 2)', default: 'continuous', choices: ['continuous', 'sustained'], sweepable: true },
    pollInterval: { kind: 'duration', description: 'REST poll interval (fixed rate, one request at a time)', default: 50, min: 1, max: 60_000, sweepable: true },
    iterations: { kind: 'integer', description: 'continuous: batches placed', default: 50, min: 1, max: 1_000_000 },
    orders: { kind: 'integer', description: 'continuous: orders placed at once per batch (K)', default: 3, min: 1, max: 10_000, sweepable: true },
    duration: { kind: 'duration', description: 'sustained: length of each phase (websocket, then rest)', default: 5000, min: 100 },
    samples: { kind: 'integer', description: 'sustained: orders placed evenly over each phase', default: 25, min: 1, max: 1_000_000 },
  },
  presets: {
    // Seed 000: 50 iterations of 3 orders, 50 ms polling; test 2 with 25 samples (its duration is not stated: 5 s per phase).
    seed: { test: 'continuous,sustained', pollInterval: '50ms', iterations: '50', orders: '3', duration: '5s', samples: '25' },
    ci: { test: 'continuous,sustained', pollInterval: '50ms', iterations: '10', duration: '600ms', samples: '6' },
  },
  validate(p) {
    if (p.test === 'sustained' && p.duration / p.samples < 1) {
      return `${p.samples} samples in ${p.duration}ms is more than one order per millisecond (raise --duration or lower --samples)`;
    }
    return null;
  },
  windowMs: (p) => (p.test === 'sustained' ? PHASES.length * (p.duration + sightingTimeoutMs(p)) + WINDOW_SLACK_MS : undefined),

  server: (ctx) => orderBackend(ctx),

  async client(ctx) {
    const p = ctx.params;
    if (ctx.processIndex > 0) {
      ctx.note('push-vs-poll: only client process 1 places and observes orders; the others stay idle');
      await ctx.ready();
      return;
    }
    ctx.note(ONE_CLOCK);
    const placeRequests = ctx.counter('placeRequests');
    const errors = ctx.counter('errors');
    const expected = { websocket: ctx.counter('batchesExpectedWs'), rest: ctx.counter('batchesExpectedRest') };
    const subscriber = await openSubscriber(ctx);
    const poller = createPoller(ctx, p.pollInterval);
    const post = async <T>(path: string, body: unknown): Promise<T | null> => {
      const response = await ctx.http.request('POST', path, JSON.stringify(body)).catch((error: Error) => ({ status: 0, body: error.message }));
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
      waitUntil(() => trackers.every((t) => t.has(batch) || (t === subscriber.tracker && !subscriber.alive())), sightingTimeoutMs(p), 1);

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
      ctx.counter('restWireBytesUp').add(wire.sentBytes);
      ctx.counter('restWireBytesDown').add(wire.receivedBytes);
      await subscriber.close();
    }

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
      await sleep(startMs + p.duration - performance.now(), ctx.signal);
      if (last !== null) await seenBy([tracker], last);
      if (phase === 'rest') await poller.stop();
      await post('/phase', { name: phase, state: 'end' });
    }
  },

  summarize(cell, params) {
    const c = cell.counters;
    const s = cell.serverCounters;
    const ws = cell.latency.ws;
    const rest = cell.latency.rest;
    const improvementMs = ws && rest && ws.count > 0 && rest.count > 0 ? rest.meanMs - ws.meanMs : null;
    const restUpdates = c.restUpdates ?? 0;
    const wsUpdates = c.wsUpdates ?? 0;
    const activeMs = (c.restPollActiveUs ?? 0) / 1000;
    const cpuPercent = (phase: Phase): number | null => {
      const cpu = ratio(s[phaseCpuCounter(phase)] ?? 0, s[phaseWallCounter(phase)] ?? 0);
      return cpu === null ? null : round2(cpu * 100);
    };
    const wireAvailable = (c.wsWireBytesUnavailable ?? 0) === 0;
    return {
      ...latencyMetrics('ws', ws),
      ...latencyMetrics('rest', rest),
      /** Batches (continuous) or orders (sustained) placed while each approach was watching. */
      wsExpectedSamples: c.batchesExpectedWs ?? 0,
      restExpectedSamples: c.batchesExpectedRest ?? 0,
      improvementMs: round2(improvementMs),
      improvementPercent: improvementMs === null || !rest?.meanMs ? null : round2((improvementMs / rest.meanMs) * 100),
      negativeLatencies: c.negativeLatencies ?? 0,
      restRequests: c.restRequests ?? 0,
      restEmptyPolls: c.restEmptyPolls ?? 0,
      restUpdates,
      restPollActiveMs: Math.round(activeMs),
      /** Polls the fixed-rate schedule asked for while the poller ran (one at its start, one per interval). */
      restPollsScheduled: activeMs > 0 ? Math.floor(activeMs / params.pollInterval) + 1 : 0,
      restPollsBehindSchedule: c.restPollsBehindSchedule ?? 0,
      restWireBytesUp: c.restWireBytesUp ?? 0,
      restWireBytesDown: c.restWireBytesDown ?? 0,
      restWireBytesUpPerUpdate: round2(ratio(c.restWireBytesUp ?? 0, restUpdates)),
      restWireBytesDownPerUpdate: round2(ratio(c.restWireBytesDown ?? 0, restUpdates)),
      restWireBytesPerUpdate: round2(ratio((c.restWireBytesUp ?? 0) + (c.restWireBytesDown ?? 0), restUpdates)),
      restBodyBytesDownPerUpdate: round2(ratio(c.restBodyBytesDown ?? 0, restUpdates)),
      wsUpdates,
      wsPayloadBytesDownPerUpdate: round2(ratio(c.wsPayloadBytesDown ?? 0, wsUpdates)),
      wsPayloadBytesUpPerUpdate: round2(ratio(c.wsPayloadBytesUp ?? 0, wsUpdates)),
      /** Every byte received on the WebSocket after the upgrade (null where the stack offers no tap). */
      wsWireBytesDownPerUpdate: wireAvailable ? round2(ratio(c.wsWireBytesDown ?? 0, wsUpdates)) : null,
      serverCpuPercentWebsocket: cpuPercent('websocket'),
      serverCpuPercentRest: cpuPercent('rest'),
      serverPollsServed: s.pollsServed ?? 0,
      serverUpdatesCreated: s.updatesCreated ?? 0,
      placeRequests: c.placeRequests ?? 0,
      errors: c.errors ?? 0,
      connectionsLost: c.connectionsLost ?? 0,
    };
  },
  columns: [
    { key: 'wsMeanMs', header: 'WS mean' },
    { key: 'wsP50Ms', header: 'WS p50' },
    { key: 'wsMaxMs', header: 'WS max' },
    { key: 'restMeanMs', header: 'REST mean' },
    { key: 'restP50Ms', header: 'REST p50' },
    { key: 'restMaxMs', header: 'REST max' },
    { key: 'improvementMs', header: 'gain ms' },
    { key: 'improvementPercent', header: 'gain %' },
    { key: 'restSamples', header: 'samples' },
    { key: 'restRequests', header: 'HTTP reqs' },
    { key: 'restEmptyPolls', header: 'empty' },
    { key: 'restWireBytesPerUpdate', header: 'REST wire B/upd' },
    { key: 'wsWireBytesDownPerUpdate', header: 'WS wire B/upd' },
    { key: 'serverCpuPercentWebsocket', header: 'CPU% ws' },
    { key: 'serverCpuPercentRest', header: 'CPU% rest' },
  ],
};

export default pushVsPoll;

/**
 * The server half of push-vs-poll: a small order-event backend. `POST /orders`
 * places a batch of orders; each order's update is stamped with its creation
 * time, pushed to every subscribed WebSocket and appended to a log that
 * `GET /updates?since=<cursor>` serves to pollers. `POST /phase` marks the
 * start and end of a measured phase so the server can charge its own CPU time
 * to the approach that phase exercised.
 */
import {
  messageText,
  type Counter,
  type ServerConnection,
  type ServerLogic,
  type ServerScenarioContext,
} from 'wsbench/scenario';

/** What subscribers receive and polls return, one per order. */
export interface OrderUpdate {
  /** Cursor position: 1, 2, 3, ... */
  id: number;
  order: string;
  status: 'placed';
  side: 'buy' | 'sell';
  qty: number;
  /** Batch id, batch size, and the batch's creation time (µs, server's monotonic clock). */
  b: number;
  bn: number;
  bc: number;
  /** This update's creation time (µs). */
  c: number;
}

export interface PollResponse {
  cursor: number;
  updates: OrderUpdate[];
}

export interface PlaceResponse {
  batch: number;
  cursor: number;
}

/** `{"sub":true}` subscribes a connection, `{"sub":false}` unsubscribes; the server answers `{"subscribed":...}`. */
export interface SubscribeMessage {
  sub: boolean;
}

export const PHASES = ['websocket', 'rest'] as const;
export type Phase = (typeof PHASES)[number];

/** Counter names the server keeps per phase. */
export const phaseCpuCounter = (phase: Phase) => `cpuUs_${phase}` as const;
export const phaseWallCounter = (phase: Phase) => `wallUs_${phase}` as const;

/** The recorders the backend feeds, as the scenario declares them (server side). */
export type BackendRecorders = Readonly<
  Record<
    | 'updatesCreated'
    | 'updatesPushed'
    | 'pollsServed'
    | 'emptyPollsServed'
    | ReturnType<typeof phaseCpuCounter>
    | ReturnType<typeof phaseWallCounter>,
    Counter
  >
>;

/** Server CPU time over wall time in `phase`, in percent of one core; null when the phase never ran. */
export function phaseCpuPercent(serverCounters: Readonly<Record<string, number>>, phase: Phase): number | null {
  const wallUs = serverCounters[phaseWallCounter(phase)] ?? 0;
  return wallUs > 0 ? ((serverCounters[phaseCpuCounter(phase)] ?? 0) / wallUs) * 100 : null;
}

const json = (value: unknown): { body: string } => ({ body: JSON.stringify(value) });

export function orderBackend(ctx: ServerScenarioContext & { readonly recorders: BackendRecorders }): ServerLogic {
  /** Serialized updates; update id n sits at index n - 1. */
  const log: string[] = [];
  const subscribers = new Set<ServerConnection>();
  const {
    updatesCreated: created,
    updatesPushed: pushed,
    pollsServed: polls,
    emptyPollsServed: emptyPolls,
  } = ctx.recorders;
  let nextBatch = 0;
  let phase: { name: Phase; cpu: NodeJS.CpuUsage; startUs: number } | null = null;

  const place = (count: number): PlaceResponse => {
    const batch = nextBatch++;
    const batchCreatedUs = ctx.nowUs();
    for (let i = 0; i < count; i++) {
      const update: OrderUpdate = {
        id: log.length + 1,
        order: `o-${batch}-${i}`,
        status: 'placed',
        side: Math.random() < 0.5 ? 'buy' : 'sell',
        qty: 1 + Math.floor(Math.random() * 100),
        b: batch,
        bn: count,
        bc: batchCreatedUs,
        c: ctx.nowUs(),
      };
      const text = JSON.stringify(update);
      log.push(text);
      created.add();
      for (const subscriber of subscribers) {
        subscriber.send(text);
        pushed.add();
      }
    }
    return { batch, cursor: log.length };
  };

  const endPhase = (): void => {
    if (!phase) return;
    const cpu = process.cpuUsage(phase.cpu);
    ctx.recorders[phaseCpuCounter(phase.name)].add(cpu.user + cpu.system);
    ctx.recorders[phaseWallCounter(phase.name)].add(ctx.nowUs() - phase.startUs);
    phase = null;
  };

  return {
    onConnection(connection) {
      subscribers.add(connection);
    },
    onClose(connection) {
      subscribers.delete(connection);
    },
    onMessage(connection, data) {
      const message = JSON.parse(messageText(data)) as SubscribeMessage;
      if (message.sub) subscribers.add(connection);
      else subscribers.delete(connection);
      connection.send(JSON.stringify({ subscribed: message.sub }));
    },
    onMeasureEnd: endPhase,
    routes: {
      'POST /orders'(request) {
        const count = Number((JSON.parse(request.body || '{}') as { count?: number }).count ?? 1);
        if (!Number.isInteger(count) || count < 1)
          return { status: 400, ...json({ error: 'count must be a whole number >= 1' }) };
        return json(place(count));
      },
      'GET /updates'(request) {
        const since = Math.max(0, Number(request.query.get('since') ?? 0) || 0);
        polls.add();
        if (since >= log.length) emptyPolls.add();
        // The log holds JSON text already: join it rather than parse and re-serialize.
        return { body: `{"cursor":${log.length},"updates":[${log.slice(since).join(',')}]}` };
      },
      'POST /phase'(request) {
        const { name, state } = JSON.parse(request.body || '{}') as { name?: Phase; state?: 'start' | 'end' };
        if (!name || !PHASES.includes(name))
          return { status: 400, ...json({ error: `name must be one of ${PHASES.join(', ')}` }) };
        endPhase();
        if (state === 'start') phase = { name, cpu: process.cpuUsage(), startUs: ctx.nowUs() };
        return json({ cursor: log.length });
      },
    },
  };
}

/**
 * The client half of push-vs-poll: one WebSocket subscriber and one REST poller
 * that watch the same order updates. Each records, per batch, the time from the
 * batch's creation on the server until it has seen every update of the batch.
 */
import {
  messageText,
  sleep,
  parseJson,
  type ClientConnection,
  type MessageData,
  type ClientScenarioContext,
  type Counter,
  type Recorder,
  type ProtocolGuard,
} from 'wsbench/scenario';
import type { OrderUpdate, PollResponse } from './backend.js';

/** The recorders the subscriber feeds, as the scenario declares them. */
export interface SubscriberRecorders {
  readonly ws: Recorder;
  readonly negativeLatencies: Counter;
  readonly wsUpdates: Counter;
  readonly wsPayloadBytesDown: Counter;
  readonly wsPayloadBytesUp: Counter;
  readonly wsWireBytesDown: Counter;
  readonly wsWireBytesUnavailable: Counter;
  readonly errors: Counter;
}

/** The recorders the poller feeds, as the scenario declares them. */
export interface PollerRecorders {
  readonly rest: Recorder;
  readonly negativeLatencies: Counter;
  readonly restRequests: Counter;
  readonly restEmptyPolls: Counter;
  readonly restUpdates: Counter;
  readonly restBodyBytesDown: Counter;
  readonly restPollsBehindSchedule: Counter;
  readonly restPollActiveUs: Counter;
  readonly errors: Counter;
}

/** Counts the updates of each batch one observer has seen; records the batch when complete. */
export class BatchTracker {
  private readonly seen = new Map<number, number>();
  private readonly complete = new Set<number>();

  constructor(
    private readonly latency: Recorder,
    /** Sightings that came before their creation time: the one-clock assumption broke. */
    private readonly negative: Counter,
  ) {}

  see(update: OrderUpdate, nowUs: number): void {
    const count = (this.seen.get(update.b) ?? 0) + 1;
    if (nowUs < update.c) this.negative.add();
    if (count < update.bn) {
      this.seen.set(update.b, count);
      return;
    }
    this.seen.delete(update.b);
    this.complete.add(update.b);
    this.latency.recordUs(nowUs - update.bc);
  }

  has(batch: number): boolean {
    return this.complete.has(batch);
  }
}

export interface Subscriber {
  tracker: BatchTracker;
  /** False once the connection was lost: nothing more will arrive. */
  alive(): boolean;
  /** Resolves once the server confirmed the change. */
  subscribe(on: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function openSubscriber(
  ctx: ClientScenarioContext & { readonly recorders: SubscriberRecorders },
  guard: ProtocolGuard,
): Promise<Subscriber> {
  const { recorders } = ctx;
  const tracker = new BatchTracker(recorders.ws, recorders.negativeLatencies);
  const { wsUpdates: updates, wsPayloadBytesDown: bytesDown, wsPayloadBytesUp: bytesUp, errors } = recorders;
  let confirm: () => void = () => undefined;
  let alive = true;
  const wireDown = recorders.wsWireBytesDown;
  const options = {
    onMessage(data: MessageData) {
      const nowUs = ctx.nowUs();
      const text = messageText(data);
      const message = parseJson(text) as OrderUpdate | { subscribed: boolean } | undefined;
      if (typeof message !== 'object' || message === null)
        return guard.broken('an order update or {"subscribed":...}', data);
      if ('subscribed' in message) return confirm();
      if (typeof message.b !== 'number' || typeof message.bn !== 'number' || typeof message.bc !== 'number') {
        return guard.broken('an order update {"id","b","bn","bc","c",...}', data);
      }
      updates.add();
      bytesDown.add(Buffer.byteLength(text));
      tracker.see(message, nowUs);
    },
    onUnexpectedClose() {
      alive = false;
      errors.add();
      confirm();
    },
  };
  // Stacks that can hand over raw bytes count frames and all; the others (socket.io) only payloads.
  let connection: ClientConnection;
  try {
    connection = await ctx.connect({ ...options, onWireData: (chunk) => wireDown.add(chunk.byteLength) });
  } catch (error) {
    ctx.note(`push-vs-poll: WebSocket wire bytes not counted (${(error as Error).message}); payload bytes are`);
    // Taken only here: a stack that hands over its bytes leaves this counter out of the result.
    recorders.wsWireBytesUnavailable.add();
    connection = await ctx.connect(options);
  }
  return {
    tracker,
    alive: () => alive,
    subscribe(on) {
      const text = JSON.stringify({ sub: on });
      bytesUp.add(Buffer.byteLength(text));
      if (!alive) return Promise.resolve();
      return new Promise<void>((resolve) => {
        confirm = resolve;
        connection.send(text);
      });
    },
    close: () => connection.close(),
  };
}

export interface Poller {
  tracker: BatchTracker;
  /** Polls from `cursor` every `intervalMs` (fixed rate, one request at a time) until stop(). */
  start(cursor: number): void;
  stop(): Promise<void>;
  /** Wire bytes of every poll so far, headers included. */
  wireBytes(): { sentBytes: number; receivedBytes: number };
}

export function createPoller(
  ctx: ClientScenarioContext & { readonly recorders: PollerRecorders },
  intervalMs: number,
): Poller {
  const { recorders } = ctx;
  const tracker = new BatchTracker(recorders.rest, recorders.negativeLatencies);
  const { restRequests: requests, restEmptyPolls: empty, restUpdates: delivered } = recorders;
  const {
    restBodyBytesDown: bodyBytes,
    restPollsBehindSchedule: behind,
    restPollActiveUs: activeUs,
    errors,
  } = recorders;
  // Its own connection, so its byte count holds polls only (not the order-placing POSTs).
  const http = ctx.newHttpClient();
  let stopping: AbortController | null = null;
  let loop: Promise<void> = Promise.resolve();

  const run = async (from: number, signal: AbortSignal): Promise<void> => {
    const startUs = ctx.nowUs();
    let cursor = from;
    for (let k = 1; !signal.aborted; k++) {
      try {
        const response = await http.request('GET', `/updates?since=${cursor}`);
        const nowUs = ctx.nowUs();
        requests.add();
        bodyBytes.add(Buffer.byteLength(response.body));
        const poll = JSON.parse(response.body) as PollResponse;
        if (poll.updates.length === 0) empty.add();
        for (const update of poll.updates) {
          delivered.add();
          tracker.see(update, nowUs);
        }
        cursor = poll.cursor;
      } catch (error) {
        errors.add();
        ctx.note(`poll failed: ${(error as Error).message}`);
        await sleep(intervalMs, signal);
      }
      const waitUs = startUs + k * intervalMs * 1000 - ctx.nowUs();
      if (waitUs > 0) await sleep(waitUs / 1000, signal);
      else behind.add();
    }
    activeUs.add(ctx.nowUs() - startUs);
  };

  return {
    tracker,
    start(cursor) {
      stopping = new AbortController();
      loop = run(cursor, stopping.signal);
    },
    async stop() {
      stopping?.abort();
      await loop;
    },
    wireBytes: () => http.wireBytes(),
  };
}

/**
 * The ctx a scenario's client half gets on a page: the same contract as in a
 * client process, with everything timed here. The clock is the page's
 * performance.now() moved onto the host's CLOCK_MONOTONIC by the offset the
 * client process measured, so a server's timestamp can be subtracted from it;
 * recordings and counts go to the client process in batches (record-batch.ts);
 * each connection opens here and is counted there (its deadline, the ledger).
 */
import type { ClientConnection } from '../../shared/types/adapter-types.js';
import type { ClientScenarioContext, HttpClient, ServerRestartTimes } from '../../shared/types/scenario-types.js';
import { firstOfShare, shareOf } from '../../shared/share.js';
import {
  PAGE_CONNECTION_LIMIT,
  RECORD_FLUSH_MS,
  type FromPage,
  type PageStart,
  type ToPage,
} from '../../shared/browser-bridge.js';
import { openConnection } from './connectors.js';
import { pageUs } from './page-globals.js';
import { RecordBatcher } from './record-batch.js';

/**
 * Handshakes a page runs at once. Chromium delays each new WebSocket by 1-5 s x 2^pending / 65536 and
 * opens one at a time per server address anyway: four keep that delay near a millisecond.
 */
const HANDSHAKES_AT_ONCE = 4;
const MAX_NOTES = 20;
/** The page's timer lateness is measured as a Node client process measures its own (src/child/resources.ts). */
const LATENESS_TICK_MS = 50;

interface PageLink {
  send(message: FromPage): void;
}

/** The ctx, and the handler for what the client process sends once the scenario runs. */
export function pageContext(
  start: PageStart,
  link: PageLink,
): {
  ctx: ClientScenarioContext;
  receive(message: ToPage): void;
  flush(): void;
  timerLateness(): { mean: number; max: number } | null;
} {
  const batch = new RecordBatcher();
  const window = new AbortController();
  const notes = new Set<string>();
  const verdicts = new Map<number, { resolve(): void; reject(error: Error): void }>();
  /** Connections not closed yet, by id: how to give each up. */
  const live = new Map<number, () => void>();
  const handshakes = new HandshakeQueue(HANDSHAKES_AT_ONCE);
  let held = 0;
  let nextId = 0;
  let go: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (go = resolve));
  let restart: ((times: ServerRestartTimes | null) => void) | null = null;
  let restartAsked: Promise<ServerRestartTimes | null> | null = null;
  let doneSent = false;

  const flush = (): void => {
    const records = batch.take();
    if (records) link.send(records);
  };
  const flusher = setInterval(flush, RECORD_FLUSH_MS);
  window.signal.addEventListener('abort', () => clearInterval(flusher), { once: true });
  const lateness = new TimerLateness();
  void opened.then(() => lateness.start(window.signal));

  const unavailableHttp = (): never => {
    throw new Error(
      "a browser page cannot call the server's HTTP routes (another origin, and the routes send no CORS headers)",
    );
  };
  const http: HttpClient = { request: async () => unavailableHttp(), wireBytes: unavailableHttp };

  const ctx: ClientScenarioContext = {
    params: start.params,
    processIndex: start.processIndex,
    processCount: start.processCount,
    share: (total) => shareOf(total, start.processIndex, start.processCount),
    firstOfShare: (total) => firstOfShare(total, start.processIndex, start.processCount),
    nowUs: () => pageUs() + start.offsetUs,
    histogram: (name) => batch.histogram(name),
    sizeHistogram: (name) => batch.sizeHistogram(name),
    counter: (name) => batch.counter(name),
    async connect({ timeoutMs, onMessage, onUnexpectedClose, onWireData, protocols }) {
      if (onWireData) throw new Error('the browser client cannot hand over wire data: a page sees no socket');
      if (held >= PAGE_CONNECTION_LIMIT) {
        // Refused as the browser would refuse it, and counted by the engine as one that could not open.
        const id = ++nextId;
        const verdict = new Promise<void>((resolve, reject) => verdicts.set(id, { resolve, reject }));
        link.send({ t: 'connect', id });
        link.send({
          t: 'open-failed',
          id,
          reason: `a browser page holds at most ${PAGE_CONNECTION_LIMIT} connections (Chromium's own limit is about 255 per page and per browser): lower the connections, or add client processes`,
        });
        await verdict;
        throw new Error('the engine counted a connection the page refused');
      }
      held += 1;
      let holding = true;
      const letGo = (): void => {
        if (!holding) return;
        holding = false;
        held -= 1;
      };
      await handshakes.turn();
      let turn = true;
      const endTurn = (): void => {
        if (!turn) return;
        turn = false;
        handshakes.done();
      };
      const id = ++nextId;
      let counted = false;
      let lost: string | null = null;
      link.send({ t: 'connect', id, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
      const opening = openConnection(start.connector, start.url, {
        onMessage,
        ...(protocols?.length ? { protocols } : {}),
        onClose: (reason) => {
          letGo();
          if (lost !== null) return;
          lost = reason;
          link.send({ t: 'lost', id, reason });
          if (counted) onUnexpectedClose?.(reason);
        },
      });
      const giveUp = (): void => {
        live.delete(id);
        lost ??= 'given up';
        endTurn();
        letGo();
        opening.abandon();
      };
      live.set(id, giveUp);
      // The engine's verdict: its deadline may refuse the connection before it opens.
      const verdict = new Promise<void>((resolve, reject) => verdicts.set(id, { resolve, reject }));
      const refused = verdict.then(() => new Promise<never>(() => undefined));
      let connection: ClientConnection;
      try {
        connection = await Promise.race([opening.opened, refused]);
      } catch (error) {
        giveUp();
        if (!verdicts.has(id)) throw error; // the engine refused it: its reason
        link.send({
          t: 'open-failed',
          id,
          reason: (error instanceof Error ? error.message : String(error)).split('\n')[0]!,
        });
        await verdict.catch((counted: Error) => {
          throw counted;
        });
        throw error;
      }
      endTurn();
      link.send({ t: 'opened', id, extensions: connection.extensions() });
      await verdict.catch((error: Error) => {
        giveUp();
        throw error;
      });
      counted = true;
      // Lost between its opening and the engine's count: the scenario hears it now, as it would have then.
      if (lost !== null) queueMicrotask(() => onUnexpectedClose?.(lost!));
      const close = connection.close;
      return {
        ...connection,
        close: () => {
          live.delete(id);
          if (lost === null) {
            lost = 'closed';
            letGo();
            link.send({ t: 'closed', id });
          }
          return close();
        },
      };
    },
    httpUrl: start.httpUrl,
    http,
    newHttpClient: () => http,
    async ready() {
      flush();
      link.send({ t: 'ready' });
      await opened;
    },
    signal: window.signal,
    done() {
      if (doneSent) return;
      doneSent = true;
      flush();
      link.send({ t: 'done' });
      window.abort();
    },
    note(text) {
      if (notes.size >= MAX_NOTES || notes.has(text)) return;
      notes.add(text);
      link.send({ t: 'note', text });
    },
    serverRestart() {
      restartAsked ??= new Promise<ServerRestartTimes | null>((resolve) => {
        restart = resolve;
        link.send({ t: 'restart?' });
      });
      return restartAsked;
    },
  };

  const receive = (message: ToPage): void => {
    switch (message.t) {
      case 'connected':
      case 'connect-failed': {
        const verdict = verdicts.get(message.id);
        verdicts.delete(message.id);
        if (message.t === 'connected') verdict?.resolve();
        else verdict?.reject(new Error(message.reason));
        break;
      }
      case 'close':
        live.get(message.id)?.();
        break;
      case 'go':
        go();
        break;
      case 'stop':
        window.abort();
        break;
      case 'restart':
        restart?.(message.times);
        break;
      default:
        break;
    }
  };
  return { ctx, receive, flush, timerLateness: () => lateness.stats() };
}

/** How late a 50 ms timer of the page fired while the window was open: how long work waited for the page's loop. */
class TimerLateness {
  private sumMs = 0;
  private maxMs = 0;
  private ticks = 0;

  start(signal: AbortSignal): void {
    if (signal.aborted) return;
    let lastMs = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      const lateMs = Math.max(0, now - lastMs - LATENESS_TICK_MS);
      lastMs = now;
      this.ticks += 1;
      this.sumMs += lateMs;
      this.maxMs = Math.max(this.maxMs, lateMs);
    }, LATENESS_TICK_MS);
    signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  }

  stats(): { mean: number; max: number } | null {
    return this.ticks === 0
      ? null
      : { mean: Math.round((this.sumMs / this.ticks) * 10) / 10, max: Math.round(this.maxMs * 10) / 10 };
  }
}

/** At most `limit` handshakes at a time; the others wait their turn in order. */
class HandshakeQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  turn(): Promise<void> {
    if (this.running < this.limit) {
      this.running += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  done(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

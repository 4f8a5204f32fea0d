/**
 * Request/response, the commonest pattern a protocol benchmark has: send a
 * request, match its reply (by id, by a predicate, or in the order sent), time
 * it from the send, and count what went wrong: a wrong answer, a reply to
 * nothing, a request never answered. JSON-RPC, GraphQL queries or a trading
 * API's orders each take a few lines on it. Timeouts are swept by one timer for
 * every tracker of the process, not one per request: a request is cheap.
 */
import type { MessageData } from '../types/adapter-types.js';
import type { JsonReply, RequestOptions, RequestTracker, SendOptions } from '../types/connection-types.js';
import { messageText } from './message-text.js';
import { parseJson } from './protocol-guard.js';

/** A default a request waits for its reply before it is missing. */
const DEFAULT_REQUEST_TIMEOUT_MS = 5000;
/** How often timeouts are looked for: a request is missing at most this long after its deadline. */
const SWEEP_MS = 50;
/** Ids of timed-out requests remembered, so that a late reply to one is not also counted wrong. */
const REMEMBERED_TIMEOUTS = 1000;

/** Why a send is refused: the per-connection form ends that connection's work quietly on it. */
export class RequestsEnded extends Error {}

export interface TrackerLink {
  /** Sends a message on the connection. */
  send(data: MessageData): void;
  nowUs(): number;
  /** The window: after it closes replies are not timed, and sends are refused. */
  signal: AbortSignal;
}

interface Pending<Reply> {
  /** When it was due: its reply is timed from here. */
  dueUs: number;
  /** When it actually went out: the service time is timed from here. */
  sentUs: number;
  id: unknown;
  hasId: boolean;
  match: ((reply: Reply) => boolean) | undefined;
  check: ((reply: Reply) => boolean) | undefined;
  time: SendOptions<Reply>['time'];
  resolve(reply: Reply | null): void;
}

const defaultParse = (data: MessageData): JsonReply | undefined => {
  const value = parseJson(messageText(data));
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonReply) : undefined;
};
const defaultIdOf = (reply: unknown): unknown => (reply as JsonReply).id;

/** A tracker of requests on one connection. */
export class Requests<Reply = JsonReply> implements RequestTracker<Reply> {
  /** In the order sent: the oldest first, for in-order replies and the timeout sweep. */
  private readonly pending = new Map<number, Pending<Reply>>();
  private readonly byId = new Map<unknown, number>();
  private readonly timedOut = new Set<unknown>();
  private nextSeq = 0;
  private ended: string | null = null;
  private readonly parse: (data: MessageData) => Reply | undefined;
  private readonly idOf: (reply: Reply) => unknown;
  private readonly timeoutUs: number;

  constructor(
    private readonly link: TrackerLink,
    private readonly options: RequestOptions<Reply> = {},
  ) {
    this.parse = options.parse ?? (defaultParse as unknown as (data: MessageData) => Reply | undefined);
    this.idOf = options.idOf ?? defaultIdOf;
    const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    if (!(timeoutMs >= 0))
      throw new Error(`requests: timeoutMs must be a number of ms, 0 or more (it is ${String(timeoutMs)})`);
    this.timeoutUs = timeoutMs * 1000;
  }

  send(message: MessageData, how: SendOptions<Reply> = {}): Promise<Reply | null> {
    if (this.ended !== null) return Promise.reject(new RequestsEnded(this.ended));
    if (this.link.signal.aborted) return Promise.reject(new RequestsEnded('the window closed'));
    const hasId = how.id !== undefined;
    if (hasId && this.byId.has(how.id))
      return Promise.reject(new Error(`requests: id ${String(how.id)} is already in flight on this connection`));
    return new Promise<Reply | null>((resolve) => {
      const seq = this.nextSeq++;
      const sentUs = this.link.nowUs();
      this.pending.set(seq, {
        dueUs: how.due ?? sentUs,
        sentUs,
        id: how.id,
        hasId,
        match: how.match,
        check: how.check,
        time: how.time,
        resolve,
      });
      if (hasId) this.byId.set(how.id, seq);
      if (this.timeoutUs > 0 && this.pending.size === 1) sweeper.watch(this);
      this.link.send(message);
    });
  }

  receive(data: MessageData): boolean {
    return this.sort(data) === 'answered';
  }

  /**
   * What `data` is: the reply to a request in flight (answered, and counted), a reply that answers
   * nothing in flight (`stray`: wrong, unless someone else takes it), or no reply at all (`other`).
   */
  sort(data: MessageData): 'answered' | 'stray' | 'other' {
    const nowUs = this.link.nowUs();
    const reply = this.parse(data);
    if (reply === undefined) return 'other';
    const seq = this.answered(reply);
    if (seq === undefined) {
      // A late reply to a request already counted missing is not a wrong one too.
      const id = this.idOf(reply);
      return id !== undefined && this.timedOut.delete(id) ? 'answered' : 'stray';
    }
    const request = this.take(seq)!;
    const o = this.options;
    if (request.check && !request.check(reply)) {
      o.wrong?.add();
      request.resolve(null);
      return 'answered';
    }
    // A reply in the drain is still timed: leaving out the replies the window's end caught would drop the slowest.
    (request.time ?? o.time)?.recordUs(nowUs - request.dueUs);
    o.service?.recordUs(nowUs - request.sentUs);
    if (this.link.signal.aborted) {
      o.late?.add();
      request.resolve(null);
    } else {
      o.answered?.add();
      request.resolve(reply);
    }
    return 'answered';
  }

  inFlight(): number {
    return this.pending.size;
  }

  end(why = 'the connection closed'): void {
    if (this.ended !== null) return;
    this.ended = why;
    this.options.missing?.add(this.pending.size);
    const nowUs = this.link.nowUs();
    for (const seq of [...this.pending.keys()]) {
      const request = this.take(seq)!;
      this.options.missingAge?.recordUs(nowUs - request.dueUs);
      request.resolve(null);
    }
  }

  /** A reply nothing else took: it answers nothing in flight. */
  unmatched(): void {
    this.options.wrong?.add();
  }

  /** Counts as missing what waited past its deadline; false once nothing is in flight. */
  sweep(): boolean {
    const nowUs = this.link.nowUs();
    for (const [seq, request] of this.pending) {
      if (nowUs - request.sentUs < this.timeoutUs) break;
      this.take(seq);
      if (request.hasId) {
        if (this.timedOut.size >= REMEMBERED_TIMEOUTS) this.timedOut.clear();
        this.timedOut.add(request.id);
      }
      this.options.missing?.add();
      this.options.missingAge?.recordUs(nowUs - request.dueUs);
      request.resolve(null);
    }
    return this.pending.size > 0;
  }

  /** The request `reply` answers: its id's, else the oldest whose predicate holds, else the oldest of those in order. */
  private answered(reply: Reply): number | undefined {
    if (this.byId.size > 0) {
      const seq = this.byId.get(this.idOf(reply));
      if (seq !== undefined) return seq;
    }
    let inOrder: number | undefined;
    for (const [seq, request] of this.pending) {
      if (request.hasId) continue;
      if (request.match === undefined) inOrder ??= seq;
      else if (request.match(reply)) return seq;
    }
    return inOrder;
  }

  private take(seq: number): Pending<Reply> | undefined {
    const request = this.pending.get(seq);
    if (request === undefined) return undefined;
    this.pending.delete(seq);
    if (request.hasId) this.byId.delete(request.id);
    return request;
  }
}

/** One timer for every tracker with requests in flight. */
class Sweeper {
  private readonly watched = new Set<{ sweep(): boolean }>();
  private timer: ReturnType<typeof setInterval> | null = null;

  watch(tracker: { sweep(): boolean }): void {
    this.watched.add(tracker);
    if (this.timer !== null) return;
    // Not unref'd: a request in flight holds its process until its deadline, no longer (the timer stops once none is).
    this.timer = setInterval(() => this.tick(), SWEEP_MS);
  }

  private tick(): void {
    for (const tracker of this.watched) if (!tracker.sweep()) this.watched.delete(tracker);
    if (this.watched.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}

const sweeper = new Sweeper();

/**
 * The per-connection form's contract: the connection a scenario's
 * `connection(conn, ctx)` gets, and the request/response tracker it can ask
 * that connection for (send, match the reply by id, by a predicate or in
 * order, time it, count wrong and missing replies).
 */
import type { ClientConnection, MessageData } from './adapter-types.js';
import type { Counter, Recorder } from './recorder-types.js';
import type { Stage } from './declaration-types.js';

/** A JSON reply, as the default `parse` reads one. */
export type JsonReply = Record<string, unknown>;

/** How replies are read and counted; every field has a default. */
export interface RequestOptions<Reply = JsonReply> {
  /** Reads a reply off a message; undefined: the message is no reply. Default: a JSON object of the message's text. */
  parse?(data: MessageData): Reply | undefined;
  /** The id a reply carries, for `send(message, { id })`. Default: the reply's `id` field. */
  idOf?(reply: Reply): unknown;
  /** A request with no reply after this long is missing (default 5000 ms; 0: only the end of the drain makes one missing). */
  timeoutMs?: number;
  /**
   * Times every right reply to a request sent in the window (those that come in the drain too), from its due
   * time (a send's own `time` replaces it).
   */
  time?: Recorder;
  /**
   * Times every right reply in the window from when its request actually went out (the service time). In the
   * closed loop that is the due time too; in the open model a late send makes it shorter than `time`.
   */
  service?: Recorder;
  /** Counts right replies in the window. */
  answered?: Counter;
  /** Counts replies that fail their check, and replies that answer nothing in flight. */
  wrong?: Counter;
  /** Counts requests never answered: timed out, or still waiting when the drain ended or the connection was lost. */
  missing?: Counter;
  /**
   * Records the age of each request counted missing, from its due time to when it was given up: a lower bound
   * of a latency the percentiles of `time` cannot hold, kept beside them rather than dropped.
   */
  missingAge?: Recorder;
  /** Counts replies that arrived after the window closed, in the drain (timed, not counted as answered). */
  late?: Counter;
}

/** How one request is matched and judged. Without `id` or `match`, replies answer requests in the order they were sent. */
export interface SendOptions<Reply = JsonReply> {
  /** The request's id: the reply whose `idOf` equals it answers it. */
  id?: unknown;
  /** A predicate: the first reply it holds for answers it. */
  match?(reply: Reply): boolean;
  /** Whether the reply is the right answer; a wrong one is counted and resolves null. Default: any reply is right. */
  check?(reply: Reply): boolean;
  /** Times this request's reply here instead of in the tracker's `time`. */
  time?: Recorder;
  /**
   * When the request was due, on ctx.nowUs()'s clock (the `dueUs` conn.iterate hands each step): its reply is
   * timed from then, so a send that went out late still counts its wait. Default: now, as it is sent.
   */
  due?: number;
}

/** Requests in flight on one connection, and their replies. */
export interface RequestTracker<Reply = JsonReply> {
  /**
   * Sends `message` and resolves with its reply, or null when the reply is wrong, missing or came
   * after the window. Rejects once the window closed or the connection is gone (the per-connection
   * form ends that connection's work quietly then), so `for (;;) await requests.send(...)` ends.
   */
  send(message: MessageData, options?: SendOptions<Reply>): Promise<Reply | null>;
  /** Hands a received message to the tracker; true when it answered a request in flight. */
  receive(data: MessageData): boolean;
  /** Requests sent and not answered yet. */
  inFlight(): number;
  /** Ends the tracker: what is still in flight is missing; later sends reject. */
  end(): void;
}

/** One connection of the per-connection form, open, as `connection(conn, ctx)` gets it. */
export interface ScenarioConnection {
  /** This connection's index over the whole cell, 0 .. count-1 (every client process together). */
  readonly index: number;
  /** Sends a text (string) or binary (Uint8Array) message; throws once the connection is gone. */
  send(data: MessageData): void;
  /** The handler of every message no request tracker takes; messages that came before it was set are handed to it first. */
  onMessage(handler: (data: MessageData) => void): void;
  /** Called once if the connection closes without the client asking (wsbench counted it in connectionsLost already). */
  onUnexpectedClose(handler: (reason: string) => void): void;
  /** A request/response tracker on this connection (one per connection); the engine drains it after the window. */
  requests<Reply = JsonReply>(options?: RequestOptions<Reply>): RequestTracker<Reply>;
  /**
   * Runs `step` once per message of this connection, as the cell's load plan says (ctx.load): in the closed
   * loop, each step after the one before settled (`inflight` at a time), so `step` returns the reply's
   * promise (requests.send(...)); in the open model, each step when its message is due, whatever came
   * back, so `step` passes `dueUs` on (requests.send(message, { due: dueUs })) and need not wait.
   * `at` gives a timetable of your own instead: message n is due `at(n)` ms after the window opened
   * (null: no more). Resolves when the window closed and every step settled; a step that throws (other
   * than on a connection that is gone) fails the cell.
   */
  iterate(step: IterationStep, options?: IterateOptions): Promise<void>;
  /** Bytes queued by the client, not yet written. */
  bufferedAmountBytes(): number;
  /** Closes the connection before the engine would; resolves once it is closed. */
  close(): Promise<void>;
  /** The connection as the client stack opened it (handshake phases, TLS session, extensions). */
  readonly socket: ClientConnection;
}

/**
 * One message of conn.iterate(): `n` counts this connection's steps from 0; `dueUs` is when it was due and
 * `nowUs` when it runs, both on ctx.nowUs()'s clock (the same in the closed loop).
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a step that sends and returns nothing (the open model) is a void function
export type IterationStep = (n: number, dueUs: number, nowUs: number) => Promise<unknown> | void;

export interface IterateOptions {
  /** Closed loop: steps in flight at once on the connection (default 1). */
  inflight?: number;
  /** A timetable of your own: ms after the window opened when message n is due; null when there are no more. */
  at?(n: number): number | null;
}

/** How the sends of the open model are spaced: evenly, or with exponential gaps (a Poisson process). */
export type ArrivalProcess = 'uniform' | 'poisson';

/** An offered rate over the window (src/shared/scenario-kit/arrivals/rate-curve.ts). */
export interface OfferedRate {
  /** The rate, per second, `atS` seconds after the window opened. */
  rateAt(atS: number): number;
  /** When the expected count of messages reaches `count`, in seconds after the window opened; null if never. */
  timeOf(count: number): number | null;
  /** The rate, when it is one rate above 0 throughout (no stages); null otherwise. */
  constantRate(): number | null;
}

/** How a cell offers its load, read off its parameters (the kit's OPEN_MODEL_PARAMETERS). */
export type LoadPlan =
  | {
      model: 'open';
      /** Messages per second over the cell, and how they change. */
      curve: OfferedRate;
      /** The rate the cell starts at, over all connections. */
      startPerSec: number;
      stages: Stage[];
      arrivals: ArrivalProcess;
      seed: number;
    }
  | {
      model: 'closed';
      /** How the active connections change (none: every connection, throughout). */
      stages: Stage[];
    };

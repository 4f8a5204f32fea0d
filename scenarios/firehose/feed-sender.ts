/**
 * Replays an order-book feed to one connection: the snapshots first, then the
 * updates in a loop, at a set rate or as fast as backpressure allows. Messages
 * longer than the fragment size leave as several WebSocket frames.
 */
import type { ServerConnection, Counter } from 'wsbench/scenario';
import type { FeedMessage, OrderBookFeed } from './order-book-feed.js';

/** A feed message with the frames it will take at this run's fragment size. */
export interface PreparedMessage extends FeedMessage {
  frames: number;
}

export interface PreparedFeed {
  snapshots: PreparedMessage[];
  updates: PreparedMessage[];
}

export function prepareFeed(feed: OrderBookFeed, fragmentBytes: number): PreparedFeed {
  const prepare = (m: FeedMessage): PreparedMessage => prepareText(m.text, fragmentBytes);
  return { snapshots: feed.snapshots.map(prepare), updates: feed.updates.map(prepare) };
}

/** Sends one message, in several frames when it is longer than `fragmentBytes`, and counts it. */
export function sendCounted(
  connection: ServerConnection,
  message: PreparedMessage,
  fragmentBytes: number,
  counters: SendCounters,
): void {
  // A send the stack refuses is the stack's to count (its stackDrops); it counts as sent here
  // all the same, so that a drop shows as a wire count below this one.
  if (message.frames > 1) connection.sendFragmented!(message.text, fragmentBytes);
  else connection.send(message.text);
  counters.messages.add();
  counters.frames.add(message.frames);
  counters.bytes.add(message.bytes);
}

/** A message that is not part of the feed (a reply), framed by the same rule. */
export function prepareText(text: string, fragmentBytes: number): PreparedMessage {
  const bytes = Buffer.byteLength(text);
  return { text, bytes, frames: bytes > fragmentBytes ? Math.ceil(bytes / fragmentBytes) : 1 };
}

/** What the server meant to send, so the client's wire counts can be checked against it. */
export interface SendCounters {
  messages: Counter;
  frames: Counter;
  bytes: Counter;
}

/** Stop filling the stack's queue above this; a queue this deep already keeps loopback busy. */
export const HIGH_WATER_BYTES = 1024 * 1024;
/** Messages per event-loop turn before letting I/O run, in backpressure mode. */
const BATCH = 256;
/** Timer step of the set-rate schedule. */
const RATE_STEP_MS = 5;
/** Wait when the queue is full: the reader drains a megabyte in far more than this. */
const FULL_WAIT_MS = 1;

export class FeedSender {
  private next = 0;
  private updatesSent = 0;
  private startedMs = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private running = false;

  constructor(
    private readonly connection: ServerConnection,
    private readonly feed: PreparedFeed,
    private readonly fragmentBytes: number,
    /** Updates per second; 0 = as fast as backpressure allows. */
    private readonly ratePerSec: number,
    private readonly counters: SendCounters,
  ) {}

  /** Sends every snapshot now, then streams updates until stop(). */
  start(): void {
    this.running = true;
    for (const snapshot of this.feed.snapshots) this.sendOne(snapshot);
    this.startedMs = performance.now();
    if (this.ratePerSec > 0) this.timer = setInterval(() => this.onSchedule(), RATE_STEP_MS);
    else this.pump();
  }

  stop(): void {
    this.running = false;
    clearInterval(this.timer);
    clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
  }

  private sendOne(message: PreparedMessage): void {
    sendCounted(this.connection, message, this.fragmentBytes, this.counters);
  }

  private sendUpdate(): void {
    const updates = this.feed.updates;
    this.sendOne(updates[this.next]!);
    this.next = this.next + 1 === updates.length ? 0 : this.next + 1;
    this.updatesSent += 1;
  }

  private pump(): void {
    if (!this.running) return;
    let sent = 0;
    while (sent < BATCH && this.connection.bufferedAmountBytes() < HIGH_WATER_BYTES) {
      this.sendUpdate();
      sent += 1;
    }
    if (sent === BATCH) this.immediate = setImmediate(() => this.pump());
    else this.timer = setTimeout(() => this.pump(), FULL_WAIT_MS);
  }

  /** Catches up with the schedule; a full queue postpones, the schedule keeps counting. */
  private onSchedule(): void {
    const due = Math.floor(((performance.now() - this.startedMs) / 1000) * this.ratePerSec);
    while (this.running && this.updatesSent < due && this.connection.bufferedAmountBytes() < HIGH_WATER_BYTES)
      this.sendUpdate();
  }
}

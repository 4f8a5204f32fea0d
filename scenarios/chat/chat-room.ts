/**
 * The server half of the chat scenario: one room, a moderator that holds every
 * post for a fixed delay, and per-connection outgoing queues that are either
 * unlimited (straight to the stack) or bounded (an app-level queue in front of
 * the stack's own buffer, with a policy when full).
 *
 * Everything stays in arrival order: the moderator is one FIFO with one timer,
 * and a stalled broadcast ("wait" policy) holds every later post behind it, the
 * way `for (const c of room) await c.send(m)` does. Work per post is a few
 * array operations: no parsing beyond a prefix test, no IPC.
 */
import type { Counter, Recorder, ServerConnection, ServerScenarioContext } from 'wsbench/scenario';

export interface RoomOptions {
  /** How long the moderator holds each post; 0 = no moderator. */
  moderatorDelayMs: number;
  /** concurrent: every post waits its own delay; serial: one moderator, one post at a time. */
  moderatorMode: 'concurrent' | 'serial';
  /** false = unlimited: every delivery goes straight to the stack. */
  bounded: boolean;
  /** Most messages waiting in one connection's app queue. */
  limitMessages: number;
  /** Most bytes waiting in one connection's app queue; 0 = no byte limit. */
  limitBytes: number;
  /** What a full queue does with a chat message: hold the broadcast back, or drop for that receiver. */
  policy: 'wait' | 'drop';
}

export interface RoomMetrics {
  delivered: Counter;
  droppedByQueue: Counter;
  queuedInApp: Counter;
  stalls: Counter;
  /** Deliveries the server stack refused to queue. */
  stackDrops: Counter;
  /** From arrival at the server to hand-off to the stack, per delivery. */
  hold: Recorder;
}

/**
 * A bounded connection hands messages to its stack while the stack holds less
 * than this (Node's default stream high-water mark); past it, messages wait in
 * the app queue, where the limit and the policy apply.
 */
export const STACK_HANDOFF_BYTES = 16 * 1024;
/** How often waiting queues are retried while anything waits. */
const RETRY_MS = 1;

interface Post {
  from: ServerConnection;
  data: string;
  bytes: number;
  /** End-of-stream markers are never dropped, or receivers could not account for the tail. */
  control: boolean;
  arrivedUs: number;
  targets?: ServerConnection[];
  next: number;
}

interface Outbox {
  posts: Post[];
  bytes: number;
}

export class ChatRoom {
  private readonly moderation: Post[] = [];
  private moderatorFreeUs = 0;
  private moderatorTimer: NodeJS.Timeout | undefined;
  private readonly backlog: Post[] = [];
  private readonly outboxes = new Map<ServerConnection, Outbox>();
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly options: RoomOptions,
    private readonly metrics: RoomMetrics,
    private readonly clock: Pick<ServerScenarioContext, 'nowUs'>,
    private readonly members: () => ReadonlySet<ServerConnection>,
  ) {}

  /** A message from one member, to be moderated and sent to every other member. */
  post(from: ServerConnection, data: string, control: boolean): void {
    const post: Post = { from, data, bytes: Buffer.byteLength(data), control, arrivedUs: this.clock.nowUs(), next: 0 };
    if (this.options.moderatorDelayMs <= 0) return this.distribute(post);
    this.moderation.push(post);
    if (this.moderation.length === 1) this.moderate();
  }

  leave(connection: ServerConnection): void {
    this.outboxes.delete(connection);
    this.pump();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.moderatorTimer);
    clearTimeout(this.retryTimer);
  }

  /** Releases every post whose delay is over, in arrival order; re-arms for the next. */
  private moderate(): void {
    const delayUs = this.options.moderatorDelayMs * 1000;
    while (this.moderation.length > 0) {
      const head = this.moderation[0]!;
      const startUs =
        this.options.moderatorMode === 'serial' ? Math.max(head.arrivedUs, this.moderatorFreeUs) : head.arrivedUs;
      const releaseUs = startUs + delayUs;
      const nowUs = this.clock.nowUs();
      // Timers may fire a little early against the monotonic clock: never release before the delay is over.
      if (nowUs < releaseUs) {
        this.moderatorTimer = setTimeout(() => this.moderate(), Math.max(1, Math.ceil((releaseUs - nowUs) / 1000)));
        return;
      }
      this.moderation.shift();
      this.moderatorFreeUs = releaseUs;
      this.distribute(head);
    }
  }

  private distribute(post: Post): void {
    this.backlog.push(post);
    if (this.backlog.length === 1) this.pump();
  }

  /** Offers backlog posts to their receivers in order; stops at the first full queue under "wait". */
  private pump(): void {
    while (this.backlog.length > 0) {
      const post = this.backlog[0]!;
      post.targets ??= [...this.members()].filter((member) => member !== post.from);
      while (post.next < post.targets.length) {
        const target = post.targets[post.next]!;
        if (this.members().has(target) && !this.offer(target, post)) {
          this.metrics.stalls.add();
          this.scheduleRetry();
          return;
        }
        post.next += 1;
      }
      this.backlog.shift();
    }
  }

  /** false = the receiver's queue is full and the post must wait. */
  private offer(target: ServerConnection, post: Post): boolean {
    if (!this.options.bounded) {
      this.handOff(target, post);
      return true;
    }
    const outbox = this.outboxOf(target);
    this.flush(target, outbox);
    if (outbox.posts.length === 0 && target.bufferedAmountBytes() < STACK_HANDOFF_BYTES) {
      this.handOff(target, post);
      return true;
    }
    const full =
      outbox.posts.length >= this.options.limitMessages ||
      (this.options.limitBytes > 0 && outbox.bytes + post.bytes > this.options.limitBytes);
    if (full && !post.control) {
      if (this.options.policy === 'wait') return false;
      this.metrics.droppedByQueue.add();
      return true;
    }
    outbox.posts.push(post);
    outbox.bytes += post.bytes;
    this.metrics.queuedInApp.add();
    this.scheduleRetry();
    return true;
  }

  private flush(target: ServerConnection, outbox: Outbox): void {
    while (outbox.posts.length > 0 && target.bufferedAmountBytes() < STACK_HANDOFF_BYTES) {
      const post = outbox.posts.shift()!;
      outbox.bytes -= post.bytes;
      this.handOff(target, post);
    }
  }

  private handOff(target: ServerConnection, post: Post): void {
    if (!target.send(post.data)) this.metrics.stackDrops.add();
    this.metrics.delivered.add();
    this.metrics.hold.recordUs(this.clock.nowUs() - post.arrivedUs);
  }

  private outboxOf(target: ServerConnection): Outbox {
    let outbox = this.outboxes.get(target);
    if (!outbox) {
      outbox = { posts: [], bytes: 0 };
      this.outboxes.set(target, outbox);
    }
    return outbox;
  }

  /** The stacks do not say when their buffer drains, so waiting queues are retried on a short timer. */
  private scheduleRetry(): void {
    if (this.retryTimer !== undefined || this.stopped) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      let waiting = false;
      for (const [target, outbox] of this.outboxes) {
        this.flush(target, outbox);
        if (outbox.posts.length > 0) waiting = true;
      }
      this.pump();
      if (waiting || this.backlog.length > 0) this.scheduleRetry();
    }, RETRY_MS);
  }
}

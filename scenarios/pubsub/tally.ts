/**
 * What one subscriber received, stream by stream (a stream is one publisher's
 * messages on one topic, which every broker here delivers in order): each
 * publication counts once, as in order, late (after a later one of its stream:
 * an order violation) or again (a duplicate). Sequence numbers skipped are
 * remembered until they arrive; what never does is a loss, counted at the end
 * as expected minus distinct.
 */
export type Arrival = 'in-order' | 'late' | 'duplicate';

interface Stream {
  next: number;
  skipped: Set<number> | null;
}

export class SubscriberTally {
  /** Distinct publications received. */
  distinct = 0;
  private readonly streams = new Map<number, Stream>();

  constructor(readonly expected: number) {}

  arrive(stream: number, seq: number): Arrival {
    let state = this.streams.get(stream);
    if (!state) this.streams.set(stream, (state = { next: 0, skipped: null }));
    if (seq === state.next) {
      state.next += 1;
    } else if (seq > state.next) {
      state.skipped ??= new Set();
      for (let s = state.next; s < seq; s++) state.skipped.add(s);
      state.next = seq + 1;
    } else if (state.skipped?.delete(seq)) {
      this.distinct += 1;
      return 'late';
    } else {
      return 'duplicate';
    }
    this.distinct += 1;
    return 'in-order';
  }

  get complete(): boolean {
    return this.distinct >= this.expected;
  }
}

/**
 * Fairness: for each publication, how far apart its first and last delivery to this
 * process's subscribers of its topic were (topics with one subscriber here have none). A publication's spread is recorded once every
 * one of them has it; one some never got is a loss, counted elsewhere, and has no spread.
 */
export class DeliverySpread {
  private readonly open = new Map<number, { firstUs: number; count: number }>();

  /** `subscribersOf(topic)`: how many of this process's subscribers listen to it. */
  constructor(
    private readonly subscribersOf: (topic: number) => number,
    private readonly record: (spreadUs: number) => void,
  ) {}

  arrive(n: number, topic: number, nowUs: number): void {
    const want = this.subscribersOf(topic);
    // One subscriber has no spread: a 0 would only dilute the others.
    if (want <= 1) return;
    const seen = this.open.get(n);
    if (!seen) {
      this.open.set(n, { firstUs: nowUs, count: 1 });
      return;
    }
    seen.count += 1;
    if (seen.count >= want) {
      this.record(nowUs - seen.firstUs);
      this.open.delete(n);
    }
  }
}

/**
 * The messages of one echo connection still waiting for their replies, oldest
 * first: when each was due and when it went out (the same in the closed loop).
 * Replies come back in order, so the oldest is always the one answered. It
 * grows by doubling (the open model keeps whatever the server has not answered
 * in flight), and costs no allocation per message.
 */
export class SendTimes {
  private due: Float64Array;
  private sent: Float64Array;
  private head = 0;
  private count = 0;
  /** Capacities are powers of two: an index wraps with a mask, not a division. */
  private mask: number;

  constructor(capacity: number) {
    const size = 2 ** Math.ceil(Math.log2(Math.max(1, capacity)));
    this.due = new Float64Array(size);
    this.sent = new Float64Array(size);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count;
  }

  push(dueUs: number, sentUs: number): void {
    if (this.count === this.due.length) this.grow();
    const at = (this.head + this.count) & this.mask;
    this.due[at] = dueUs;
    this.sent[at] = sentUs;
    this.count += 1;
  }

  /** The oldest message's due time; read sentOfOldest() before shift(). */
  dueOfOldest(): number {
    return this.due[this.head]!;
  }

  sentOfOldest(): number {
    return this.sent[this.head]!;
  }

  shift(): void {
    this.head = (this.head + 1) & this.mask;
    this.count -= 1;
  }

  /** Every waiting message's due time, oldest first. */
  *dueTimes(): Generator<number> {
    for (let i = 0; i < this.count; i++) yield this.due[(this.head + i) & this.mask]!;
  }

  private grow(): void {
    const size = this.due.length;
    const due = new Float64Array(size * 2);
    const sent = new Float64Array(size * 2);
    for (let i = 0; i < this.count; i++) {
      due[i] = this.due[(this.head + i) & this.mask]!;
      sent[i] = this.sent[(this.head + i) & this.mask]!;
    }
    this.due = due;
    this.sent = sent;
    this.head = 0;
    this.mask = size * 2 - 1;
  }
}

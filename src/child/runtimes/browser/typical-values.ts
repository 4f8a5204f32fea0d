/**
 * What each latency a page recorded typically was, and whether it depends on the
 * page clock's offset at all: enough to tell whether the offset's uncertainty
 * is larger than what the cell measured, without a second histogram.
 *
 * The page clock moves in steps (5 µs when cross-origin isolated), so a value
 * that is the difference of two page readings (a round trip) is a whole number
 * of steps; one that subtracts a server's timestamp (a one-way delay) carries
 * the offset and the server's reading, and lands on a step only by chance (one
 * in five). A latency whose values mostly sit between steps depends on the offset.
 */
const RESERVOIR = 2001;
/** Off the page clock's steps this often, a latency depends on the offset (by chance: 1 - 1/step). */
const OFF_STEP_SHARE = 0.25;

interface Entry {
  kept: number[];
  seen: number;
  offStep: number;
}

export class TypicalValues {
  private readonly entries = new Map<string, Entry>();

  /** `stepUs`: the page clock's step, in µs (values come rounded to whole µs). */
  constructor(private readonly stepUs: number) {}

  add(name: string, valueUs: number): void {
    let entry = this.entries.get(name);
    if (!entry) this.entries.set(name, (entry = { kept: [], seen: 0, offStep: 0 }));
    entry.seen += 1;
    if (valueUs % this.stepUs !== 0) entry.offStep += 1;
    // A uniform sample of the values for the median (reservoir sampling).
    if (entry.kept.length < RESERVOIR) entry.kept.push(valueUs);
    else {
      const slot = Math.floor(Math.random() * entry.seen);
      if (slot < RESERVOIR) entry.kept[slot] = valueUs;
    }
  }

  /**
   * The latencies that depend on the page clock's offset, with each one's median in µs. With a step
   * of 1 µs or less nothing tells them apart, and every latency is taken to depend on it.
   */
  offsetDependent(): Map<string, number> {
    const found = new Map<string, number>();
    for (const [name, entry] of this.entries) {
      if (this.stepUs > 1 && entry.offStep / entry.seen < OFF_STEP_SHARE) continue;
      found.set(name, [...entry.kept].sort((a, b) => a - b)[Math.floor(entry.kept.length / 2)]!);
    }
    return found;
  }
}

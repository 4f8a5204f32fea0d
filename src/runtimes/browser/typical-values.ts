/**
 * The median of each latency a page recorded, estimated from a uniform sample
 * of its values (reservoir sampling): enough to tell whether the page clock's
 * uncertainty is larger than what the cell measured, without a second histogram.
 */
const RESERVOIR = 2001;

export class TypicalValues {
  private readonly samples = new Map<string, { kept: number[]; seen: number }>();

  add(name: string, valueUs: number): void {
    let entry = this.samples.get(name);
    if (!entry) this.samples.set(name, (entry = { kept: [], seen: 0 }));
    entry.seen += 1;
    if (entry.kept.length < RESERVOIR) entry.kept.push(valueUs);
    else {
      const slot = Math.floor(Math.random() * entry.seen);
      if (slot < RESERVOIR) entry.kept[slot] = valueUs;
    }
  }

  /** Each recorded latency's median estimate, in µs. */
  medians(): Map<string, number> {
    return new Map([...this.samples].map(([name, { kept }]) => [name, [...kept].sort((a, b) => a - b)[Math.floor(kept.length / 2)]!]));
  }
}

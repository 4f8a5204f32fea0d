/**
 * The hot path of a latency recorder. hdr-histogram-js spends about 150 ns on
 * one recordValue (index arithmetic over 53-bit numbers, resize checks); a load
 * generator at full load records once per message, so that is a visible share of
 * the client's CPU. A tally counts samples in an array laid out bucket for bucket
 * like the histogram's (3 significant digits: every value below 2048 exact, then
 * 1024 sub-buckets per power of two) and hands the counts to the histogram when
 * it is read. Each tally bucket lies inside exactly one histogram bucket, so the
 * histogram ends up with the very counts it would have recorded itself.
 */
import type { build } from 'hdr-histogram-js';

type Histogram = ReturnType<typeof build>;

/** Values below this are counted one by one (the histogram's unit resolution). */
const EXACT_BELOW = 2048;
/** Sub-buckets per power of two above EXACT_BELOW: 2048 / 2. */
const HALF = 1024;
/** Tally buckets up to 2^31; larger values (35 minutes in µs) go to the histogram directly. */
const TALLY_LIMIT = 2 ** 31;
const BUCKETS = EXACT_BELOW + (31 - 11) * HALF;

export class BucketTally {
  private readonly counts = new Float64Array(BUCKETS);
  /** Buckets that hold counts not yet handed over, so a flush costs what was recorded, not the array's length. */
  private readonly touched: number[] = [];

  /** `histogram` must resolve 1 .. 2047 exactly and 1024 sub-buckets per octave above (3 significant digits, lowest 1). */
  constructor(private readonly histogram: Histogram) {}

  /** One sample: a whole number of at least 1 (callers round and clamp). */
  record(value: number): void {
    if (value >= TALLY_LIMIT) {
      this.histogram.recordValue(value);
      return;
    }
    let index: number;
    if (value < EXACT_BELOW) index = value;
    else {
      const octave = 31 - Math.clz32(value);
      index = EXACT_BELOW + ((octave - 11) << 10) + ((value >> (octave - 10)) - HALF);
    }
    const before = this.counts[index]!;
    this.counts[index] = before + 1;
    if (before === 0) this.touched.push(index);
  }

  /** Hands every pending count to the histogram (at its bucket's lowest value) and starts empty. */
  flush(): void {
    for (const index of this.touched) {
      this.histogram.recordValueWithCount(lowestValueOf(index), this.counts[index]!);
      this.counts[index] = 0;
    }
    this.touched.length = 0;
  }
}

/** The smallest value that lands in tally bucket `index`. */
export function lowestValueOf(index: number): number {
  if (index < EXACT_BELOW) return index;
  const above = index - EXACT_BELOW;
  const octave = (above >> 10) + 11;
  return ((above & (HALF - 1)) + HALF) * 2 ** (octave - 10);
}

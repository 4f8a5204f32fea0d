/**
 * An offered rate over the window, and the arrivals it makes. The rate is a
 * line per stage (k6's stages: from where the last stage left it to the
 * stage's target), or one constant rate without stages. Arrivals are placed by
 * the expected count: the m-th arrival is due when the integral of the rate
 * reaches m (uniform spacing), or reaches the m-th point of a unit-rate Poisson
 * process (exponential gaps: the time-rescaling that turns it into a Poisson
 * process of the changing rate). So one function serves a constant rate, a
 * ramp, a spike and a hold, uniform or Poisson, with no drift: each due time is
 * computed from the window's start, never by adding gaps.
 */
import type { Stage } from '../../types/declaration-types.js';

interface Segment {
  /** Where the segment starts, in seconds from the window's opening. */
  startS: number;
  /** Its length in seconds; Infinity for a constant rate without stages. */
  lengthS: number;
  /** The rate at its start and at its end, per second. */
  fromPerSec: number;
  toPerSec: number;
  /** Arrivals expected before it starts. */
  countBefore: number;
}

export class RateCurve {
  private readonly segments: Segment[];
  /** Arrivals expected over the whole curve (Infinity for a constant rate that never ends). */
  readonly totalCount: number;

  /** `startPerSec`: the rate when the window opens; `stages`: how it changes (none: it holds). */
  constructor(startPerSec: number, stages: readonly Stage[] = []) {
    if (!(startPerSec >= 0) || !Number.isFinite(startPerSec))
      throw new RangeError(`rate ${startPerSec} is not a finite rate of 0 or more`);
    this.segments = [];
    let startS = 0;
    let from = startPerSec;
    let count = 0;
    for (const stage of stages) {
      const lengthS = stage.durationMs / 1000;
      this.segments.push({ startS, lengthS, fromPerSec: from, toPerSec: stage.target, countBefore: count });
      count += ((from + stage.target) / 2) * lengthS;
      startS += lengthS;
      from = stage.target;
    }
    if (stages.length === 0) {
      this.segments.push({
        startS: 0,
        lengthS: Number.POSITIVE_INFINITY,
        fromPerSec: startPerSec,
        toPerSec: startPerSec,
        countBefore: 0,
      });
      count = startPerSec > 0 ? Number.POSITIVE_INFINITY : 0;
    }
    this.totalCount = count;
  }

  /** The rate, when it is one rate above 0 throughout (no stages); null otherwise. */
  constantRate(): number | null {
    const only = this.segments.length === 1 ? this.segments[0]! : null;
    return only && !Number.isFinite(only.lengthS) && only.fromPerSec > 0 ? only.fromPerSec : null;
  }

  /** The offered rate `atS` seconds into the window, per second (0 past the last stage). */
  rateAt(atS: number): number {
    const segment = this.segmentAt(atS);
    if (segment === null) return 0;
    if (!Number.isFinite(segment.lengthS)) return segment.fromPerSec;
    return segment.fromPerSec + ((segment.toPerSec - segment.fromPerSec) * (atS - segment.startS)) / segment.lengthS;
  }

  /** Arrivals expected from the window's opening to `atS` seconds into it. */
  countAt(atS: number): number {
    const segment = this.segmentAt(atS) ?? this.segments.at(-1);
    if (segment === undefined) return 0;
    const intoS = Math.min(Math.max(0, atS - segment.startS), segment.lengthS);
    return segment.countBefore + this.countInto(segment, intoS);
  }

  /** When, in seconds from the window's opening, the expected count reaches `count`; null when it never does. */
  timeOf(count: number): number | null {
    if (!(count >= 0) || count > this.totalCount) return null;
    // The last segment whose arrivals begin below the count (the earliest time it is reached, past a stage at
    // rate 0); segments are few (one per stage), so a scan does.
    const segments = this.segments;
    let segment = segments[0]!;
    for (let i = 1; i < segments.length && segments[i]!.countBefore < count; i++) segment = segments[i]!;
    const c = count - segment.countBefore;
    const r0 = segment.fromPerSec;
    if (!Number.isFinite(segment.lengthS)) return r0 > 0 ? segment.startS + c / r0 : null;
    // r0 t + a t^2 = c with a = (r1 - r0) / 2L: the root written so it stays exact when a is near 0.
    const a = (segment.toPerSec - r0) / (2 * segment.lengthS);
    const root = Math.sqrt(Math.max(0, r0 * r0 + 4 * a * c));
    const intoS = r0 + root > 0 ? (2 * c) / (r0 + root) : 0;
    return segment.startS + Math.min(intoS, segment.lengthS);
  }

  /** The first time at or after `fromS` when the curve stands at `level` or above; null when it never does again. */
  firstAtOrAbove(level: number, fromS: number): number | null {
    if (this.rateAt(fromS) >= level) return fromS;
    for (const s of this.segments) {
      const endS = s.startS + s.lengthS;
      if (endS <= fromS) continue;
      const lo = Math.max(fromS, s.startS);
      if (!Number.isFinite(s.lengthS)) return s.fromPerSec >= level ? lo : null;
      if (Math.max(s.fromPerSec, s.toPerSec) < level || s.toPerSec <= s.fromPerSec) continue;
      // Rising through `level` within this segment.
      const atS = s.startS + ((level - s.fromPerSec) / (s.toPerSec - s.fromPerSec)) * s.lengthS;
      return Math.max(lo, atS);
    }
    return null;
  }

  private segmentAt(atS: number): Segment | null {
    for (const s of this.segments) if (atS < s.startS + s.lengthS) return atS >= s.startS ? s : null;
    return null;
  }

  private countInto(segment: Segment, intoS: number): number {
    if (!Number.isFinite(segment.lengthS)) return segment.fromPerSec * intoS;
    const a = (segment.toPerSec - segment.fromPerSec) / (2 * segment.lengthS);
    return segment.fromPerSec * intoS + a * intoS * intoS;
  }
}

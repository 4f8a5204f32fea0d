/**
 * The page's clock on the host's: a probe goes out at `sentUs` (CLOCK_MONOTONIC),
 * the page reads its performance.now() at some moment before the answer is
 * back at `backUs`, so CLOCK_MONOTONIC minus the page clock lies within half
 * the round trip of the midpoint's. Of a few probes the quickest bounds it
 * most tightly (a busy moment only makes a probe slower, never wrong).
 */

export interface ClockProbe {
  sentUs: number;
  pageUs: number;
  backUs: number;
}

export interface ClockOffset {
  /** CLOCK_MONOTONIC minus the page's clock, in µs. */
  offsetUs: number;
  /** The true offset is within this of offsetUs: half the quickest round trip, plus the page clock's step. */
  uncertaintyUs: number;
}

/** The offset from the quickest of `probes`; `stepUs`: the page clock's resolution. Null without probes. */
export function offsetOf(probes: readonly ClockProbe[], stepUs: number): ClockOffset | null {
  let best: ClockProbe | null = null;
  for (const probe of probes)
    if (best === null || probe.backUs - probe.sentUs < best.backUs - best.sentUs) best = probe;
  if (best === null) return null;
  return {
    offsetUs: (best.sentUs + best.backUs) / 2 - best.pageUs,
    uncertaintyUs: (best.backUs - best.sentUs) / 2 + stepUs,
  };
}

/**
 * How well the page's readings, moved by the offset measured at the start, sit on CLOCK_MONOTONIC
 * through the window: within the start's uncertainty, and at the end within the end's plus however far
 * the two estimates moved apart (the page's clock is CLOCK_MONOTONIC too, so they agree but for noise).
 */
export function windowUncertaintyUs(
  start: ClockOffset,
  end: ClockOffset | null,
): { uncertaintyUs: number; driftUs: number | null } {
  if (end === null) return { uncertaintyUs: start.uncertaintyUs, driftUs: null };
  const driftUs = end.offsetUs - start.offsetUs;
  return { uncertaintyUs: Math.max(start.uncertaintyUs, Math.abs(driftUs) + end.uncertaintyUs), driftUs };
}

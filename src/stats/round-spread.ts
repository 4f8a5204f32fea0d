/**
 * The spread of a number measured in several rounds (--repeat): the standard
 * error of one round's value, s / sqrt(n), with n - 1 degrees of freedom.
 * Rounds are interleaved over the run's cells, so they sample the machine at
 * different moments: their spread includes what a single window cannot see (a
 * machine that switches between two speeds every few seconds).
 */
import { sampleStandardDeviation } from 'simple-statistics';
import type { Spread } from './confidence.js';

/** Fewer rounds than this give no interval: with 2, the 95 % t quantile is 12.7 and the interval says nothing. */
export const MIN_ROUNDS = 3;

/** The spread of per-round values; null with fewer than MIN_ROUNDS finite values. */
export function roundSpread(values: ReadonlyArray<number | null | undefined>): (Spread & { samples: number }) | null {
  const finite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (finite.length < MIN_ROUNDS) return null;
  return {
    standardError: sampleStandardDeviation(finite) / Math.sqrt(finite.length),
    degreesOfFreedom: finite.length - 1,
    samples: finite.length,
  };
}

/**
 * The spread of a number measured in several rounds (--repeat): the standard
 * error of one round's value, s / sqrt(n), with n - 1 degrees of freedom.
 * Rounds are interleaved over the run's cells, so they sample the machine at
 * different moments: their spread includes what a single window cannot see (a
 * machine that switches between two speeds every few seconds).
 */
import { sampleStandardDeviation } from 'simple-statistics';
import type { ScaledSpread } from './confidence.js';

/** Fewer rounds than this give no interval: with 2, the 95 % t quantile is 12.7 and the interval says nothing. */
export const MIN_ROUNDS = 3;

/**
 * The spread of per-round values; null with fewer than MIN_ROUNDS finite values. `logScale`: of their
 * logarithms when all are above 0 (a relative error: rounds 0.027 and 0.079 ms apart are 2.9x apart,
 * and the interval must not reach below 0).
 */
export function roundSpread(values: ReadonlyArray<number | null | undefined>, logScale = false): ScaledSpread | null {
  const finite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (finite.length < MIN_ROUNDS) return null;
  const onLogs = logScale && finite.every((v) => v > 0);
  const scaled = onLogs ? finite.map(Math.log) : finite;
  return {
    standardError: sampleStandardDeviation(scaled) / Math.sqrt(scaled.length),
    degreesOfFreedom: scaled.length - 1,
    samples: scaled.length,
    scale: onLogs ? 'log' : 'linear',
  };
}

/**
 * Two cells of two separate runs (two result files): each run sits where the
 * machine happened to be when it ran, and the rounds within one run cannot see
 * that. Measured on a 2-core VM, `run echo --servers ws --clients ws --repeat 5
 * --duration 1s` run back to back 11, 16, 16 and 18 times: the runs' own
 * levels spread with a standard deviation of 6 % to 14 % (p50, msg/s, server
 * CPU per message; up to 31 % in the set where a build ran beside one run),
 * while the rounds within the steadiest runs spread 1 % to 4 %, and their
 * standard error, what Welch's t on the rounds uses, said under 2 %. Welch's
 * interval then called identical builds changed in 80 of 448 pairs of runs.
 *
 * So between two files the run is the unit: each side's level is known to
 * within its rounds' standard error, plus how far a next run of the same build
 * could land from it: as far as one of its rounds (one round is a short run:
 * s, not s / sqrt(n)), and by RUN_SPREAD more, the drift between runs that
 * a run whose rounds happened to agree does not show. All enter each side's
 * variance; the degrees of freedom are Welch-Satterthwaite's, RUN_SPREAD
 * counting as known. With them the same pairs read 1 change in 448. More rounds
 * do not narrow this part: two builds measured in one run (`compare --servers
 * base,new`) pair round by round and are free of it.
 */
import { combineIndependent, type Spread } from './confidence.js';
import { unpairedLogRatio, type LogRatio, type Side } from './ratio.js';

/**
 * The run-to-run spread of one run's level at the least, relative (log scale): two runs of the same
 * build on a quiet machine differ by about 5 % (compare/cell-deltas.ts's RATE_NOISE_FRACTION), so each run's level
 * is off by 5 % / sqrt(2).
 */
export const RUN_SPREAD = 0.05 / Math.SQRT2;

/** a over b, a and b measured in two separate runs, with the run-to-run spread added (see above); null as unpairedLogRatio. */
export function separateRunsLogRatio(a: Side, b: Side): LogRatio | null {
  const welch = unpairedLogRatio(a, b);
  if (welch?.basis !== 'rounds') return welch;
  const parts = [a, b].map(runLevelSpread);
  if (parts.some((p) => p === null)) return welch;
  const spread = combineIndependent(parts.flatMap((p) => p ?? []));
  return { ...welch, ...spread, method: 'separate runs' };
}

/**
 * One side's spread: s * sqrt(1 / n + 1) from its rounds (its level's standard error, and a next run landing as
 * far as a round can: n - 1 degrees of freedom), and RUN_SPREAD, the drift between runs that rounds steadier
 * than it do not show (known: no degrees of freedom lost).
 */
function runLevelSpread(side: Side): Spread[] | null {
  const logs = (side.rounds ?? []).flatMap((v) => (typeof v === 'number' && v > 0 ? [Math.log(v)] : []));
  if (logs.length < 2) return null;
  const mean = logs.reduce((x, y) => x + y, 0) / logs.length;
  const s = Math.sqrt(logs.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (logs.length - 1));
  return [
    { standardError: s * Math.sqrt(1 / logs.length + 1), degreesOfFreedom: logs.length - 1 },
    { standardError: RUN_SPREAD, degreesOfFreedom: Number.POSITIVE_INFINITY },
  ];
}

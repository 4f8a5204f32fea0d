/**
 * The statistics of a process's /proc samples over a window (CPU % mean and
 * max, RSS mean and max, how many samples), kept as running sums: constant
 * memory however long the window. The sampler of a running cell and the
 * rebuild of a cell from a journal both compute them here.
 */
import type { SampledStat } from '../../shared/types/result-types.js';

export interface ProcStats {
  cpuPercent: SampledStat;
  /** On-CPU plus run-queue time over wall time, % of one core: the CPU it wanted. Absent without schedstat. */
  cpuDemandPercent?: SampledStat;
  rssBytes: SampledStat;
  samples: number;
}

export class ResourceTally {
  private cpuMaxPercent = Number.NEGATIVE_INFINITY;
  /** Null for good once a sample lacks demand: a part without it would understate the maximum. */
  private demandMaxPercent: number | null = Number.NEGATIVE_INFINITY;
  private rssSumBytes = 0;
  private rssMaxBytes = 0;
  private count = 0;

  add(cpuPercent: number, rssBytes: number, demandPercent?: number): void {
    this.cpuMaxPercent = Math.max(this.cpuMaxPercent, cpuPercent);
    this.demandMaxPercent =
      demandPercent === undefined || this.demandMaxPercent === null
        ? null
        : Math.max(this.demandMaxPercent, demandPercent);
    this.rssSumBytes += rssBytes;
    this.rssMaxBytes = Math.max(this.rssMaxBytes, rssBytes);
    this.count += 1;
  }

  /**
   * A reading that spans no interval to say CPU over (the window's first, or a last one right after a sample):
   * its RSS counts; the CPU statistics come from the intervals and the window's mean.
   */
  addReading(rssBytes: number): void {
    this.rssSumBytes += rssBytes;
    this.rssMaxBytes = Math.max(this.rssMaxBytes, rssBytes);
    this.count += 1;
  }

  get samples(): number {
    return this.count;
  }

  /**
   * The window's statistics; `meanCpuPercent` is all CPU time over all wall time (exact, whatever
   * the tick rounding of single samples), so it is the caller's, as is `meanDemandPercent` (absent
   * where /proc has no schedstat). Null before the first sample.
   */
  stats(meanCpuPercent: number, meanDemandPercent?: number): ProcStats | null {
    if (this.count === 0) return null;
    const demandMax = this.demandMaxPercent;
    return {
      cpuPercent: { mean: round(meanCpuPercent, 1), max: round(Math.max(this.cpuMaxPercent, meanCpuPercent), 1) },
      ...(meanDemandPercent !== undefined && demandMax !== null
        ? {
            cpuDemandPercent: {
              mean: round(meanDemandPercent, 1),
              max: round(Math.max(demandMax, meanDemandPercent), 1),
            },
          }
        : {}),
      rssBytes: { mean: Math.round(this.rssSumBytes / this.count), max: this.rssMaxBytes },
      samples: this.count,
    };
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

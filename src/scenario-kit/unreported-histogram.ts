/**
 * A histogram declared for `ctx.recorders` that reports no statistic of its own: the metrics
 * that read it are written out in `metrics`, for keys `histogram()` cannot derive (ticker-orders'
 * server histogram `tickTimerLag`, read as `serverTickTimerLagP99Ms`). The histogram's counterpart
 * of `counter({ total: false })`.
 */
import type { Side } from '../declaration-types.js';
import type { HistogramDeclaration, HistogramUnit } from '../recorder-types.js';

export interface UnreportedHistogramOptions<U extends HistogramUnit, Sd extends Side> {
  /** `ms` (default): a latency `Recorder`; `bytes`: a `SizeRecorder`. */
  unit?: U;
  /** Which half records it: `client` (default) or `server`. */
  side?: Sd;
}

export function unreportedHistogram<const U extends HistogramUnit = 'ms', const Sd extends Side = 'client'>(
  options: UnreportedHistogramOptions<U, Sd> = {},
): HistogramDeclaration<never, NoInfer<U>, NoInfer<Sd>> {
  return Object.freeze({
    recorder: 'histogram' as const,
    stats: [],
    primary: [],
    unit: options.unit ?? ('ms' as U),
    side: options.side ?? ('client' as Sd),
  });
}

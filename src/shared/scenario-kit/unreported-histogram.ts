/**
 * A histogram declared in `recorders` that derives no metric of its own: the
 * histogram's counterpart of `counter({ total: false })`. The result's JSON
 * still carries it, so a chart may draw it and `metrics` may read a statistic
 * of it under a key, header or direction that histogram() would not derive
 * (fanout's `serverTickLatenessP99Ms`, firehose's `messageBytesP50`, better
 * 'none', ticker-orders' `serverTickTimerLagP99Ms`). Its own function rather
 * than `histogram({ stats: [] })`: TypeScript infers nothing from an empty list
 * and would fall back to every statistic's key.
 */
import type { Side } from '../types/declaration-types.js';
import type { HistogramDeclaration, HistogramUnit } from '../types/recorder-types.js';

/** A recorder declaration: a histogram recorded (in the JSON, for charts) that derives no metric of its own. */
export function unreportedHistogram<const U extends HistogramUnit = 'ms', const Sd extends Side = 'client'>(
  options: { unit?: U; side?: Sd } = {},
): HistogramDeclaration<never, NoInfer<U>, NoInfer<Sd>> {
  return Object.freeze({
    recorder: 'histogram' as const,
    stats: [],
    primary: [],
    unit: options.unit ?? ('ms' as U),
    side: options.side ?? ('client' as Sd),
  });
}

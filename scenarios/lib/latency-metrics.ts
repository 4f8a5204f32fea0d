/**
 * Latency metrics shared by the built-in scenarios. Lives under scenarios/lib/ because
 * every .js directly in dist/scenarios/ is loaded as a scenario.
 */
import type { LatencySummary } from '../../src/index.js';

/**
 * Flattens one histogram summary into metrics named `<prefix>MeanMs` etc., so a
 * result row carries mean/min/std besides the percentiles. Absent = all null.
 */
export function latencyMetrics(prefix: string, summary: LatencySummary | undefined): Record<string, number | null> {
  const value = (pick: (s: LatencySummary) => number): number | null => (summary && summary.count > 0 ? pick(summary) : null);
  return {
    [`${prefix}MeanMs`]: value((s) => s.meanMs),
    [`${prefix}MinMs`]: value((s) => s.minMs),
    [`${prefix}StdevMs`]: value((s) => s.stdevMs),
    [`${prefix}P50Ms`]: value((s) => s.p50Ms),
    [`${prefix}P90Ms`]: value((s) => s.p90Ms),
    [`${prefix}P99Ms`]: value((s) => s.p99Ms),
    [`${prefix}P999Ms`]: value((s) => s.p999Ms),
    [`${prefix}MaxMs`]: value((s) => s.maxMs),
    [`${prefix}Samples`]: summary?.count ?? 0,
  };
}

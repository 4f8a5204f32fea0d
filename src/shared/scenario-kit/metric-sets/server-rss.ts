/**
 * Server memory per connection, the number people quote: the server half
 * records its own RSS once, when the first connection arrives (its code loaded,
 * nothing held yet), and the metric is the server's peak RSS in the window
 * (read from /proc by wsbench) minus that baseline, per connected client.
 *
 * It comes with its resolution: an RSS reading moves by the garbage collector's
 * swings as much as by connections, so a per-connection figure smaller than the
 * window's own swing per connection is below resolution, never a value (Bun
 * once read -3.73 KB a connection).
 */
import type { MetricsApi, MetricInput, ValueWithResolution } from '../../types/scenario-types.js';

/** Server counter holding the baseline, in bytes. */
const SERVER_RSS_BASELINE = 'serverRssBaselineBytes';

/** An onConnection hook for the server half: records the baseline on the first call, then does nothing. */
export function serverRssBaseline(metrics: MetricsApi): () => void {
  let taken = false;
  return () => {
    if (taken) return;
    taken = true;
    metrics.counter(SERVER_RSS_BASELINE).add(process.memoryUsage.rss());
  };
}

/** RSS is counted in pages: no reading moves by less. */
const PAGE_BYTES = 4096;

/**
 * (server peak RSS in the window - baseline) / connected, in bytes, with its
 * resolution: the swing of the window's own RSS samples (twice the peak over
 * the mean, at least a page) per connection. Null below `minConnections` or
 * when the server did not report its baseline or was not measured.
 */
export function serverRssPerConnection(
  { measurements: m, resources: { server } }: MetricInput,
  connected: number,
  minConnections = 1,
): ValueWithResolution | null {
  const baseline = m.serverCounters[SERVER_RSS_BASELINE];
  if (!server || baseline === undefined || connected < Math.max(1, minConnections)) return null;
  const { max, mean } = server.rssBytes;
  const swing = Math.max(2 * (max - mean), PAGE_BYTES);
  return { estimate: Math.round((max - baseline) / connected), resolution: Math.ceil(swing / connected) };
}

/** A value with its resolution in another unit: bytes to KB is `scaleWithResolution(v, 1 / 1000)`. */
export function scaleWithResolution(value: ValueWithResolution | null, by: number): ValueWithResolution | null {
  return value === null ? null : { estimate: value.estimate * by, resolution: value.resolution * by };
}

/**
 * Server memory per connection, the number people quote: the server half
 * records its own RSS once, when the first connection arrives (its code loaded,
 * nothing held yet), and the metric is the server's peak RSS in the window
 * (read from /proc by wsbench) minus that baseline, per connected client.
 */
import type { MetricsApi, MetricInput } from 'wsbench/scenario';

/** Server counter holding the baseline, in bytes. */
export const SERVER_RSS_BASELINE = 'serverRssBaselineBytes';

/** An onConnection hook for the server half: records the baseline on the first call, then does nothing. */
export function serverRssBaseline(metrics: MetricsApi): () => void {
  let taken = false;
  return () => {
    if (taken) return;
    taken = true;
    metrics.counter(SERVER_RSS_BASELINE).add(process.memoryUsage.rss());
  };
}

/**
 * (server peak RSS in the window - baseline) / connected, in bytes; null below
 * `minConnections` (the GC's swings outweigh a few connections) or when the
 * server did not report its baseline or was not measured.
 */
export function serverRssPerConnection({ measurements: m, resources: { server } }: MetricInput, connected: number, minConnections = 1): number | null {
  const baseline = m.serverCounters[SERVER_RSS_BASELINE];
  if (!server || baseline === undefined || connected < Math.max(1, minConnections)) return null;
  return Math.round((server.rssBytes.max - baseline) / connected);
}

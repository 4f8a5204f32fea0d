/**
 * A server that falls behind is a result, not a fault: when it cannot hand in
 * its report in time after the window, and the orchestrator saw it using a whole
 * core, the cell keeps every number the clients measured and says "server
 * saturated" with that evidence, instead of failing with "no report".
 */
import type { ProcStats } from './proc-sampler.js';

/** Mean CPU, % of one core, from which a server that went quiet counts as saturated (one event loop = one core). */
export const SATURATED_CPU_PERCENT = 90;

/** The saturation finding, or null when the server's silence has another explanation (then it is a fault). */
export function saturationOf(server: ProcStats | null, reason: string): string | null {
  if (!server || !/no report within/.test(reason)) return null;
  const { mean, max } = server.cpuPercent;
  if (mean < SATURATED_CPU_PERCENT) return null;
  return `server saturated: CPU ${mean.toFixed(0)}% of a core through the window (peak ${max.toFixed(0)}%), and it was still busy when asked for its report (${reason.replace(/^server: /, '')}); server-side counters are missing, the clients' numbers are complete`;
}

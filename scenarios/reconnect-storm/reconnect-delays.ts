/**
 * How long a client waits before each reconnect attempt, by policy:
 * `immediate` not at all, `fixed` the same delay every time, `backoff`
 * exponential with full jitter (AWS's "Exponential Backoff and Jitter":
 * a uniform draw from 0 to min(cap, base * 2^attempt)), which spreads a herd
 * of clients out instead of sending them back in waves.
 */
import { seededRandom } from 'wsbench/scenario';

export const RECONNECT_POLICIES = ['immediate', 'fixed', 'backoff'] as const;
export type ReconnectPolicy = (typeof RECONNECT_POLICIES)[number];

export interface ReconnectDelaySettings {
  policy: ReconnectPolicy;
  /** The `fixed` policy's wait before every attempt. */
  delayMs: number;
  /** The `backoff` policy's first ceiling, doubled on each failed attempt up to `backoffCapMs`. */
  backoffBaseMs: number;
  backoffCapMs: number;
}

/**
 * The waits of one client, attempt by attempt (0 = the first attempt after the drop). The jitter
 * is drawn from a generator seeded by the client's index, so a run repeats the same draws.
 */
export function reconnectDelays(settings: ReconnectDelaySettings, clientIndex: number): (attempt: number) => number {
  const random = seededRandom(0x5eed + clientIndex);
  switch (settings.policy) {
    case 'immediate':
      return () => 0;
    case 'fixed':
      return () => settings.delayMs;
    case 'backoff':
      // 2^30 already dwarfs any cap a window can hold; beyond it the power would only overflow.
      return (attempt) =>
        random() * Math.min(settings.backoffCapMs, settings.backoffBaseMs * 2 ** Math.min(attempt, 30));
  }
}

/**
 * Connect failures by reason, as the per-connection form counts them: a
 * `connectFailed` total with the errors role, one counter per reason
 * (connectFailedEMFILE .. connectFailedOther) as its breakdown, and one note
 * per reason with the first message seen. The counters and metrics are those
 * fanout and idle report (metric-sets/connect-failure-metrics.ts), so a table reads
 * the same whichever way the connections were opened.
 */
import type { Counter, CounterDeclaration } from '../types/recorder-types.js';
import type { ClientScenarioContext } from '../types/scenario-types.js';
import { CONNECT_FAILURES, type ConnectFailure } from './paced-connections.js';
import { counter } from './recorders.js';

/** The counter and metric of one reason: connectFailedEMFILE, ..., connectFailedOther. */
export type ConnectFailureKey = `connectFailed${Exclude<ConnectFailure, 'other'> | 'Other'}`;

export const connectFailureKey = (reason: ConnectFailure): ConnectFailureKey =>
  reason === 'other' ? 'connectFailedOther' : `connectFailed${reason}`;

/** A counter reporting its total, keyed as itself. */
type TotalCounter = CounterDeclaration<'*', never, 'client'>;

/**
 * The recorders to spread into `recorders` to report connect failures: `connectFailed` (errors)
 * and its breakdown by reason. The per-connection form counts them whether declared or not.
 */
export function connectFailureRecorders(): { connectFailed: TotalCounter } & Record<ConnectFailureKey, TotalCounter> {
  return {
    connectFailed: counter({ total: { header: 'fail', role: 'errors' } }),
    ...(Object.fromEntries(
      CONNECT_FAILURES.map((r) => [connectFailureKey(r), counter({ total: { header: `fail ${r}`, better: 'lower' } })]),
    ) as Record<ConnectFailureKey, TotalCounter>),
  };
}

/**
 * Counts one failure and its reason, and notes each reason once. With `declared`, the counters
 * are made at once (a declared metric then reads a measured 0); without, at the first failure.
 */
export function connectFailureCounter(
  ctx: Pick<ClientScenarioContext, 'counter' | 'note'>,
  declared: boolean,
): (index: number, reason: ConnectFailure, message: string) => void {
  const counters = new Map<string, Counter>();
  const counterOf = (name: string): Counter => {
    let made = counters.get(name);
    if (!made) counters.set(name, (made = ctx.counter(name)));
    return made;
  };
  if (declared) for (const name of ['connectFailed', ...CONNECT_FAILURES.map(connectFailureKey)]) counterOf(name);
  const noted = new Set<ConnectFailure>();
  return (_index, reason, message) => {
    counterOf('connectFailed').add();
    counterOf(connectFailureKey(reason)).add();
    if (noted.has(reason)) return;
    noted.add(reason);
    ctx.note(`connect failed (${reason}): ${message}`);
  };
}

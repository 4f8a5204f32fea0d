/**
 * Connect failures by reason, for the scenarios that open many connections at a
 * paced rate (fanout, idle): a `connectFailed` total carrying the errors role,
 * one counter and metric per reason as its breakdown, and one note per reason
 * with the first message seen.
 */
import type { ClientScenarioContext, Counter, MetricDefinition } from '../../scenario-types.js';
import { total } from '../metric-helpers.js';
import { CONNECT_FAILURES, type ConnectFailure } from '../paced-connections.js';

type FailureKey = `connectFailed${Exclude<ConnectFailure, 'other'> | 'Other'}`;

/** Counter and metric name of one failure reason, e.g. connectFailedEMFILE, connectFailedOther. */
const failureKey = (reason: ConnectFailure): FailureKey => (reason === 'other' ? 'connectFailedOther' : `connectFailed${reason}`);

/** The metrics: `connectFailed` and its breakdown by reason. */
export const CONNECT_FAILURE_METRICS = {
  connectFailed: total('connectFailed', 'fail', { role: 'errors' }),
  ...(Object.fromEntries(
    CONNECT_FAILURES.map((r) => [failureKey(r), total(failureKey(r), `fail ${r}`, { better: 'lower' })]),
  ) as Record<FailureKey, MetricDefinition>),
};

/** The `onFailure` of openPaced: counts the failure and its reason, and notes each reason once. */
export function connectFailureCounter(ctx: Pick<ClientScenarioContext, 'counter' | 'note'>): (index: number, reason: ConnectFailure, message: string) => void {
  const failed = ctx.counter('connectFailed');
  const byReason = Object.fromEntries(CONNECT_FAILURES.map((r) => [r, ctx.counter(failureKey(r))])) as Record<ConnectFailure, Counter>;
  const noted = new Set<ConnectFailure>();
  return (_index, reason, message) => {
    failed.add();
    byReason[reason].add();
    if (noted.has(reason)) return;
    noted.add(reason);
    ctx.note(`connect failed (${reason}): ${message}`);
  };
}

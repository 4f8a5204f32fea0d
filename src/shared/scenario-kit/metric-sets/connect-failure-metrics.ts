/**
 * Connect failures by reason, for the scenarios that open many connections at a
 * paced rate in the client(ctx) form (fanout, idle): a `connectFailed` total
 * carrying the errors role, one counter and metric per reason as its breakdown,
 * and one note per reason with the first message seen. The counting is the
 * per-connection form's (connect-failure-counts.ts), so a table reads the same
 * whichever way the connections were opened.
 */
import type { ClientScenarioContext, MetricDefinition } from '../../types/scenario-types.js';
import {
  type ConnectFailureKey,
  connectFailureCounter as countFailures,
  connectFailureKey,
} from '../connect-failure-counts.js';
import { total } from '../metric-helpers.js';
import { CONNECT_FAILURES, type ConnectFailure } from '../paced-connections.js';

/**
 * The metrics written out: `connectFailed` and its breakdown by reason (the kit declares them with
 * connectFailureRecorders()).
 */
export const CONNECT_FAILURE_METRICS = {
  connectFailed: total('connectFailed', 'fail', { role: 'errors' }),
  ...(Object.fromEntries(
    CONNECT_FAILURES.map((r) => [connectFailureKey(r), total(connectFailureKey(r), `fail ${r}`, { better: 'lower' })]),
  ) as Record<ConnectFailureKey, MetricDefinition>),
};

/** The `onFailure` of openPaced: counts the failure and its reason (every counter made at once), and notes each reason once. */
export function connectFailureCounter(
  ctx: Pick<ClientScenarioContext, 'counter' | 'note'>,
): (index: number, reason: ConnectFailure, message: string) => void {
  return countFailures(ctx, true);
}

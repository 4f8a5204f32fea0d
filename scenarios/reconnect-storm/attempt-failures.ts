/**
 * Failed reconnect attempts by reason, as the kit classes a failed handshake
 * (classifyHandshakeFailure: refused while the server is down, reset, timeout,
 * tls, httpStatus, other): one counter and metric per class beside their total,
 * and one note per class with the first message seen.
 */
import {
  classifyHandshakeFailure,
  handshakeFailureCounters,
  handshakeFailureMetrics,
  total,
  type ClientScenarioContext,
  type HandshakeFailure,
} from 'wsbench/scenario';

/** `attemptsFailed` and one metric per reason: attemptsRefused ... attemptsOther. */
export const ATTEMPT_FAILURE_METRICS = {
  attemptsFailed: total('attemptsFailed', 'failed', {
    better: 'lower',
    description:
      'reconnect attempts that did not open, whatever the reason (refused ones are expected while the server is down)',
  }),
  ...handshakeFailureMetrics(
    'attempts',
    (f) => (f === 'httpStatus' ? 'HTTP status' : f),
    (f) => `failed reconnect attempts: ${f}`,
  ),
};

/** Counts one failed attempt by its reason, and notes the first message of each reason. */
export function attemptFailureCounter(ctx: Pick<ClientScenarioContext, 'counter' | 'note'>): (message: string) => void {
  const failed = ctx.counter('attemptsFailed');
  const byReason = handshakeFailureCounters(ctx, 'attempts');
  const noted = new Set<HandshakeFailure>();
  return (message) => {
    const reason = classifyHandshakeFailure(message);
    failed.add();
    byReason[reason].add();
    if (noted.has(reason)) return;
    noted.add(reason);
    ctx.note(`reconnect attempt failed (${reason}): ${message.split('\n')[0]}`);
  };
}

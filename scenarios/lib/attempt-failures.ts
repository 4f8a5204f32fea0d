/**
 * Failed reconnect attempts by reason, as the kit classes a failed handshake
 * (classifyHandshakeFailure: refused while the server is down, reset, timeout,
 * tls, httpStatus, other): one counter and metric per class beside their total,
 * and one note per class with the first message seen.
 */
import {
  classifyHandshakeFailure,
  total,
  HANDSHAKE_FAILURES,
  type ClientScenarioContext,
  type Counter,
  type HandshakeFailure,
  type MetricDefinition,
} from 'wsbench/scenario';

type FailureKey = `attempts${Capitalize<HandshakeFailure>}`;
const failureKey = (failure: HandshakeFailure): FailureKey => `attempts${failure[0]!.toUpperCase()}${failure.slice(1)}` as FailureKey;

/** `attemptsFailed` and one metric per reason: attemptsRefused ... attemptsOther. */
export const ATTEMPT_FAILURE_METRICS = {
  attemptsFailed: total('attemptsFailed', 'failed', { better: 'lower', description: 'reconnect attempts that did not open, whatever the reason (refused ones are expected while the server is down)' }),
  ...(Object.fromEntries(
    HANDSHAKE_FAILURES.map((f) => [failureKey(f), total(failureKey(f), f === 'httpStatus' ? 'HTTP status' : f, { better: 'lower', description: `failed reconnect attempts: ${f}` })]),
  ) as Record<FailureKey, MetricDefinition>),
};

/** Counts one failed attempt by its reason, and notes the first message of each reason. */
export function attemptFailureCounter(ctx: Pick<ClientScenarioContext, 'counter' | 'note'>): (message: string) => void {
  const failed = ctx.counter('attemptsFailed');
  const byReason = Object.fromEntries(HANDSHAKE_FAILURES.map((f) => [f, ctx.counter(failureKey(f))])) as Record<HandshakeFailure, Counter>;
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

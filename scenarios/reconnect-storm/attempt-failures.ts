/**
 * Failed reconnect attempts by reason, as the kit classes a failed handshake
 * (classifyHandshakeFailure: refused while the server is down, reset, timeout,
 * tls, httpStatus, other): one counter and metric per class beside their total,
 * and one note per class with the first message seen.
 */
import {
  classifyHandshakeFailure,
  counter,
  handshakeFailureCounters,
  handshakeFailureRecorders,
  type Counter,
} from 'wsbench/scenario';

/** The recorders to spread into `recorders`: `attemptsFailed` and one per reason, attemptsRefused ... attemptsOther. */
export const ATTEMPT_FAILURE_RECORDERS = {
  attemptsFailed: counter({
    total: {
      header: 'failed',
      better: 'lower',
      description:
        'reconnect attempts that did not open, whatever the reason (refused ones are expected while the server is down)',
    },
  }),
  ...handshakeFailureRecorders('attempts', (f) => ({
    header: f === 'httpStatus' ? 'HTTP status' : f,
    better: 'lower',
    description: `failed reconnect attempts: ${f}`,
  })),
};

type AttemptFailureRecorders = Readonly<Record<keyof typeof ATTEMPT_FAILURE_RECORDERS, Counter>>;

/** Counts one failed attempt by its reason, and notes the first message of each reason. */
export function attemptFailureCounter(ctx: {
  recorders: AttemptFailureRecorders;
  note(text: string): void;
}): (message: string) => void {
  // Every one taken now: a reason that never failed reads a measured 0.
  const failed = ctx.recorders.attemptsFailed;
  const byReason = handshakeFailureCounters(ctx.recorders, 'attempts');
  const noted = new Set<string>();
  return (message) => {
    const reason = classifyHandshakeFailure(message);
    failed.add();
    byReason[reason].add();
    if (noted.has(reason)) return;
    noted.add(reason);
    ctx.note(`reconnect attempt failed (${reason}): ${message.split('\n')[0]}`);
  };
}

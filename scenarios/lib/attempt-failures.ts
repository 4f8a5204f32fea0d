/**
 * Failed reconnect attempts by reason, read off the client stack's rejection
 * text: refused (nothing listened: the server was down), reset (the server
 * dropped the connection mid-handshake), timeout (no open within the attempt's
 * deadline), tls, httpStatus (the upgrade was answered with another status
 * than 101), other. The classes and their names are those of the churn
 * scenario's handshake failures, so the two scenarios' columns read alike.
 */
import { total, type ClientScenarioContext, type Counter, type MetricDefinition } from 'wsbench/scenario';

export const ATTEMPT_FAILURES = ['refused', 'reset', 'timeout', 'tls', 'httpStatus', 'other'] as const;
export type AttemptFailure = (typeof ATTEMPT_FAILURES)[number];

/** Tried in order: a status line or a certificate problem says more than the reset that may follow it. */
const PATTERNS: ReadonlyArray<[AttemptFailure, RegExp]> = [
  ['httpStatus', /unexpected server response|status code|non-101|\b[1-5]\d\d\b.*(status|response)/i],
  ['tls', /certificate|self[- ]signed|\bTLS\b|\bSSL\b|ERR_TLS|CERT_/i],
  // Bun says "Failed to connect", Deno "tcp connect error" when nothing listens.
  ['refused', /ECONNREFUSED|connection refused|failed to connect|tcp connect error/i],
  ['timeout', /ETIMEDOUT|timed out|timeout/i],
  ['reset', /ECONNRESET|EPIPE|socket hang up|reset|closed before|other side closed|UND_ERR_SOCKET|1006|unexpected EOF|connection (closed|error)/i],
];

/** A URL in the text carries the cell's parameters (handshakeTimeout=...), which are no reason. */
const URL_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/\S*/gi;

export function classifyAttemptFailure(message: string): AttemptFailure {
  const text = message.replace(URL_TEXT, '');
  return PATTERNS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other';
}

type FailureKey = `attempts${Capitalize<AttemptFailure>}`;
const failureKey = (failure: AttemptFailure): FailureKey => `attempts${failure[0]!.toUpperCase()}${failure.slice(1)}` as FailureKey;

/** `attemptsFailed` and one metric per reason: attemptsRefused ... attemptsOther. */
export const ATTEMPT_FAILURE_METRICS = {
  attemptsFailed: total('attemptsFailed', 'failed', { better: 'lower', description: 'reconnect attempts that did not open, whatever the reason (refused ones are expected while the server is down)' }),
  ...(Object.fromEntries(
    ATTEMPT_FAILURES.map((f) => [failureKey(f), total(failureKey(f), f === 'httpStatus' ? 'HTTP status' : f, { better: 'lower', description: `failed reconnect attempts: ${f}` })]),
  ) as Record<FailureKey, MetricDefinition>),
};

/** Counts one failed attempt by its reason, and notes the first message of each reason. */
export function attemptFailureCounter(ctx: Pick<ClientScenarioContext, 'counter' | 'note'>): (message: string) => void {
  const failed = ctx.counter('attemptsFailed');
  const byReason = Object.fromEntries(ATTEMPT_FAILURES.map((f) => [f, ctx.counter(failureKey(f))])) as Record<AttemptFailure, Counter>;
  const noted = new Set<AttemptFailure>();
  return (message) => {
    const reason = classifyAttemptFailure(message);
    failed.add();
    byReason[reason].add();
    if (noted.has(reason)) return;
    noted.add(reason);
    ctx.note(`reconnect attempt failed (${reason}): ${message.split('\n')[0]}`);
  };
}

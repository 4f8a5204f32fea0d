/**
 * Failed handshakes counted by the kit's classes (refused, reset, timeout,
 * tls, httpStatus, other), one counter and metric per class under a prefix:
 * churn's `handshakeFailedRefused` .. and reconnect-storm's `attemptsRefused` ..
 */
import type { ClientScenarioContext, Counter, MetricDefinition } from '../../scenario-types.js';
import { HANDSHAKE_FAILURES, type HandshakeFailure } from '../handshake-failures.js';
import { total } from '../metric-helpers.js';

/** The counter and metric key of one class under `prefix`: handshakeFailed + Refused. */
export type HandshakeFailureKey<P extends string> = `${P}${Capitalize<HandshakeFailure>}`;

export function handshakeFailureKey<P extends string>(prefix: P, failure: HandshakeFailure): HandshakeFailureKey<P> {
  return `${prefix}${failure[0]!.toUpperCase()}${failure.slice(1)}` as HandshakeFailureKey<P>;
}

/** A `total` metric per class, headed by `header(class)`. */
export function handshakeFailureMetrics<P extends string>(
  prefix: P,
  header: (failure: HandshakeFailure) => string,
  description?: (failure: HandshakeFailure) => string,
): Record<HandshakeFailureKey<P>, MetricDefinition> {
  return Object.fromEntries(
    HANDSHAKE_FAILURES.map((f) => [
      handshakeFailureKey(prefix, f),
      total(handshakeFailureKey(prefix, f), header(f), {
        better: 'lower',
        ...(description ? { description: description(f) } : {}),
      }),
    ]),
  ) as Record<HandshakeFailureKey<P>, MetricDefinition>;
}

/** The counter of each class under `prefix`. */
export function handshakeFailureCounters(
  ctx: Pick<ClientScenarioContext, 'counter'>,
  prefix: string,
): Record<HandshakeFailure, Counter> {
  return Object.fromEntries(HANDSHAKE_FAILURES.map((f) => [f, ctx.counter(handshakeFailureKey(prefix, f))])) as Record<
    HandshakeFailure,
    Counter
  >;
}

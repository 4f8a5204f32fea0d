/**
 * Failed handshakes counted by the kit's classes (refused, reset, timeout,
 * tls, httpStatus, other), one counter and metric per class under a prefix:
 * churn's `handshakeFailedRefused` .. and reconnect-storm's `attemptsRefused` ..
 */
import {
  total,
  HANDSHAKE_FAILURES,
  type ClientScenarioContext,
  type Counter,
  type HandshakeFailure,
  type MetricDefinition,
} from 'wsbench/scenario';

/** The counter and metric key of one class under `prefix`: handshakeFailed + Refused. */
export type FailureCountKey<P extends string> = `${P}${Capitalize<HandshakeFailure>}`;

export function failureCountKey<P extends string>(prefix: P, failure: HandshakeFailure): FailureCountKey<P> {
  return `${prefix}${failure[0]!.toUpperCase()}${failure.slice(1)}` as FailureCountKey<P>;
}

/** A `total` metric per class, headed by `header(class)`. */
export function failureCountMetrics<P extends string>(
  prefix: P,
  header: (failure: HandshakeFailure) => string,
  description?: (failure: HandshakeFailure) => string,
): Record<FailureCountKey<P>, MetricDefinition> {
  return Object.fromEntries(
    HANDSHAKE_FAILURES.map((f) => [
      failureCountKey(prefix, f),
      total(failureCountKey(prefix, f), header(f), {
        better: 'lower',
        ...(description ? { description: description(f) } : {}),
      }),
    ]),
  ) as Record<FailureCountKey<P>, MetricDefinition>;
}

/** The counter of each class under `prefix`. */
export function failureCounters(
  ctx: Pick<ClientScenarioContext, 'counter'>,
  prefix: string,
): Record<HandshakeFailure, Counter> {
  return Object.fromEntries(HANDSHAKE_FAILURES.map((f) => [f, ctx.counter(failureCountKey(prefix, f))])) as Record<
    HandshakeFailure,
    Counter
  >;
}

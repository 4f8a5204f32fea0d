/**
 * Failed handshakes counted by the kit's classes (refused, reset, timeout,
 * tls, httpStatus, other), one counter and metric per class under a prefix:
 * churn's `handshakeFailedRefused` .. and reconnect-storm's `attemptsRefused` ..
 */
import type { CounterDeclaration, CounterReport } from '../../types/recorder-types.js';
import type { Counter } from '../../types/scenario-types.js';
import { HANDSHAKE_FAILURES, type HandshakeFailure } from '../handshake-failures.js';
import { counter } from '../recorders.js';

/** The counter and metric key of one class under `prefix`: handshakeFailed + Refused. */
export type HandshakeFailureKey<P extends string> = `${P}${Capitalize<HandshakeFailure>}`;

function handshakeFailureKey<P extends string>(prefix: P, failure: HandshakeFailure): HandshakeFailureKey<P> {
  return `${prefix}${failure[0]!.toUpperCase()}${failure.slice(1)}` as HandshakeFailureKey<P>;
}

/**
 * Recorder declarations of one counter per handshake failure class under `prefix`, each reporting its total
 * as `report(class)` says: spread into `recorders`, then count with `handshakeFailureCounters`.
 */
export function handshakeFailureRecorders<const P extends string>(
  prefix: P,
  report: (failure: HandshakeFailure) => CounterReport,
): Record<HandshakeFailureKey<P>, CounterDeclaration<'*', never, 'client'>> {
  return Object.fromEntries(
    HANDSHAKE_FAILURES.map((f) => [handshakeFailureKey(prefix, f), counter({ total: report(f) })]),
  ) as Record<HandshakeFailureKey<P>, CounterDeclaration<'*', never, 'client'>>;
}

/**
 * The counter of each class among the bound `recorders` of `handshakeFailureRecorders(prefix)`, by class.
 * Take them when the client half starts: a class that never happened then reads a counted 0.
 */
export function handshakeFailureCounters<const P extends string>(
  recorders: Readonly<Record<HandshakeFailureKey<P>, Counter>>,
  prefix: P,
): Record<HandshakeFailure, Counter> {
  return Object.fromEntries(HANDSHAKE_FAILURES.map((f) => [f, recorders[handshakeFailureKey(prefix, f)]])) as Record<
    HandshakeFailure,
    Counter
  >;
}

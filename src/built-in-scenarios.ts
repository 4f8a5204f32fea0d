/**
 * The parameters of each built-in scenario, by name, as types: run({ scenario: 'echo', params })
 * checks `params` against them. Generated from scenarios/*.ts by test/built-in-registry.ts, and
 * test/built-in-registry.test.ts fails when this file differs from what the scenarios declare.
 */
import type { BooleanParameter, ChoiceParameter, DurationParameter, IntegerParameter, NumberParameter, SizeParameter } from './declaration-types.js';

export interface BuiltInScenarioParameters {
  chat: {
    members: IntegerParameter;
    rate: NumberParameter;
    payload: SizeParameter;
    moderatorDelay: DurationParameter;
    moderatorMode: ChoiceParameter<'concurrent' | 'serial'>;
    queue: ChoiceParameter<'unlimited' | 'bounded'>;
    queueLimit: IntegerParameter;
    queueLimitBytes: SizeParameter;
    queuePolicy: ChoiceParameter<'wait' | 'drop'>;
  };
  churn: {
    rate: IntegerParameter;
    messages: IntegerParameter;
    payload: SizeParameter;
    handshakeTimeout: DurationParameter;
    sourceAddresses: IntegerParameter;
  };
  echo: {
    connections: IntegerParameter;
    payload: SizeParameter;
    binary: BooleanParameter;
    inflight: IntegerParameter;
    messages: IntegerParameter;
  };
  fanout: {
    connections: IntegerParameter;
    interval: DurationParameter;
    connectRate: IntegerParameter;
    connectTimeout: DurationParameter;
    sourceAddresses: IntegerParameter;
  };
  firehose: {
    rate: IntegerParameter;
    fragmentSize: SizeParameter;
  };
  idle: {
    connections: IntegerParameter;
    interval: DurationParameter;
    connectRate: IntegerParameter;
    connectTimeout: DurationParameter;
    sourceAddresses: IntegerParameter;
  };
  pubsub: {
    publishers: IntegerParameter;
    subscribers: IntegerParameter;
    topics: IntegerParameter;
    topicsPerSubscriber: IntegerParameter;
    rate: IntegerParameter;
    size: SizeParameter;
    broker: ChoiceParameter<'wsbench' | 'nats' | 'mqtt' | 'graphql-ws' | 'stomp'>;
  };
  'push-vs-poll': {
    test: ChoiceParameter<'continuous' | 'sustained'>;
    pollInterval: DurationParameter;
    iterations: IntegerParameter;
    orders: IntegerParameter;
    samples: IntegerParameter;
  };
  'reconnect-storm': {
    connections: IntegerParameter;
    policy: ChoiceParameter<'immediate' | 'fixed' | 'backoff'>;
    delay: DurationParameter;
    backoffBase: DurationParameter;
    backoffCap: DurationParameter;
    restartAt: DurationParameter;
    downtime: DurationParameter;
    attemptTimeout: DurationParameter;
    connectRate: IntegerParameter;
    connectTimeout: DurationParameter;
    sourceAddresses: IntegerParameter;
  };
  'slow-consumer': {
    connections: IntegerParameter;
    slowShare: NumberParameter;
    slowMode: ChoiceParameter<'stop' | 'rate'>;
    slowReadRate: SizeParameter;
    stopAfter: DurationParameter;
    stopFor: DurationParameter;
    interval: DurationParameter;
    messageSize: SizeParameter;
    backpressureLimit: SizeParameter;
    onLimit: ChoiceParameter<'drop' | 'close'>;
    connectRate: IntegerParameter;
    connectTimeout: DurationParameter;
    sourceAddresses: IntegerParameter;
  };
  'ticker-orders': {
    tickInterval: DurationParameter;
    connections: IntegerParameter;
    symbols: IntegerParameter;
  };
}

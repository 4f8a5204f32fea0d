/**
 * /metrics answers each scraper in the format it prefers: protobuf (with the
 * native histogram) to a Prometheus that asks for it first, the text format to
 * anything else. The Accept headers are the ones Prometheus 2.42 sends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exposition, prefersProtobuf } from '../src/parent/live/exposition.js';
import { LiveState } from '../src/parent/live/state.js';

const NATIVE_ON =
  'application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
const NATIVE_OFF =
  'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';

test('protobuf only for a scraper that prefers delimited MetricFamily messages', () => {
  assert.equal(prefersProtobuf(NATIVE_ON), true);
  assert.equal(prefersProtobuf(NATIVE_OFF), false);
  assert.equal(prefersProtobuf(undefined), false, 'curl without a header');
  assert.equal(prefersProtobuf('*/*'), false);
  assert.equal(
    prefersProtobuf('application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text'),
    false,
    'only the delimited encoding is served',
  );
  assert.equal(
    prefersProtobuf(
      'text/plain;q=0.9,application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.5',
    ),
    false,
    'the weights decide',
  );
});

test('each format says what it is', () => {
  const state = new LiveState();
  assert.match(
    exposition(state, NATIVE_ON).contentType,
    /^application\/vnd\.google\.protobuf; proto=io\.prometheus\.client\.MetricFamily; encoding=delimited$/,
  );
  const text = exposition(state, NATIVE_OFF);
  assert.equal(text.contentType, 'text/plain; version=0.0.4; charset=utf-8');
  assert.match(text.body.toString(), /^# HELP wsbench_orchestrator_cpu_seconds_total /);
});

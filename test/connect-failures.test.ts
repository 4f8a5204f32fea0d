import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MetricsRegistry } from '../src/shared/measure/metrics.js';
import { connectFailureCounter } from '../src/shared/scenario-kit/index.js';
import { CONNECT_FAILURE_METRICS } from '../src/shared/scenario-kit/metric-sets/connect-failure-metrics.js';

test('connect failures count by reason under connectFailed, with one note per reason', () => {
  const metrics = new MetricsRegistry();
  const notes: string[] = [];
  const onFailure = connectFailureCounter({
    counter: (name) => metrics.counter(name),
    note: (text) => notes.push(text),
  });
  onFailure(0, 'ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1');
  onFailure(1, 'ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1');
  onFailure(2, 'other', 'socket hang up');
  const counters = metrics.counterValues();
  assert.equal(counters.connectFailed, 3);
  assert.equal(counters.connectFailedECONNREFUSED, 2);
  assert.equal(counters.connectFailedOther, 1);
  assert.deepEqual(notes, [
    'connect failed (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:1',
    'connect failed (other): socket hang up',
  ]);
  // Every counter has its metric, and connectFailed carries the errors role.
  for (const name of Object.keys(counters)) assert.ok(name in CONNECT_FAILURE_METRICS, name);
  assert.equal(CONNECT_FAILURE_METRICS.connectFailed.role, 'errors');
});

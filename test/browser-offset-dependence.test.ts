/**
 * Which latencies a page recorded depend on its clock's offset: a round trip is
 * two page readings apart, a whole number of the clock's 5 µs steps; a one-way
 * delay subtracts a server's timestamp and falls between steps four times in
 * five. Only the latter are set beside the offset's uncertainty.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TypicalValues } from '../src/child/runtimes/browser/typical-values.js';

test('round trips on the page clock are told from one-way delays by the clock step', () => {
  const typical = new TypicalValues(5);
  for (let i = 0; i < 500; i++) {
    typical.add('rtt', 200 + 5 * (i % 40));
    typical.add('delay', 300 + ((i * 37) % 400));
  }
  const dependent = typical.offsetDependent();
  assert.deepEqual([...dependent.keys()], ['delay']);
  assert.ok(Math.abs(dependent.get('delay')! - 500) <= 2, `median ${dependent.get('delay')}`);
});

test('with a 1 µs clock nothing tells them apart: every latency counts as dependent', () => {
  const typical = new TypicalValues(1);
  typical.add('rtt', 200);
  assert.deepEqual([...typical.offsetDependent().keys()], ['rtt']);
});

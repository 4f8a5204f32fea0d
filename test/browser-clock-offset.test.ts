/**
 * The page clock's offset to CLOCK_MONOTONIC: from the quickest probe, within
 * half its round trip plus the page clock's step; over a window, the larger of
 * the start's uncertainty and the end's plus how far the estimates moved.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offsetOf, windowUncertaintyUs } from '../src/child/runtimes/browser/clock-offset.js';

test('the quickest probe fixes the offset, within half its round trip plus the clock step', () => {
  // The page clock reads 1000 µs behind CLOCK_MONOTONIC; the page answers at some moment of each round trip.
  const probes = [
    { sentUs: 5000, pageUs: 4300, backUs: 5600 },
    { sentUs: 6000, pageUs: 5060, backUs: 6100 },
    { sentUs: 7000, pageUs: 6250, backUs: 7400 },
  ];
  assert.deepEqual(offsetOf(probes, 5), { offsetUs: 990, uncertaintyUs: 55 });
  assert.equal(offsetOf([], 5), null);
});

test("over a window: the start's uncertainty, or the end's plus the drift, whichever is larger", () => {
  const start = { offsetUs: 1000, uncertaintyUs: 50 };
  assert.deepEqual(windowUncertaintyUs(start, { offsetUs: 1010, uncertaintyUs: 30 }), {
    uncertaintyUs: 50,
    driftUs: 10,
  });
  assert.deepEqual(windowUncertaintyUs(start, { offsetUs: 960, uncertaintyUs: 30 }), {
    uncertaintyUs: 70,
    driftUs: -40,
  });
  assert.deepEqual(windowUncertaintyUs(start, null), { uncertaintyUs: 50, driftUs: null });
});

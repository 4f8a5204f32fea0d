import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silenceOf } from '../src/parent/measure/saturation.js';
import type { ProcStats } from '../src/parent/measure/proc-sampler.js';
import type { TimeSeries } from '../src/shared/types/result-types.js';

const busy = { cpuPercent: { mean: 98, max: 100 } } as ProcStats;
const idle = { cpuPercent: { mean: 40, max: 70 } } as ProcStats;
const NO_REPORT = 'server: no report within 30000 ms';

/** A 5 s window of 1 s points whose `received` total follows `totals`. */
const series = (totals: number[]): TimeSeries => ({
  intervalMs: 1000,
  points: totals.map((received, i) => ({ tMs: (i + 1) * 1000, counters: { received }, latency: {} })),
});

test('a busy server whose clients still heard from it to the end is saturated: a result', () => {
  const silence = silenceOf(busy, NO_REPORT, series([100, 180, 260, 300, 320]));
  assert.ok(silence && 'saturated' in silence, JSON.stringify(silence));
  assert.match(silence.saturated, /^server saturated: CPU 98% of a core \(peak 100%\) through the window/);
});

test('a busy server whose clients heard nothing for the end of the window is hung: a fault', () => {
  const silence = silenceOf(busy, NO_REPORT, series([100, 180, 180, 180, 180]));
  assert.ok(silence && 'hung' in silence, JSON.stringify(silence));
  assert.match(silence.hung, /no client counter moved in the last 3\.0 s of the window \(no report within 30000 ms\)$/);
  const never = silenceOf(busy, NO_REPORT, series([0, 0, 0, 0, 0]));
  assert.ok(never && 'hung' in never && never.hung.includes('last 5.0 s'), JSON.stringify(never));
});

test('a silent server that was not busy, or a fault other than a missing report, is neither', () => {
  assert.equal(silenceOf(idle, NO_REPORT, series([100, 200, 300])), null);
  assert.equal(silenceOf(busy, 'server exited with code 1', series([100, 200, 300])), null);
  assert.equal(silenceOf(null, NO_REPORT, series([100, 200, 300])), null);
});

test('a tally the clients add after the window (unanswered at the end) is not a sign of life', () => {
  const stalled = series([100, 180, 180, 180, 180]);
  stalled.points.at(-1)!.counters.unansweredAtEnd = 50;
  const silence = silenceOf(busy, NO_REPORT, stalled);
  assert.ok(silence && 'hung' in silence, JSON.stringify(silence));
});

/** Progress listens to run events: what it prints in a terminal and in a CI log, from a fake clock. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createProgress, progressLine, type ProgressMode } from '../src/parent/live/progress.js';
import type { RunEvent } from '../src/parent/engine/events.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import echo from '../scenarios/echo.js';

function capture(mode: ProgressMode, events: Array<[number, RunEvent]>): string {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  let now = 0;
  const progress = createProgress(stream, mode, () => now);
  for (const [at, event] of events) {
    now = at;
    progress.onEvent(event);
  }
  progress.done();
  return text;
}

const identity = {
  index: 0,
  total: 2,
  round: 0,
  scenario: 'echo',
  server: 'uws',
  client: 'ws',
  params: { duration: 3000 },
};
const events: Array<[number, RunEvent]> = [
  [0, { type: 'run-start', scenario: scenarioInfo(echo), cells: 2, repeat: 1 }],
  [0, { type: 'cell-start', ...identity, windowMs: 3000 }],
  [400, { type: 'window-open', index: 0 }],
  [1400, { type: 'tick', index: 0, counters: { received: 20_000 } }],
  [2400, { type: 'tick', index: 0, counters: { received: 50_000 } }],
  [3600, { type: 'cell-end', ...identity, status: 'ok', reason: null }],
];

test('in a CI log: one plain line per cell start and end, no escape codes', () => {
  const text = capture('lines', events);
  assert.equal(text, '[1/2] echo uws x ws duration=3s: started\n[1/2] echo uws x ws duration=3s: ok in 3.6s\n');
});

test('in a terminal: time in the window and time left add up, and the declared live rate shows', () => {
  const text = capture('tty', events);
  const frames = text.split('\r\x1b[K').filter((f) => f !== '');
  assert.ok(frames.includes('[1/2] echo uws x ws duration=3s  1s  2s left  20,000 msg/s'), frames.join(' | '));
  assert.ok(frames.includes('[1/2] echo uws x ws duration=3s  2s  1s left  30,000 msg/s'), frames.join(' | '));
});

test('off prints nothing', () => {
  assert.equal(capture('off', events), '');
});

test('the countdown never says more time is left than the window holds', () => {
  const state = { label: 'x', windowMs: 3000, cellStartedAt: 0, windowOpenedAt: 0, rates: [] };
  assert.equal(progressLine(state, 999), 'x  0s  3s left');
  assert.equal(progressLine(state, 1000), 'x  1s  2s left');
  assert.equal(progressLine(state, 2999), 'x  2s  1s left');
  assert.equal(progressLine(state, 3000), 'x  3s  wrapping up');
  assert.equal(progressLine({ ...state, windowOpenedAt: null }, 1500), 'x  connecting 1s');
});

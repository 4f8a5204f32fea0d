/** Windows go up to 7 days (docs/running.md), so a day is a unit a duration may be written in; 8 days is refused by the limit. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDurationMs } from '../src/shared/parsing/units.js';
import { runCli } from './support.js';

test('7d is a duration of 7 days', () => {
  assert.equal(parseDurationMs('7d'), 7 * 24 * 3_600_000);
  assert.equal(parseDurationMs('1.5d'), 36 * 3_600_000);
});

test('--duration 8d is refused by the 7-day limit, not as an unknown unit', async () => {
  const outcome = await runCli(['run', 'echo', '--duration', '8d']);
  assert.equal(outcome.code, 2, outcome.stderr);
  assert.doesNotMatch(outcome.stderr, /is not a duration/);
  assert.match(outcome.stderr.trim(), /^wsbench: --duration: "8d" is above the maximum/);
});

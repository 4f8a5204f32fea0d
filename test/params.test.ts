import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDurationMs, parseSizeBytes, resolveParameterSets } from '../src/core/params.js';
import { loadScenario } from '../src/core/scenario-loader.js';

test('durations read with units; a bare number is seconds', () => {
  assert.equal(parseDurationMs('500ms'), 500);
  assert.equal(parseDurationMs('5s'), 5000);
  assert.equal(parseDurationMs('1.5m'), 90_000);
  assert.equal(parseDurationMs('2'), 2000);
  assert.equal(parseDurationMs('5 parsecs'), null);
  assert.equal(parseDurationMs('-1s'), null);
});

test('sizes read with decimal and binary units; a bare number is bytes', () => {
  assert.equal(parseSizeBytes('32'), 32);
  assert.equal(parseSizeBytes('4kb'), 4000);
  assert.equal(parseSizeBytes('64KiB'), 65_536);
  assert.equal(parseSizeBytes('1.5b'), null);
  assert.equal(parseSizeBytes('lots'), null);
});

test('comma lists on sweepable parameters multiply the parameter sets', async () => {
  const { scenario } = await loadScenario('echo');
  const sets = resolveParameterSets(scenario, { connections: '1,4', payload: '32,1kb' });
  assert.equal(sets.length, 4);
  assert.deepEqual(sets.map((s) => [s.connections, s.payload]), [[1, 32], [1, 1000], [4, 32], [4, 1000]]);
  assert.equal(sets[0]!.duration, 5000);
});

test('explicit values override the preset, which overrides the defaults', async () => {
  const { scenario } = await loadScenario('echo');
  assert.equal(resolveParameterSets(scenario, {}, 'ci')[0]!.duration, 1000);
  assert.equal(resolveParameterSets(scenario, { duration: '2s' }, 'ci')[0]!.duration, 2000);
});

test('bad parameter values are refused with a line naming the flag', async () => {
  const { scenario } = await loadScenario('echo');
  assert.throws(() => resolveParameterSets(scenario, { duration: '1,2' }), { message: '--duration: takes one value, not a list ("1,2")' });
  assert.throws(() => resolveParameterSets(scenario, { inflight: '1.5' }), { message: '--inflight: "1.5" is not a whole number' });
  assert.throws(() => resolveParameterSets(scenario, { binary: 'maybe' }), { message: '--binary: "maybe" is not true or false' });
  assert.throws(() => resolveParameterSets(scenario, {}, 'nope'), { message: '--preset: "nope" is not a preset of echo (ci, quick)' });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDurationMs, parseSizeBytes } from '../src/shared/parsing/units.js';
import { resolveParameterSets } from '../src/parent/engine/params.js';
import { loadScenario } from '../src/child/scenario-loader.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import { inputFromText } from '../src/parent/commands/parameter-flags.js';
import { ParameterError } from '../src/shared/types/errors.js';
import echo from '../scenarios/echo.js';

test('durations need a unit; sizes read with decimal and binary units, a bare number is bytes', () => {
  assert.equal(parseDurationMs('500ms'), 500);
  assert.equal(parseDurationMs('5s'), 5000);
  assert.equal(parseDurationMs('1.5m'), 90_000);
  assert.equal(parseDurationMs('2'), null);
  assert.equal(parseDurationMs('5 parsecs'), null);
  assert.equal(parseDurationMs('-1s'), null);
  assert.equal(parseSizeBytes('32'), 32);
  assert.equal(parseSizeBytes('4kb'), 4000);
  assert.equal(parseSizeBytes('64KiB'), 65_536);
  assert.equal(parseSizeBytes('1.5b'), null);
  assert.equal(parseSizeBytes('lots'), null);
});

test('code passes typed values: numbers in ms and bytes, text with a unit, arrays to sweep', () => {
  const sets = resolveParameterSets(echo, { connections: [1, 4], payload: [32, '1kb'], duration: '2s' });
  assert.deepEqual(
    sets.map((s) => [s.connections, s.payload, s.duration]),
    [
      [1, 32, 2000],
      [1, 1000, 2000],
      [4, 32, 2000],
      [4, 1000, 2000],
    ],
  );
  assert.equal(resolveParameterSets(echo, { duration: 1500 })[0]!.duration, 1500);
  assert.equal(resolveParameterSets(echo, {})[0]!.duration, 5000);
});

test('explicit values override the preset, which overrides the defaults', () => {
  assert.equal(resolveParameterSets(echo, {}, 'ci')[0]!.duration, 1000);
  assert.equal(resolveParameterSets(echo, { duration: '2s' }, 'ci')[0]!.duration, 2000);
});

test('library errors name the parameter, not a flag', () => {
  const refuse = (inputs: Record<string, unknown>, message: string, preset?: string): void => {
    assert.throws(
      () => resolveParameterSets(echo, inputs, preset),
      (error: unknown) => error instanceof ParameterError && error.message === message,
    );
  };
  refuse({ duration: ['1s', '2s'] }, 'duration: takes one value, not a list ("1s", "2s")');
  refuse({ inflight: 1.5 }, 'inflight: 1.5 is not a whole number');
  refuse({ binary: 'maybe' }, 'binary: "maybe" is not true or false');
  refuse({ duration: '10ms' }, 'duration: "10ms" is below the minimum 100ms');
  refuse({ payload: [] }, 'payload: an empty list sweeps nothing');
  refuse({ duration: '1000h' }, 'duration: "1000h" is above the maximum 168h');
  refuse(
    { bogus: 1 },
    'bogus: not a parameter of echo (its parameters: connections, payload, binary, inflight, messages, rate, ratePerConnection, arrivals, seed, stages, duration, deflate, tls, serverProcesses)',
  );
  refuse({ stages: '30s:1000,1m' }, 'stages: stage 2 "1m" is not DURATION:TARGET (such as 30s:1000)');
  refuse({ stages: '10ms:5' }, 'stages: stage 1: "10ms" is shorter than 100ms');
  refuse({ stages: '1s:-5' }, 'stages: stage 1: target "-5" is not a number of 0 or more');
  refuse({ stages: [{ duration: '1s' }] }, 'stages: stage 1 needs both duration and target');
  refuse(
    { rate: 100, inflight: 4 },
    "inflight: counts the closed loop's messages in flight; at a rate, the schedule sets them",
  );
  refuse({ rate: 100, ratePerConnection: 5 }, 'ratePerConnection: give rate or ratePerConnection, not both');
  refuse({ arrivals: 'poisson' }, 'arrivals: poisson spaces the sends of the open model: give a rate too');
  refuse({}, 'preset: "nope" is not a preset of echo (ci, quick)', 'nope');
});

test('the command line reads text into typed values: a bare duration is refused with a hint, a bare size is bytes', () => {
  const info = scenarioInfo(echo).parameters;
  assert.equal(inputFromText('duration', info.duration!, '5s'), '5s');
  assert.throws(() => inputFromText('duration', info.duration!, '5000'), {
    message: 'duration: "5000" has no unit: write 5000s or 5000ms',
  });
  assert.equal(inputFromText('payload', info.payload!, '32'), 32);
  assert.deepEqual(inputFromText('payload', info.payload!, '32,4kb'), [32, '4kb']);
  assert.equal(inputFromText('binary', info.binary!, true), true);
  assert.equal(inputFromText('connections', info.connections!, '10'), 10);
});

test('the JSON declares every parameter with its default in ms and bytes', async () => {
  const { scenario } = await loadScenario('echo');
  const info = scenarioInfo(scenario);
  assert.deepEqual(info.parameters.duration, {
    kind: 'duration',
    description: echo.duration!.description!,
    default: 5000,
    min: 100,
  });
  assert.equal(info.parameters.payload!.max, 64 * 1024 * 1024);
});

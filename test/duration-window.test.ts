/**
 * The window is the engine's: every scenario has the common `duration`
 * parameter, and its window lasts that long unless the scenario's windowMs
 * says otherwise. A scenario words or bounds duration with `duration: {...}`,
 * checked when it is defined.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineScenario, total } from 'wsbench/scenario';
import { resolveParameterSets } from '../src/parent/engine/params.js';
import { scenarioInfo } from '../src/parent/engine/scenario-info.js';
import { cellWindow } from '../src/parent/engine/window.js';

/** A scenario with one parameter of its own and nothing about its window. */
const plain = {
  name: 'plain',
  description: 'a scenario that says nothing about its window',
  parameters: { connections: { kind: 'integer', description: 'connections', default: 1, min: 1 } } as const,
  server: () => ({}),
  async client() {},
  metrics: { errors: total('errors', 'errors', { role: 'errors' }) },
  table: ['errors'] as const,
};

test('a scenario that declares no duration gets the common one, and its window lasts that long', () => {
  const scenario = defineScenario(plain);
  assert.deepEqual(scenarioInfo(scenario).parameters.duration, {
    kind: 'duration',
    description: 'measurement window',
    default: 10_000,
    min: 100,
  });
  assert.deepEqual(Object.keys(scenarioInfo(scenario).parameters), [
    'connections',
    'duration',
    'deflate',
    'tls',
    'serverProcesses',
  ]);
  const [params] = resolveParameterSets(scenario, { duration: '2s' });
  assert.deepEqual(cellWindow(scenario, params!), { fixedMs: 2000, expectedMs: 2000, limitMs: 2000 });
});

test('duration: { ... } words and bounds the common parameter; the window follows it', () => {
  const scenario = defineScenario({
    ...plain,
    duration: { description: 'how long to stream', default: '5s', min: '1ms', max: '24h' },
  });
  assert.deepEqual(scenarioInfo(scenario).parameters.duration, {
    kind: 'duration',
    description: 'how long to stream',
    default: 5000,
    min: 1,
    max: 86_400_000,
  });
  const [params] = resolveParameterSets(scenario, { duration: '50ms' });
  assert.equal(cellWindow(scenario, params!).fixedMs, 50);
});

test('a scenario that ends by itself has no fixed window, only a ceiling beyond its duration', () => {
  const scenario = defineScenario({ ...plain, windowMs: () => undefined });
  const [params] = resolveParameterSets(scenario, { duration: '1s' });
  assert.deepEqual(cellWindow(scenario, params!), {
    fixedMs: undefined,
    expectedMs: 1000,
    limitMs: 30 * 60_000 + 1000,
  });
});

test('a scenario that still declares its own duration parameter keeps it, in its place', () => {
  const scenario = defineScenario({
    ...plain,
    parameters: {
      ...plain.parameters,
      duration: { kind: 'duration', description: 'measurement window', default: '2s', min: '100ms' },
    },
  });
  assert.deepEqual(Object.keys(scenarioInfo(scenario).parameters), [
    'connections',
    'duration',
    'deflate',
    'tls',
    'serverProcesses',
  ]);
  assert.equal(scenarioInfo(scenario).parameters.duration!.default, 2000);
});

test('bad duration wording or a redeclared common parameter is refused when the scenario is defined', () => {
  assert.throws(() => defineScenario({ ...plain, duration: { default: '10ms' } }), {
    message: 'scenario plain: parameter duration: "10ms" is below the minimum 100ms',
  });
  assert.throws(
    () =>
      defineScenario({
        ...plain,
        parameters: { ...plain.parameters, duration: { kind: 'duration', description: 'window', default: '1s' } },
        duration: { default: '2s' },
      }),
    {
      message:
        'scenario plain: declares a duration parameter and also words the common one (duration: { ... }): keep one of them',
    },
  );
  assert.throws(
    () =>
      defineScenario({
        ...plain,
        parameters: { ...plain.parameters, deflate: { kind: 'boolean', description: 'mine', default: false } },
      }),
    { message: 'scenario plain declares a parameter "deflate", which wsbench adds to every scenario: rename it' },
  );
});

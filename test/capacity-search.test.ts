/** The capacity search against fake steps whose capacity is known: ramp, bisect, saturation, refusals. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  nonMonotonic,
  searchCapacity,
  tolerance,
  type SearchSettings,
  type StepJudgement,
} from '../src/parent/capacity/search.js';

const settings: SearchSettings = {
  start: 100,
  max: 50_000,
  min: 1,
  resolution: 0.1,
  clientProcesses: 1,
  maxClientProcesses: 2,
};

/** A server that holds `capacity`; a load generator that saturates above `perProcess` connections a process. */
function fakeServer(capacity: number, perProcess = Number.POSITIVE_INFINITY, refusedAbove = Number.POSITIVE_INFINITY) {
  const calls: Array<[number, number]> = [];
  const step = async (count: number, processes: number): Promise<StepJudgement> => {
    calls.push([count, processes]);
    if (count > refusedAbove) return { verdict: 'refused', clientSaturated: false };
    return { verdict: count <= capacity ? 'within' : 'broken', clientSaturated: count / processes > perProcess };
  };
  return { step, calls };
}

test('ramp x2 until the SLO breaks, then bisect to the resolution: the known capacity is bracketed', async () => {
  const fake = fakeServer(1234);
  const outcome = await searchCapacity(settings, fake.step);
  assert.deepEqual(
    fake.calls.map(([count]) => count),
    [100, 200, 400, 800, 1600, 1200, 1400, 1300],
  );
  assert.deepEqual(
    outcome.steps.map((s) => s.phase),
    ['ramp', 'ramp', 'ramp', 'ramp', 'ramp', 'bisect', 'bisect', 'bisect'],
  );
  assert.equal(outcome.capacity, 1200);
  assert.equal(outcome.brokeAt, 1300);
  assert.equal(outcome.end, 'bracketed');
  assert.ok(outcome.capacity <= 1234 && 1234 < outcome.brokeAt!);
  assert.ok(outcome.brokeAt! - outcome.capacity <= tolerance(outcome.capacity, settings.resolution));
  assert.ok(outcome.steps.every((s) => s.valid));
});

test('with a resolution finer than one count, every capacity is found exactly', async () => {
  for (const capacity of [1, 7, 100, 101, 999, 4321]) {
    const outcome = await searchCapacity({ ...settings, start: 10, resolution: 0.0001 }, fakeServer(capacity).step);
    assert.deepEqual([outcome.capacity, outcome.brokeAt], [capacity, capacity + 1], `capacity ${capacity}`);
  }
});

test('a server that breaks at the first step is bisected down; one that breaks at 1 holds 0', async () => {
  const low = await searchCapacity(settings, fakeServer(37).step);
  assert.equal(low.capacity, 37);
  assert.equal(low.brokeAt, 40);
  const none = await searchCapacity(settings, fakeServer(0).step);
  assert.deepEqual([none.capacity, none.brokeAt, none.end], [0, 1, 'bracketed']);
});

test('a server that holds the maximum ends the search there', async () => {
  const fake = fakeServer(1e9);
  const outcome = await searchCapacity({ ...settings, max: 1000 }, fake.step);
  assert.deepEqual(
    fake.calls.map(([count]) => count),
    [100, 200, 400, 800, 1000],
  );
  assert.deepEqual([outcome.capacity, outcome.brokeAt, outcome.end], [1000, null, 'max']);
});

test('a step whose load generator saturated is invalid and measured again with one more client process', async () => {
  // One process saturates above 500 connections; two hold 1000.
  const fake = fakeServer(1234, 500);
  const outcome = await searchCapacity(settings, fake.step);
  const invalid = outcome.steps.filter((s) => !s.valid);
  assert.deepEqual(
    invalid.map((s) => [s.count, s.clientProcesses]),
    [
      [800, 1],
      [1600, 2],
    ],
  );
  assert.deepEqual(outcome.steps.find((s) => s.phase === 'retry')!, {
    count: 800,
    clientProcesses: 2,
    phase: 'retry',
    judgement: { verdict: 'within', clientSaturated: false },
    valid: true,
  });
  // 1600 saturates two processes too and no third is allowed: the search cannot tell, and says where.
  assert.equal(outcome.end, 'cannot-tell');
  assert.equal(outcome.undecidedAt, 1600);
  assert.equal(outcome.capacity, 800);
  assert.equal(outcome.brokeAt, null);
  assert.equal(outcome.clientProcesses, 2);
});

test('with enough client processes the saturated steps are redone and the capacity is still found', async () => {
  const outcome = await searchCapacity({ ...settings, maxClientProcesses: 8 }, fakeServer(1234, 500).step);
  assert.equal(outcome.end, 'bracketed');
  assert.deepEqual([outcome.capacity, outcome.brokeAt], [1200, 1300]);
  assert.equal(outcome.clientProcesses, 4);
  assert.ok(outcome.steps.filter((s) => s.valid).every((s) => s.count / s.clientProcesses <= 500));
});

test('a count the scenario refuses (open-file limit) bounds the search like a break', async () => {
  const outcome = await searchCapacity(
    { ...settings, start: 1000 },
    fakeServer(1e9, Number.POSITIVE_INFINITY, 5000).step,
  );
  assert.equal(outcome.end, 'bracketed');
  assert.ok(outcome.capacity <= 5000 && outcome.brokeAt! > 5000, `${outcome.capacity}..${outcome.brokeAt}`);
  assert.ok(outcome.brokeAt! - outcome.capacity <= tolerance(outcome.capacity, 0.1));
});

test('an aborted signal ends the search as interrupted', async () => {
  const controller = new AbortController();
  const outcome = await searchCapacity({ ...settings, signal: controller.signal }, async (count) => {
    if (count >= 400) controller.abort();
    return { verdict: 'within', clientSaturated: false };
  });
  assert.deepEqual([outcome.end, outcome.capacity, outcome.steps.length], ['interrupted', 200, 3]);
});

test('confirm: both ends of the bracket are tried again, and the bracket says how often each held', async () => {
  const fake = fakeServer(1234);
  const outcome = await searchCapacity({ ...settings, confirm: 2 }, fake.step);
  assert.deepEqual(fake.calls.map(([count]) => count).slice(-4), [1200, 1300, 1200, 1300]);
  assert.deepEqual(
    outcome.steps.slice(-4).map((s) => s.phase),
    ['confirm', 'confirm', 'confirm', 'confirm'],
  );
  assert.deepEqual(outcome.bracket, {
    held: { count: 1200, tries: 3, held: 3 },
    broke: { count: 1300, tries: 3, held: 0 },
  });
  assert.deepEqual(outcome.nonMonotonic, []);
});

test('a limit that holds some tries and not others: the bracket says so, and a count that held above one that broke is named', async () => {
  // Holds up to 50, breaks above; but the second try at 50 breaks and 56 holds once: noise near the limit.
  const tries = new Map<number, number>();
  const step = async (count: number): Promise<StepJudgement> => {
    const n = (tries.get(count) ?? 0) + 1;
    tries.set(count, n);
    const held = count <= 50 ? !(count === 50 && n === 2) : count === 56 && n === 1;
    return { verdict: held ? 'within' : 'broken', clientSaturated: false };
  };
  const outcome = await searchCapacity({ ...settings, start: 50, max: 100, resolution: 0.05, confirm: 2 }, step);
  assert.equal(outcome.end, 'bracketed');
  // The bisection's one lucky try at 56 set the bracket there; its confirmations broke, so the search went back down.
  assert.deepEqual(
    outcome.steps.filter((s) => s.count === 56).map((s) => s.judgement.verdict),
    ['within', 'broken', 'broken'],
  );
  assert.deepEqual(outcome.bracket.held, { count: 50, tries: 3, held: 2 });
  assert.deepEqual(outcome.bracket.broke, { count: 51, tries: 3, held: 0 });
  assert.deepEqual([outcome.capacity, outcome.brokeAt], [50, 51]);
  // 56 held once in three, 53 never: the curve is not monotonic there, and the result says so.
  assert.deepEqual(outcome.nonMonotonic, [{ held: 56, brokeBelow: 53 }]);
});

test('nonMonotonic: a count that held more often than a lower one is named; ties are a fuzzy limit, not a reversal', () => {
  const step = (count: number, verdict: 'within' | 'broken') => ({
    count,
    clientProcesses: 1,
    phase: 'ramp' as const,
    judgement: { verdict, clientSaturated: false },
    valid: true,
  });
  assert.deepEqual(
    nonMonotonic([step(50, 'within'), step(53, 'broken'), step(56, 'broken'), step(62, 'within'), step(75, 'broken')]),
    [{ held: 62, brokeBelow: 56 }],
  );
  assert.deepEqual(
    nonMonotonic([step(50, 'within'), step(53, 'broken'), step(53, 'within'), step(56, 'broken'), step(56, 'within')]),
    [],
  );
});

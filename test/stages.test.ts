/**
 * Stages and the open model's schedule, as pure functions: the text of stages
 * and its errors, the rate curve they make (a line per stage, from where the
 * last one left it), the due times it gives each connection (uniform: the
 * cell's arrivals evenly spaced whatever the connections; Poisson: the rate on
 * average, the same gaps for the same seed).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readStages, stagesText, stagesTotalMs, declaredStages } from '../src/shared/parsing/stages.js';
import { RateCurve } from '../src/shared/scenario-kit/arrivals/rate-curve.js';
import { connectionDueTimes } from '../src/shared/scenario-kit/arrivals/due-times.js';
import { loadModelInfo, loadPlanOf } from '../src/shared/scenario-kit/arrivals/open-model.js';

test('stages read as text or as a list, and print back as one text', () => {
  const stages = readStages('30s:1000, 1m:5000,10s:20000,30s:0');
  assert.deepEqual(stages, [
    { durationMs: 30_000, target: 1000 },
    { durationMs: 60_000, target: 5000 },
    { durationMs: 10_000, target: 20_000 },
    { durationMs: 30_000, target: 0 },
  ]);
  assert.equal(stagesText(stages as never), '30s:1000,1m:5000,10s:20000,30s:0');
  assert.deepEqual(readStages([{ duration: '500ms', target: 3 }]), [{ durationMs: 500, target: 3 }]);
  assert.deepEqual(readStages(''), []);
  assert.equal(stagesTotalMs(readStages('1s:1,1.5s:2') as never), 2500);
  assert.equal(readStages('1s:1,,2s:3'), 'stage 2 "" is not DURATION:TARGET (such as 30s:1000)');
  assert.equal(readStages('5:100'), 'stage 1: duration "5" is not a duration such as 500ms, 30s, 1m');
  assert.equal(readStages([{ duration: '1s', target: 1, ramp: true }]), 'stage 1: "ramp" is not duration or target');
  assert.equal(
    readStages(Array.from({ length: 101 }, () => ({ duration: '1s', target: 1 }))),
    '101 stages: at most 100',
  );
});

test('the stages a cell runs are its stages-kind parameter, if the scenario declares one', () => {
  const parameters = { rate: { kind: 'integer' }, stages: { kind: 'stages' } };
  assert.deepEqual(declaredStages(parameters, { stages: '1s:5' }), [{ durationMs: 1000, target: 5 }]);
  assert.deepEqual(declaredStages(parameters, { stages: '' }), []);
  assert.deepEqual(declaredStages({ rate: { kind: 'integer' } }, { stages: '1s:5' }), []);
});

test('the rate curve: a line per stage from where the last left it; counts and their inverse agree', () => {
  // 100/s, ramp to 300/s over 2 s, hold 1 s, down to 0 over 1 s.
  const curve = new RateCurve(100, readStages('2s:300,1s:300,1s:0') as never);
  assert.equal(curve.rateAt(0), 100);
  assert.equal(curve.rateAt(1), 200);
  assert.equal(curve.rateAt(2.5), 300);
  assert.equal(curve.rateAt(3.5), 150);
  assert.equal(curve.rateAt(4.5), 0);
  // The ramp: (100 + 300) / 2 x 2 s = 400; the hold 300; the way down 150.
  assert.equal(curve.countAt(2), 400);
  assert.equal(curve.countAt(3), 700);
  assert.equal(curve.totalCount, 850);
  for (const atS of [0, 0.37, 1, 1.9, 2.4, 3.2, 3.99]) {
    assert.ok(Math.abs(curve.timeOf(curve.countAt(atS))! - atS) < 1e-9, `time of the count at ${atS} s`);
  }
  assert.equal(curve.timeOf(851), null, 'no arrival past the last stage');
  assert.equal(curve.constantRate(), null);
  assert.equal(new RateCurve(250).constantRate(), 250);
  assert.equal(new RateCurve(250).timeOf(500), 2);
  // A hold at 0 between two ramps: the arrival at its count is due where the count was reached.
  const gap = new RateCurve(0, readStages('1s:100,1s:0,1s:0,1s:100') as never);
  assert.equal(gap.timeOf(100), 2, 'reached at the end of the way down, not after the gap');
  assert.equal(gap.timeOf(101)! > 3, true, 'the next arrival comes once the rate climbs again');
  assert.equal(gap.firstAtOrAbove(50, 2.2), 3.5);
});

test('uniform due times: N connections take the cell arrivals in turn, evenly spaced in all', () => {
  const curve = new RateCurve(1000);
  const times = [0, 1, 2, 3].flatMap((index) => {
    const due = connectionDueTimes({ curve, index, count: 4, process: 'uniform', seed: 1 });
    return Array.from({ length: 5 }, () => due.next()!);
  });
  assert.deepEqual(
    times.sort((a, b) => a - b),
    Array.from({ length: 20 }, (_, m) => m * 1000),
  );
});

test('Poisson due times: the rate on average, exponential gaps, the same gaps for the same seed', () => {
  const curve = new RateCurve(2000);
  const draw = (seed: number, index: number): number[] => {
    const due = connectionDueTimes({ curve, index, count: 10, process: 'poisson', seed });
    return Array.from({ length: 2000 }, () => due.next()!);
  };
  const times = draw(7, 3);
  assert.deepEqual(times, draw(7, 3));
  assert.notDeepEqual(times, draw(8, 3));
  assert.notDeepEqual(times, draw(7, 4));
  // Each of 10 connections sends 200/s: 2000 sends span about 10 s (the sum of 2000 exponential gaps of mean 5 ms).
  const spanS = times.at(-1)! / 1e6;
  assert.ok(spanS > 9 && spanS < 11, `2000 sends in ${spanS} s`);
  const gaps = times.map((t, i) => t - (times[i - 1] ?? 0));
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const sd = Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / gaps.length);
  assert.ok(Math.abs(sd / mean - 1) < 0.1, `exponential gaps have sd = mean (${sd.toFixed(0)} / ${mean.toFixed(0)})`);
});

test('the load plan and its words: closed without a rate, open with one, per connection scaled to the cell', () => {
  const params = { rate: 0, ratePerConnection: 0, arrivals: 'uniform', seed: 1, stages: '' };
  assert.equal(loadPlanOf(params, 10).model, 'closed');
  assert.deepEqual(loadModelInfo(params, 10, '10 conn x 1 in flight'), {
    model: 'closed',
    text: 'closed loop, 10 conn x 1 in flight',
    says: ['rate', 'ratePerConnection', 'arrivals', 'stages', 'seed'],
  });
  const perConnection = loadPlanOf({ ...params, ratePerConnection: 50 }, 10);
  assert.ok(perConnection.model === 'open' && perConnection.startPerSec === 500);
  assert.deepEqual(loadModelInfo({ ...params, rate: 5000, arrivals: 'poisson', stages: '1s:10' }, 10, ''), {
    model: 'open',
    text: 'open model, from 5000/s in stages, poisson',
    says: ['rate', 'ratePerConnection', 'arrivals'],
  });
});

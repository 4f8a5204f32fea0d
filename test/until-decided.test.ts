/**
 * Rounds until decided (issue 41, item 2): the looks are planned from the
 * budget before the first, their shares of the 5 % add up to it exactly, and
 * the rule holds its rate under repeated looks where looking at 95 % each time
 * does not (a seeded simulation of two identical cells on a drifting machine,
 * judged by the same two-cell test as the picks). A real run records every
 * look, measures the rounds they asked for, and says first how it stopped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lookAlpha, planLooks, ruleText } from '../src/parent/stats/sequential.js';
import { twoCellTest } from '../src/parent/stats/two-cells.js';
import { roundSpread } from '../src/parent/stats/round-spread.js';
import { intervalAround } from '../src/parent/stats/cell-intervals.js';
import { isMeasured, type BenchResult } from '../src/shared/types/result-types.js';
import { runCli, tempDir, runArgs } from './support.js';
import { seededRandom } from './fixtures/synthetic-results.js';

test('looks: planned from the first rounds and the budget, their shares adding up to the 5 %', () => {
  // 3 rounds took 6 s: a 40 s budget holds 20 rounds; 4 looks spread from 3 to 20.
  const plan = planLooks(3, 6000, 40_000);
  assert.deepEqual(plan, { maxRounds: 20, looks: [3, 9, 14, 20] });
  const shares = plan.looks.map((_, i) => lookAlpha(plan, i, i === plan.looks.length - 1));
  const expected = [3, 6, 5, 6].map((n) => (0.05 * n) / 20);
  for (const [i, share] of shares.entries()) assert.ok(Math.abs(share - expected[i]!) < 1e-12, `look ${i}: ${share}`);
  assert.ok(Math.abs(shares.reduce((a, b) => a + b, 0) - 0.05) < 1e-12);
  // The budget ends the run after the second look: it spends what the first left.
  assert.ok(Math.abs(lookAlpha(plan, 1, true) - (0.05 - (0.05 * 3) / 20)) < 1e-12);
  // No room beyond the first rounds: one look, at the full 5 %.
  assert.deepEqual(planLooks(3, 60_000, 50_000), { maxRounds: 3, looks: [3] });
  assert.ok(Math.abs(lookAlpha(planLooks(3, 60_000, 50_000), 0, true) - 0.05) < 1e-12);
  assert.equal(
    ruleText(plan),
    'alpha spending: 5 % shared out over up to 4 looks at rounds 3, 9, 14, 20 of at most 20, each spending the share of the 20 rounds it adds; a look with no room after it in the budget spends what is left',
  );
});

/**
 * Two identical cells measured round by round on a machine whose speed drifts a little (both cells of a
 * round alike, plus each its own noise: the paired and the unpaired tests then mostly agree; a machine
 * that drifts far makes the unpaired test, and so both, stricter still), looked at as `levels` say,
 * stopping at the first difference found: the share of runs that ever called the two different.
 */
function falseDifferences(levels: Array<{ rounds: number; level: number }>, runs: number, seed: number): number {
  const random = seededRandom(seed);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  let found = 0;
  for (let run = 0; run < runs; run++) {
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < levels.at(-1)!.rounds; r++) {
      const machine = 0.02 * normal();
      a.push(Math.exp(machine + 0.1 * normal()));
      b.push(Math.exp(machine + 0.1 * normal()));
    }
    const side = (values: number[], level: number) => {
      const value = values.reduce((x, y) => x + y, 0) / values.length;
      return { value, interval: intervalAround(value, roundSpread(values, true)!, 'rounds', 0, level), rounds: values };
    };
    for (const { rounds, level } of levels) {
      const test = twoCellTest(side(a.slice(0, rounds), level), side(b.slice(0, rounds), level), {
        paired: true,
        level,
      })!;
      if (test.outcome === 'differs') {
        found += 1;
        break;
      }
    }
  }
  return found / runs;
}

test('under repeated looks the rule keeps the 5 %; looking at 95 % every round does not', () => {
  const plan = planLooks(3, 3000, 20_000);
  const spent = plan.looks.map((rounds, i) => ({
    rounds,
    level: 1 - lookAlpha(plan, i, i === plan.looks.length - 1),
  }));
  const everyRound = Array.from({ length: plan.maxRounds - 2 }, (_, i) => ({ rounds: i + 3, level: 0.95 }));
  const ruled = falseDifferences(spent, 2000, 41);
  const naive = falseDifferences(everyRound, 2000, 41);
  assert.ok(ruled <= 0.05, `alpha spending: ${ruled} of identical pairs called different`);
  assert.ok(naive > 0.05, `a look at 95 % after every round: ${naive}`);
});

test('run --until-decided: every look recorded, the rounds they asked for measured, how it stopped said first', async () => {
  const out = join(tempDir(), 'decided.json');
  const run = await runCli(
    runArgs('echo', 'ws,uws', 'ws', '--duration', '200ms', '--until-decided', '--budget', '6s', '--out', out),
  );
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const decision = result.decision!;
  assert.ok(decision.looks.length >= 1);
  assert.equal(decision.looks[0]!.rounds, 3, 'the first look after 3 rounds');
  assert.equal(decision.budgetMs, 6000);
  assert.ok(['decided', 'budget'].includes(decision.stopped), decision.stopped);
  const last = decision.looks.at(-1)!;
  assert.equal(result.repeat, last.rounds);
  for (const cell of result.cells) {
    assert.ok(isMeasured(cell));
    assert.equal(cell.rounds!.length, last.rounds);
    assert.equal(
      cell.intervals!.rttP50Ms!.level,
      last.level,
      "the cells' intervals are stated at the last look's level",
    );
  }
  assert.deepEqual(
    decision.looks.map((l) => l.rounds),
    decision.plannedLooks.slice(0, decision.looks.length),
  );
  assert.match(run.stderr, /^look after 3 rounds \(intervals at \d+\.\d %\): /m);
  assert.match(run.stdout.split('\n')[0]!, /^until decided \(budget 6s\): \d looks?, after /);
});

test('--budget without --until-decided is refused in one line, exit 2', async () => {
  const run = await runCli(['run', 'echo', '--budget', '1m']);
  assert.equal(run.code, 2);
  assert.equal(run.stderr, 'wsbench: --budget: it is the time --until-decided may take; give --until-decided too\n');
  assert.equal(run.stdout, '');
});

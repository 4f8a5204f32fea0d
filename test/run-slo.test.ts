/**
 * `run --slo` in capacity's grammar: each cell judged on the interval of each
 * value (pass, fail, inconclusive when it straddles the bound), shown in the
 * table, and a fail exits 1; a bad objective is refused before anything runs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSlo } from '../src/parent/slo/grammar.js';
import { judgeCellSlo } from '../src/parent/slo/verdict.js';
import type { BenchResult, MeasuredCell, ValueInterval } from '../src/shared/types/result-types.js';
import { runCli, tempDir } from './support.js';
import { cell, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

const INFO = scenarioInfo('echo', {
  metrics: {
    rttP99Ms: latencyMetric('rtt', 'p99'),
    errors: { header: 'errors', unit: 'count', better: 'lower', role: 'errors', source: { counter: 'errors' } },
  },
  table: ['rttP99Ms', 'errors'],
  charts: [],
});

const within = (low: number, high: number): ValueInterval => ({
  low,
  high,
  level: 0.95,
  method: 'rounds',
  standardError: 1,
  degreesOfFreedom: 4,
  samples: 5,
});
function judged(p99: number, interval: ValueInterval | null, errors = 0) {
  const c = cell('echo', { server: 'ws', client: 'ws', metrics: { rttP99Ms: p99, errors } }) as MeasuredCell;
  return judgeCellSlo(parseSlo('p99<10ms,errors=0', INFO), interval ? { ...c, intervals: { rttP99Ms: interval } } : c)!;
}

test('a clause is judged on the whole interval: pass, fail, or inconclusive when it straddles the bound; counts are exact', () => {
  assert.deepEqual(
    judged(8, within(7, 9)).clauses.map((c) => [c.clause, c.verdict]),
    [
      ['p99<10ms', 'pass'],
      ['errors=0', 'pass'],
    ],
  );
  assert.equal(judged(8, within(7, 9)).verdict, 'pass');
  const straddles = judged(9, within(7, 12));
  assert.equal(straddles.verdict, 'inconclusive');
  assert.equal(straddles.clauses[0]!.why, 'p99 9.00 [7.00, 12.00] ms straddles < 10 ms');
  assert.deepEqual([straddles.clauses[0]!.low, straddles.clauses[0]!.high], [7, 12]);
  const misses = judged(14, within(11, 18));
  assert.equal(misses.verdict, 'fail');
  assert.equal(misses.clauses[0]!.why, 'p99 14.00 [11.00, 18.00] ms not < 10 ms');
  assert.equal(judged(9, within(7, 12), 1).verdict, 'fail', 'one error fails whatever the latency');
  assert.equal(judged(9, null).clauses[0]!.why, 'p99 9.00 ms < 10 ms (no interval: judged on the value alone)');
});

test('run --slo: a bound no round trip can keep exits 1 and says so; a generous one exits 0; a bad one exits 2', {
  timeout: 120_000,
}, async () => {
  const dir = tempDir();
  const base = ['run', 'echo', '--servers', 'ws', '--clients', 'ws', '--duration', '1s'];
  const tight = await runCli([...base, '--slo', 'p99<0.001ms', '--out', join(dir, 'tight.json')]);
  assert.equal(tight.code, 1, tight.stderr);
  assert.match(tight.stderr, /^exit 1: 1 cell failed --slo \(the whole interval beyond the bound\)$/m);
  assert.match(tight.stdout, /^server\s+client\s+status\s+slo\s+p50 ms/m);
  assert.match(tight.stdout, /^ws\s+ws\s+ok\S*(, \S+)*\s+fail\s/m);
  assert.match(tight.stdout, /^slo {2}p99<0\.001ms: 1 fail/m);
  const written = JSON.parse(readFileSync(join(dir, 'tight.json'), 'utf8')) as BenchResult;
  assert.equal(written.slo?.text, 'p99<0.001ms');
  assert.equal((written.cells[0] as MeasuredCell).slo?.verdict, 'fail');

  const generous = await runCli([...base, '--slo', 'p99<10s,errors=0', '--out', join(dir, 'generous.json')]);
  assert.equal(generous.code, 0, generous.stderr);
  assert.match(generous.stdout, /^ws\s+ws\s+ok\S*(, \S+)*\s+pass\s/m);

  const bad = await runCli([...base, '--slo', 'p42<1ms', '--out', join(dir, 'bad.json')]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^wsbench: --slo: unknown metric "p42"/);
});

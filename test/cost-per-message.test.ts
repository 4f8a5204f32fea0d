/**
 * Cost per message (issue 41, item 3), against exact fixtures: the server's and
 * the clients' CPU-µs per message from their CPU % over the window; a cost gets
 * its interval from the rounds (one window gives none, and says why); it is
 * ranked in "what to pick" beside p50, p99 and msg/s, and compared by
 * `compare`, inconclusive at any size until both sides have 3 rounds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuCostMetrics, latencyMetrics, rate } from '../src/shared/scenario-kit/index.js';
import { cellResult } from '../src/parent/engine/cell-result.js';
import { COST_NO_INTERVAL } from '../src/parent/stats/cell-intervals.js';
import { rankedMetrics } from '../src/parent/report/run/pick-text.js';
import { picksOf } from '../src/parent/stats/ranking.js';
import { compareResults } from '../src/parent/compare/compare.js';
import { scenarioInfo as infoOf } from '../src/parent/engine/scenario-info.js';
import { isMeasured, type MeasuredCell } from '../src/shared/types/result-types.js';
import type { CellRun } from '../src/parent/engine/cell.js';
import type { MetricInput } from '../src/shared/types/scenario-types.js';
import { declarationsOnly, measuredRun } from './fixtures/cell-runs.js';
import { exponentialHistogram, resources, result } from './fixtures/synthetic-results.js';

const costs = cpuCostMetrics('received', 'msg');

test('CPU-µs per message: a share of a core times the window, over the messages counted in it', () => {
  const input = {
    measurements: { counters: { received: 10_000 }, windowMs: 2000 },
    resources: { server: resources(40, 50, 70), clients: [resources(50, 60, 80), resources(30, 40, 80)] },
  } as unknown as MetricInput;
  const compute = (key: keyof typeof costs) => {
    const source = costs[key].source;
    assert.ok('compute' in source);
    return source.compute(input);
  };
  // 0.4 of a core for 2 s is 800,000 µs, over 10,000 messages.
  assert.equal(compute('serverCpuUsPerMessage'), 80);
  // Both client processes: 0.8 of a core.
  assert.equal(compute('clientCpuUsPerMessage'), 160);
  assert.equal(costs.serverCpuUsPerMessage.header, 'srv µs/msg');
  assert.equal(costs.serverCpuUsPerMessage.role, 'cost');
  const none = { ...input, measurements: { counters: {}, windowMs: 2000 } } as unknown as MetricInput;
  const source = costs.serverCpuUsPerMessage.source;
  assert.ok('compute' in source);
  assert.equal(source.compute(none), null, 'no message, no cost per message');
});

const scenario = declarationsOnly(
  'costly',
  {
    ...latencyMetrics('rtt', { stats: ['p50', 'p99'], primary: ['p50', 'p99'] }),
    messagesPerSec: rate('received', 'msg/s', { unit: 'msg/s', role: 'primary-rate' }),
    ...costs,
  },
  ['rttP50Ms', 'rttP99Ms', 'messagesPerSec', 'serverCpuUsPerMessage', 'clientCpuUsPerMessage'],
);

/** A round whose server used `cpu` % of a core over 1 s while `received` messages came back. */
function round(seed: number, cpu: number, received: number): CellRun {
  const run = measuredRun(exponentialHistogram(1000, 200, seed, 50), { received }, 1000);
  run.measured!.resources = { server: resources(cpu, cpu + 5, 70), clients: [resources(50, 60, 80)] };
  return run;
}

function cellOf(server: string, rounds: CellRun[]): MeasuredCell {
  const made = cellResult({ scenario: 'costly', server, client: 'ws', params: {} }, scenario, 1, rounds);
  assert.ok(isMeasured(made));
  return made;
}

test('a cost gets its interval from the rounds; measured once it has none, and the reason says how to get one', () => {
  const repeated = cellOf('ws', [round(1, 40, 10_000), round(2, 44, 10_000), round(3, 42, 10_000)]);
  const interval = repeated.intervals!.serverCpuUsPerMessage!;
  assert.equal(interval.method, 'rounds');
  assert.equal(interval.samples, 3);
  assert.ok(interval.low < 42 && interval.high > 42, `${interval.low}..${interval.high}`);
  const once = cellOf('ws', [round(1, 40, 10_000)]);
  assert.equal(once.intervals!.serverCpuUsPerMessage, undefined);
  assert.equal(once.noInterval!.serverCpuUsPerMessage, COST_NO_INTERVAL);
});

test('what to pick ranks every key number of the table: p50, p99, msg/s and the costs', () => {
  const info = infoOf(scenario);
  assert.deepEqual(
    rankedMetrics(info).map(([key]) => key),
    ['rttP50Ms', 'rttP99Ms', 'messagesPerSec', 'serverCpuUsPerMessage', 'clientCpuUsPerMessage'],
  );
  // uws spends half the CPU per message ws does, in every round.
  const ws = cellOf('ws', [round(1, 40, 10_000), round(2, 44, 10_000), round(3, 42, 10_000)]);
  const uws = cellOf('uws', [round(4, 20, 10_000), round(5, 22.5, 10_000), round(6, 20.5, 10_000)]);
  const picks = picksOf([ws, uws], rankedMetrics(info));
  const cpu = picks.find((p) => p.metric === 'serverCpuUsPerMessage' && p.role === 'server')!;
  assert.equal(cpu.best, 'uws');
  assert.equal(cpu.differs[0]!.stack, 'ws');
  assert.ok(Math.abs(cpu.differs[0]!.ratio.ratio - 42 / 21) < 1e-9, `${cpu.differs[0]!.ratio.ratio}`);
});

test('compare: a cost with 3 rounds a side is judged; with fewer it is inconclusive whatever its size, and says why', () => {
  const info = infoOf(scenario);
  const file = (cpu: number[], count = cpu.length) => ({
    ...result(info, [
      cellOf(
        'ws',
        cpu.slice(0, count).map((c, i) => round(i + 1, c, 10_000)),
      ),
    ]),
    repeat: count,
  });
  const judged = compareResults(file([40, 44, 42]), file([80, 88, 84]));
  const doubled = judged.cells[0]!.deltas.find((d) => d.key === 'serverCpuUsPerMessage')!;
  assert.equal(doubled.role, 'cost');
  assert.equal(doubled.verdict, 'regressed');
  assert.ok(Math.abs(doubled.changePct! - 100) < 1e-9);
  const short = compareResults(file([40], 1), file([80], 1));
  const once = short.cells[0]!.deltas.find((d) => d.key === 'serverCpuUsPerMessage')!;
  assert.equal(once.verdict, 'inconclusive');
  assert.equal(
    once.noiseUnmeasured,
    'a cost is read once per window: only 3 rounds or more measure its noise (rounds: base 1, new 1)',
  );
});

test('compare: a cost one of whose rounds read only a bound (below its resolution) is inconclusive, naming that round', () => {
  const info = infoOf(scenario);
  const file = (cpu: number[]) => ({
    ...result(info, [
      cellOf(
        'ws',
        cpu.map((c, i) => round(i + 1, c, 10_000)),
      ),
    ]),
    repeat: cpu.length,
  });
  const next = file([80, 88, 84, 86]);
  // Round 2 resolved nothing: its value is only "< 1066", which the pooled value counts and the rounds' spread cannot.
  const bounded = (next.cells[0] as MeasuredCell).rounds![1]!;
  bounded.resolution = { serverCpuUsPerMessage: { estimate: 0, resolution: 1066, resolved: false, atMost: 1066 } };
  const judged = compareResults(file([40, 44, 42, 43]), next);
  const delta = judged.cells[0]!.deltas.find((d) => d.key === 'serverCpuUsPerMessage')!;
  assert.equal(delta.verdict, 'inconclusive');
  assert.equal(
    delta.noiseUnmeasured,
    "a round read it below its resolution (new round 2 < 1066): its pooled value counts that round, its rounds' spread cannot",
  );
});

/**
 * "What to pick" against exact fixtures: servers ranked over the clients they
 * share, rounds paired one by one (a machine that slows the same way for every
 * cell of a round cancels out), a stack within the noise of the best said to
 * be tied, a significant one as a ratio with its interval, a stack with no
 * partner in common not ranked; and the heatmap colours tied squares alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MetricInfo } from '../src/declaration-types.js';
import type { MeasuredCell } from '../src/result-types.js';
import { cellIntervals } from '../src/stats/cell-intervals.js';
import { picksOf } from '../src/stats/ranking.js';
import { pickFootnotes } from '../src/report/run/pick-text.js';
import { tieGroups } from '../src/stats/tie-groups.js';
import { logRatio, meanLogRatio, ratioInterval } from '../src/stats/ratio.js';
import { cell, scenarioInfo } from './fixtures/synthetic-results.js';

const METRICS: Record<string, MetricInfo> = {
  p50: {
    header: 'p50 ms',
    unit: 'ms',
    better: 'lower',
    role: 'primary-latency',
    source: { histogram: 'rtt', stat: 'p50' },
  },
};
const INFO = scenarioInfo('echo', { metrics: METRICS, table: ['p50'], charts: [] });

/** A cell whose three rounds read `rounds`; its value is their mean, its interval from them. */
function repeated(server: string, client: string, rounds: number[]): MeasuredCell {
  const c = cell('echo', {
    server,
    client,
    metrics: { p50: rounds.reduce((a, b) => a + b, 0) / rounds.length },
  }) as MeasuredCell;
  const withRounds = {
    ...c,
    rounds: rounds.map((p50) => ({ status: 'ok' as const, metrics: { p50 }, elapsedMs: 1000 })),
  };
  return { ...withRounds, intervals: cellIntervals(METRICS, withRounds).intervals };
}

// The machine ran round 2 twice as slow as round 1 for every cell: pairing cancels that.
const CELLS = [
  repeated('a', 'x', [10, 20, 15]),
  repeated('a', 'y', [12, 24, 18]),
  repeated('b', 'x', [10.1, 20.6, 15]),
  repeated('b', 'y', [12.3, 23.8, 18.2]),
  repeated('c', 'x', [15, 31, 22]),
  repeated('c', 'y', [18, 36, 27.5]),
  repeated('s', 'z', [5, 5, 5]),
];

test('servers over the clients they share: the best, the one tied with it, the one 50% slower, the one with no client in common', () => {
  const [servers, clients] = picksOf(CELLS, [['p50', METRICS.p50!]]);
  assert.equal(servers!.role, 'server');
  assert.equal(servers!.best, 'a');
  assert.deepEqual(
    servers!.tied.map((d) => d.stack),
    ['b'],
  );
  assert.deepEqual(
    servers!.differs.map((d) => [d.stack, d.across]),
    [['c', ['x', 'y']]],
  );
  assert.deepEqual(servers!.unranked, [{ stack: 's', why: 'no client in common with a' }]);
  // c over a: the mean of the two clients' paired log ratios, its error from each.
  const side = (c: MeasuredCell) => ({ value: c.metrics.p50 as number, rounds: c.rounds!.map((r) => r.metrics!.p50) });
  const expected = ratioInterval(
    meanLogRatio([
      logRatio(side(CELLS[4]!), side(CELLS[0]!), true)!,
      logRatio(side(CELLS[5]!), side(CELLS[1]!), true)!,
    ])!,
  );
  assert.deepEqual(servers!.differs[0]!.ratio, expected);
  assert.ok(expected.low > 1.4 && expected.high < 1.6, `${expected.low}..${expected.high}`);
  assert.equal(expected.method, 'paired rounds');
  assert.equal(clients!.role, 'client');
  assert.equal(clients!.best, 'x');
});

test('the picks in words, under the table', () => {
  const lines = pickFootnotes(INFO, CELLS);
  assert.equal(
    lines[1],
    'what to pick (each ratio with its 95 % interval; stacks whose interval holds no difference are tied):',
  );
  assert.equal(lines[2], '  servers on p50 ms: a lowest; tied with it: b');
  assert.match(lines[3]!, /^ {4}c: p50 ms 5\d% \[4\d%, 5\d%\] higher than a, across 2 clients$/);
  assert.equal(lines[4], '    s: not ranked (no client in common with a)');
  assert.match(lines[5]!, /^ {2}clients on p50 ms: x lowest; /);
});

test('tie groups: sorted best first, a cell joins the group of the leader it is tied with', () => {
  const side = (c: MeasuredCell) => ({
    item: `${c.server} x ${c.client}`,
    side: { value: c.metrics.p50 as number, interval: c.intervals!.p50!, rounds: c.rounds!.map((r) => r.metrics!.p50) },
  });
  const groups = tieGroups(CELLS.filter((c) => c.client === 'x').map(side), 'lower');
  assert.deepEqual(
    groups.map((g) => [g.item, g.group]),
    [
      ['a x x', 0],
      ['b x x', 0],
      ['c x x', 1],
    ],
  );
  assert.equal(groups[1]!.leaderValue, 15, 'b is coloured as a');
});

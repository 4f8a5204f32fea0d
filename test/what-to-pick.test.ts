/**
 * "What to pick" against exact fixtures: servers ranked over the clients they
 * share, rounds paired one by one (a machine that slows the same way for every
 * cell of a round cancels out), a stack within the noise of the best said to
 * be tied, a significant one as a ratio with its interval, a stack with no
 * partner in common not ranked; and the heatmap colours tied squares alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MeasuredCell } from '../src/shared/types/result-types.js';
import { picksOf } from '../src/parent/stats/ranking.js';
import { pickFootnotes } from '../src/parent/report/run/pick-text.js';
import { tieGroups } from '../src/parent/stats/tie-groups.js';
import { logRatio, meanLogRatio, ratioInterval } from '../src/parent/stats/ratio.js';
import { cell } from './fixtures/synthetic-results.js';
import { P50_INFO, P50_METRICS, roundsCell } from './fixtures/p50-rounds.js';

/** A cell whose three rounds read `rounds`; its value is their mean, its interval from them. */
const repeated = (server: string, client: string, rounds: number[]): MeasuredCell =>
  roundsCell(server, client, rounds, 1000);

// The machine ran round 2 twice as slow as round 1 for every cell: pairing cancels that, and only that.
const CELLS = [
  repeated('a', 'x', [10, 20, 15]),
  repeated('a', 'y', [12, 24, 18]),
  repeated('b', 'x', [10.1, 20.6, 15]),
  repeated('b', 'y', [12.3, 23.8, 18.2]),
  repeated('c', 'x', [15, 31, 22]),
  repeated('c', 'y', [18, 36, 27.5]),
  repeated('d', 'x', [30, 60, 45]),
  repeated('d', 'y', [36, 72, 54]),
  repeated('s', 'z', [5, 5, 5]),
];

const side = (c: MeasuredCell) => ({
  value: c.metrics.p50 as number,
  interval: c.intervals!.p50!,
  rounds: c.rounds!.map((r) => r.metrics!.p50),
});

test('servers over the clients they share: the best, the same, the tests split, 3x slower, no client in common', () => {
  const [servers, clients] = picksOf(CELLS, [['p50', P50_METRICS.p50!]]);
  assert.equal(servers!.role, 'server');
  assert.equal(servers!.best, 'a');
  assert.deepEqual(
    servers!.same.map((d) => d.stack),
    ['b'],
  );
  // c is 50% slower paired by round, but its rounds alone spread too far to show it unpaired: split, not "differs".
  assert.deepEqual(
    servers!.split.map((d) => [d.stack, d.across]),
    [['c', ['x', 'y']]],
  );
  assert.deepEqual(
    servers!.differs.map((d) => [d.stack, d.across]),
    [['d', ['x', 'y']]],
  );
  assert.deepEqual(servers!.unranked, [{ stack: 's', why: 'no client in common with a' }]);
  // c over a: the mean of the two clients' paired log ratios around the pooled values, its error from each.
  const expected = ratioInterval(
    meanLogRatio([
      logRatio(side(CELLS[4]!), side(CELLS[0]!), true)!,
      logRatio(side(CELLS[5]!), side(CELLS[1]!), true)!,
    ])!,
  );
  const c = servers!.split[0]!;
  assert.deepEqual(c.ratio, expected);
  assert.ok(expected.low > 1.4 && expected.high < 1.6, `${expected.low}..${expected.high}`);
  assert.equal(expected.method, 'paired rounds');
  // The estimate is the pooled values' ratio, whatever the test: the mean of c's values over a's, per client.
  const pooled = Math.sqrt(((22 + 2 / 3) / 15) * ((27 + 1 / 6) / 18));
  assert.ok(Math.abs(c.ratio.ratio - pooled) < 1e-9, `${c.ratio.ratio} is not ${pooled}`);
  assert.ok(c.test.unpaired!.low < 1 && c.test.unpaired!.high > 1, 'unpaired: no difference shown');
  assert.equal(clients!.role, 'client');
  assert.equal(clients!.best, 'x');
});

test('the picks in words, under the table: a leader is named lowest only where every other stack differs', () => {
  const lines = pickFootnotes(P50_INFO, CELLS);
  assert.equal(
    lines[1],
    `what to pick (the pooled values' ratio with its 95 % interval; a difference where the paired-by-round and the unpaired test both find one, "the same" within ±5%, else "cannot tell"):`,
  );
  assert.equal(lines[2], '  servers on p50 ms: lowest not decided between a, b, c');
  assert.match(
    lines[3]!,
    /^ {4}c: the tests disagree against a on p50 ms \(\+5\d% pooled\): paired by round: a difference \(1\.5\d \[1\.4\d, 1\.5\d\]\); unpaired, each cell's rounds on their own: no difference shown \(1\.5\d \[0\.\d\d, \d\.\d\d\]\), across 2 clients: more rounds decide \(--until-decided\)$/,
  );
  assert.match(
    lines[4]!,
    /^ {4}b: the same as a: p50 ms \+\d\.\d% \[[-+]\d\.\d%, \+\d\.\d%\], within ±5%, across 2 clients$/,
  );
  assert.match(lines[5]!, /^ {4}d: p50 ms 2\d\d% \[\d+%, \d+%\] higher than a, across 2 clients$/);
  assert.equal(lines[6], '    s: not ranked (no client in common with a)');
  assert.match(lines[7]!, /^ {2}clients on p50 ms: /);
});

test('with no interval anywhere, nothing is ranked, and the line says how to get intervals', () => {
  const once = (server: string, p50: number) =>
    cell('echo', { server, client: 'ws', metrics: { p50 } }) as MeasuredCell;
  const [servers] = picksOf([once('ws', 646), once('bun', 557)], [['p50', P50_METRICS.p50!]]);
  assert.equal(servers!.best, null);
  const lines = pickFootnotes(P50_INFO, [once('ws', 646), once('bun', 557)]);
  assert.equal(
    lines[2],
    '  servers on p50 ms: nothing can be ranked: no stack has an interval to compare with (--repeat 3 or more gives every key number an interval from its rounds)',
  );
  assert.equal(lines.length, 3, 'no stack is called lowest');
});

test('tie groups: sorted best first, a cell joins the group of the leader it is tied with', () => {
  const item = (c: MeasuredCell) => ({ item: `${c.server} x ${c.client}`, side: side(c) });
  const groups = tieGroups(CELLS.filter((c) => c.client === 'x').map(item), 'lower');
  // c is not shown to differ from a (the tests disagree): it joins a's group; d differs from both.
  assert.deepEqual(
    groups.map((g) => [g.item, g.group]),
    [
      ['a x x', 0],
      ['b x x', 0],
      ['c x x', 0],
      ['d x x', 1],
    ],
  );
  assert.equal(groups[1]!.leaderValue, 15, 'b is coloured as a');
});

/**
 * One test, said once (issue 41): the table's intervals, "what to pick" and
 * `compare --servers` read two cells of one run with the same test. Rounds are
 * built where the paired and the unpaired tests disagree, both ways, and the
 * output must say so in the picks and in compare, and never call the pair tied
 * or unchanged; the estimate every output states is the ratio of the pooled
 * values the table shows. Over many random rounds: table intervals that do not
 * overlap never read as a tie, and no change disagrees in sign with its columns.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MeasuredCell } from '../src/shared/types/result-types.js';
import { picksOf } from '../src/parent/stats/ranking.js';
import { pickFootnotes } from '../src/parent/report/run/pick-text.js';
import { renderTable } from '../src/parent/report/run/table.js';
import { compareServers } from '../src/parent/compare/compare.js';
import { renderComparison } from '../src/parent/compare/compare-text.js';
import { result, seededRandom } from './fixtures/synthetic-results.js';
import { P50_INFO, P50_METRICS, roundsCell } from './fixtures/p50-rounds.js';

/** A cell of one run measured in these rounds; its pooled value their mean (as a pooled rate is), its interval from them. */
const repeated = (server: string, rounds: number[]): MeasuredCell => roundsCell(server, 'ws', rounds);

/** Everything each output says of new (`ws`) against base (`uws`). */
function readings(cells: MeasuredCell[]) {
  const file = { ...result(P50_INFO, cells), repeat: cells[0]!.rounds!.length };
  const [servers] = picksOf(cells, [['p50', P50_METRICS.p50!]]);
  const comparison = compareServers(file, 'uws', 'ws');
  const delta = comparison.cells[0]!.deltas.find((d) => d.key === 'p50')!;
  const [uws, ws] = [cells.find((c) => c.server === 'uws')!, cells.find((c) => c.server === 'ws')!];
  const apart = ws.intervals!.p50!.low > uws.intervals!.p50!.high || uws.intervals!.p50!.low > ws.intervals!.p50!.high;
  return {
    servers: servers!,
    delta,
    apart,
    table: renderTable(file),
    picks: pickFootnotes(P50_INFO, cells).join('\n'),
    compared: renderComparison(comparison, { base: 'uws', next: 'ws' }),
    pooledPct: ((ws.metrics.p50 as number) / (uws.metrics.p50 as number) - 1) * 100,
  };
}

/** Rounds e^(mean ± spread x z): z has mean 0 and standard deviation 1. */
const Z = [-1.2, 1.2, -0.6, 0.6, 0].map((z) => z / Math.sqrt(0.9));
const rounds = (center: number, spread: number, z: number[]): number[] => z.map((x) => center * Math.exp(spread * x));

test('the unpaired test finds a difference the paired one does not: said as a disagreement by the picks and compare', () => {
  // ws reads high in the rounds where uws reads low: their ratio swings round by round, while each cell's own rounds are tight.
  const cells = [
    repeated('uws', rounds(0.01, 0.2, Z)),
    repeated(
      'ws',
      rounds(
        0.01 * Math.exp(0.4),
        0.2,
        Z.map((z) => -z),
      ),
    ),
  ];
  const r = readings(cells);
  const ws = r.servers.split.find((d) => d.stack === 'ws') ?? r.servers.split.find((d) => d.stack === 'uws');
  assert.ok(ws, `split: ${JSON.stringify(r.servers)}`);
  assert.equal(ws.test.ratio.method, 'paired rounds');
  assert.ok(ws.test.ratio.low < 1 && ws.test.ratio.high > 1, 'paired: no difference shown');
  assert.ok(ws.test.unpaired!.low > 1 || ws.test.unpaired!.high < 1, 'unpaired: a difference');
  assert.equal(r.servers.same.length + r.servers.cannotTell.length + r.servers.differs.length, 0);
  assert.match(r.picks, /^ {2}servers on p50 ms: lowest not decided between uws, ws$/m);
  assert.match(
    r.picks,
    /^ {4}ws: the tests disagree against uws on p50 ms \(\+\d+% pooled\): paired by round: no difference shown \(1\.\d\d \[0\.\d\d, \d\.\d\d\]\); unpaired, each cell's rounds on their own: a difference \(1\.\d\d \[1\.\d\d, \d\.\d\d\]\), with the ws client: more rounds decide \(--until-decided\)$/m,
  );
  // compare --servers: the same disagreement (at its level, 95 % shared over its 3 changes), inconclusive, the columns' change.
  assert.equal(r.delta.verdict, 'inconclusive');
  assert.match(
    r.delta.change!.disagreement!,
    /^paired by round: no difference shown \(1\.49 .*; unpaired, each cell's rounds on their own: a difference \(1\.49 /,
  );
  assert.equal(r.delta.change!.estimatePct, r.delta.changePct);
  assert.ok(Math.abs(r.delta.changePct! - r.pooledPct) < 1e-9);
  assert.ok(Math.abs((ws.ratio.ratio - 1) * 100 - r.pooledPct) < 1e-9, 'the picks state the pooled ratio');
  assert.match(
    r.compared,
    /^the paired and the unpaired tests disagree \(inconclusive until more rounds make them agree: run --until-decided\):$/m,
  );
  assert.match(r.compared, /^ {2}echo uws -> ws x ws: p50 ms: paired by round: no difference shown/m);
});

test('the paired test finds a difference the unpaired one does not (the machine drifted): said as a disagreement', () => {
  // Both cells slow down together round by round; ws is 10 % slower in every round.
  const drift = [1, 1.5, 2.2, 3, 1.2];
  const cells = [
    repeated(
      'uws',
      drift.map((d) => 0.01 * d),
    ),
    repeated(
      'ws',
      drift.map((d) => 0.011 * d),
    ),
  ];
  const r = readings(cells);
  assert.equal(r.apart, false, 'the table shows overlapping intervals');
  const ws = r.servers.split[0]!;
  assert.equal(ws.stack, 'ws');
  assert.match(
    ws.test.disagreement!,
    /^paired by round: a difference \(1\.10 \[1\.10, 1\.10\]\); unpaired, each cell's rounds on their own: no difference shown/,
  );
  assert.equal(r.delta.verdict, 'inconclusive');
  assert.ok(r.delta.change!.disagreement);
  assert.match(
    r.delta.change!.method,
    /^paired rounds, t\(4\); paired estimate \+10\.0%, unpaired \[-\d+\.\d%, \+\d+\.\d%\]; the two tests disagree$/,
  );
});

test('where both tests find the difference, the table, the picks and compare say the same, the same way', () => {
  const cells = [
    repeated('uws', rounds(0.01, 0.05, Z)),
    repeated(
      'ws',
      rounds(
        0.015,
        0.05,
        Z.map((z) => z * 0.5),
      ),
    ),
  ];
  const r = readings(cells);
  assert.equal(r.apart, true, 'the table shows intervals apart');
  assert.equal(r.servers.best, 'uws');
  assert.equal(r.servers.differs[0]!.stack, 'ws');
  assert.match(r.picks, /^ {2}servers on p50 ms: uws lowest$/m);
  assert.match(r.picks, /^ {4}ws: p50 ms 50% \[\d\d%, \d\d%\] higher than uws, with the ws client$/m);
  assert.equal(r.delta.verdict, 'regressed');
  assert.equal(r.delta.change!.disagreement, undefined);
  assert.ok(r.delta.change!.lowPct > 0 && r.delta.changePct! > 0);
});

test('over random rounds: intervals apart in the table never read as a tie; no change disagrees in sign with its columns', () => {
  const random = seededRandom(41);
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  let apart = 0;
  for (let i = 0; i < 400; i++) {
    const n = 3 + Math.floor(random() * 6);
    const spread = 0.02 + random() * 0.4;
    const shared = Array.from({ length: n }, () => normal() * random());
    const side = (center: number) =>
      shared.map((s) => center * Math.exp(spread * (s + normal() * random() * 2)) * (1 + random()));
    const cells = [repeated('uws', side(0.01)), repeated('ws', side(0.01 * Math.exp(normal() * 0.5)))];
    const r = readings(cells);
    const base = r.delta.base!;
    const next = r.delta.next!;
    const shown = r.delta.change?.estimatePct ?? r.delta.changePct!;
    assert.equal(Math.sign(shown), Math.sign(next - base), `change ${shown} for ${base} -> ${next}`);
    assert.ok(
      r.delta.change!.lowPct <= shown && shown <= r.delta.change!.highPct,
      'the interval holds the change shown',
    );
    if (!r.apart) continue;
    apart += 1;
    const stands = [...r.servers.same, ...r.servers.cannotTell].map((d) => d.stack);
    assert.deepEqual(stands, [], `intervals apart, yet called a tie: ${r.table}\n${r.picks}`);
    assert.notEqual(r.delta.verdict, 'unchanged');
  }
  assert.ok(apart > 50, `${apart} of 400 pairs had intervals apart`);
});

/**
 * The `cumulative` chart kind: samples at or below each value, one step line
 * per cell, from the merged HDR histogram; exact for a known set of samples,
 * compiled and rendered like every kind; a size histogram is refused with the
 * reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildChartsAndProblems } from '../src/parent/charts/index.js';
import { cumulativeCounts } from '../src/parent/charts/cumulative.js';
import { histogramSeries } from '../src/parent/charts/histograms.js';
import { compileSpec, renderSvg } from '../src/parent/report/html/render-svg.js';
import { isMeasured } from '../src/shared/types/result-types.js';
import { cell, histogramOf, result, scenarioInfo } from './fixtures/synthetic-results.js';

test('ten clients back at 100, 200 .. 1000 ms: the curve steps by one at each', () => {
  const backUs = Array.from({ length: 10 }, (_, i) => (i + 1) * 100_000);
  const c = cell('storm', { server: 'ws', client: 'ws', histograms: { back: histogramOf(backUs) } });
  assert.ok(isMeasured(c));
  const [series] = histogramSeries([c], ['back']);
  const points = cumulativeCounts(series!);
  assert.deepEqual(
    points.map((p) => p.count),
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
  );
  // Each value within the histogram's 0.1 % precision of the sample that completes its count.
  points.slice(1).forEach((p, i) => {
    assert.ok(Math.abs(p.value - (i + 1) * 100) <= (i + 1) * 100 * 0.001, `${p.value} ms for ${p.count}`);
  });
});

test('many samples: at most 200 points, ending at the total and the maximum', () => {
  const valuesUs = Array.from({ length: 5000 }, (_, i) => 1000 + i * 10);
  const c = cell('storm', { server: 'ws', client: 'ws', histograms: { back: histogramOf(valuesUs) } });
  assert.ok(isMeasured(c));
  const points = cumulativeCounts(histogramSeries([c], ['back'])[0]!);
  assert.equal(points.length, 201);
  assert.equal(points.at(-1)!.count, 5000);
  assert.ok(Math.abs(points.at(-1)!.value - 50.99) < 0.06, `last value ${points.at(-1)!.value} ms`);
  for (let i = 1; i < points.length; i++)
    assert.ok(points[i]!.count > points[i - 1]!.count && points[i]!.value >= points[i - 1]!.value, 'rising');
});

test('one step line per cell, compiled without warnings and rendered; a size histogram is not drawn, with the reason', async () => {
  const info = scenarioInfo('storm', {
    metrics: {},
    table: [],
    charts: [
      { kind: 'cumulative', histogram: 'back', title: 'clients back' },
      { kind: 'cumulative', histogram: 'bytes' },
    ],
  });
  const cells = ['ws', 'uws', 'bun'].map((server, s) =>
    cell('storm', {
      server,
      client: 'ws',
      histograms: { back: histogramOf([100_000, 200_000 + s * 1000, 300_000]), bytes: histogramOf([10, 20], 'bytes') },
    }),
  );
  const [drawn] = buildChartsAndProblems(result(info, cells));
  assert.deepEqual(
    drawn!.charts.map((c) => c.name),
    ['storm-cumulative'],
  );
  assert.deepEqual(drawn!.notDrawn, [
    'scenarios[0].charts[1] (cumulative): not drawn: histogram "bytes" holds sizes, not latencies',
  ]);
  const chart = drawn!.charts[0]!;
  assert.deepEqual(compileSpec(chart.spec).warnings, []);
  const svg = await renderSvg(chart.spec);
  assert.equal(svg.split('aria-roledescription="line mark"').length - 1, cells.length, 'one line per cell');
  assert.ok(svg.includes('back samples at or below (count)') && svg.includes('back (ms)'), 'axes name their units');
});

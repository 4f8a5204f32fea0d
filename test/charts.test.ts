/**
 * Each chart kind compiles with vega-lite without warnings and renders to SVG
 * with one mark per thing drawn, from synthetic results whose contents the test
 * knows. Scenario, metric, histogram and parameter names are made up on purpose:
 * charts follow the declarations in the JSON, never a name. A kind whose data a
 * result lacks draws nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCharts } from '../src/parent/charts/index.js';
import type { ChartSpec } from '../src/parent/charts/index.js';
import { compileSpec, renderSvg } from '../src/parent/report/html/render-svg.js';
import type {
  ChartRequest,
  MetricInfo,
  MetricRole,
  MetricUnit,
  ParameterInfo,
} from '../src/shared/types/declaration-types.js';
import { isMeasured, type BenchResult, type CellResult } from '../src/shared/types/result-types.js';
import { cell, exponentialHistogram, result, scenarioInfo } from './fixtures/synthetic-results.js';

const PAIRS = [
  ['ws', 'ws'],
  ['uws', 'undici'],
] as const;

function metric(
  header: string,
  unit: MetricUnit,
  role: MetricRole,
  source: MetricInfo['source'],
  better: MetricInfo['better'] = 'lower',
): MetricInfo {
  return { header, unit, better, role, source };
}

/** One scenario with the given declarations and cells. */
function run(
  name: string,
  charts: ChartRequest[],
  cells: CellResult[],
  metrics: Record<string, MetricInfo> = {},
  parameters: Record<string, ParameterInfo> = {},
): BenchResult {
  return result(scenarioInfo(name, { metrics, table: Object.keys(metrics), charts, parameters }), cells);
}

function chartsOf(r: BenchResult): Map<string, ChartSpec> {
  return new Map(
    buildCharts(r)
      .flatMap((s) => s.charts)
      .map((c) => [c.name, c]),
  );
}

/** Marks vega drew, by the role description it gives each item ("line mark", "bar", "tick", "rect mark"...). */
function countMarks(svg: string, role: string): number {
  return svg.split(`aria-roledescription="${role}"`).length - 1;
}

/** Every quantitative axis or colour-legend title that is set carries a unit in parentheses, and there is at least one. */
function assertUnits(chart: ChartSpec): void {
  const titles: string[] = [];
  JSON.stringify(chart.spec, (key, value: unknown) => {
    if ((key === 'x' || key === 'y' || key === 'color') && value && typeof value === 'object') {
      const def = value as { type?: string; title?: unknown; axis?: { title?: unknown } | null };
      const title = def.axis?.title ?? def.title;
      if (def.type === 'quantitative' && typeof title === 'string') titles.push(title);
    }
    return value;
  });
  assert.ok(titles.length > 0, `${chart.name} has a titled quantitative axis or legend`);
  for (const title of titles) assert.match(title, /\(.+\)/, `${chart.name}: axis "${title}" names its unit`);
}

/** Compiles without warnings, names units and the machine, inlines its data, renders: the SVG. */
async function rendered(charts: Map<string, ChartSpec>, name: string, r: BenchResult): Promise<string> {
  const chart = charts.get(name);
  assert.ok(chart, `chart ${name} missing; have ${[...charts.keys()].join(', ')}`);
  assert.match(chart.name, /^[a-z0-9]+(-[a-z0-9]+)*$/, 'file-name safe');
  assert.deepEqual(compileSpec(chart.spec).warnings, [], `${name} compiles without warnings`);
  assertUnits(chart);
  const subtitle = JSON.stringify((chart.spec.title as { subtitle: string[] }).subtitle);
  for (const part of [r.environment.cpuModel, `${r.environment.cpuCores} cores`, r.environment.node]) {
    assert.ok(subtitle.includes(part), `${name} subtitle names ${part}`);
  }
  assert.ok(JSON.stringify(chart.spec.data ?? {}).includes('values'), `${name} inlines its data`);
  assert.ok(!/"url"\s*:/.test(JSON.stringify(chart.spec)), `${name} loads nothing`);
  const svg = await renderSvg(chart.spec);
  assert.match(svg, /^<svg[^>]+width="\d+"/);
  return svg;
}

/** Adds a cumulative time series to a measured cell. */
function withSeries(
  c: CellResult,
  points: Array<{
    tMs: number;
    counters: Record<string, number>;
    latency?: Record<string, { count: number; p50Ms: number; p99Ms: number; maxMs: number }>;
  }>,
): CellResult {
  assert.ok(isMeasured(c));
  c.measurements.timeSeries = { intervalMs: 1000, points: points.map((p) => ({ latency: {}, ...p })) };
  return c;
}

test('percentiles: one line per cell in each histogram panel, server-side histograms too; skipped cells draw nothing', async () => {
  const r = run(
    'zeta',
    [{ kind: 'percentiles', histograms: ['hop', { histogram: 'turn', side: 'server' }] }],
    [
      ...PAIRS.map(([server, client], p) =>
        cell('zeta', {
          server,
          client,
          histograms: { hop: exponentialHistogram(2000, 500, p) },
          serverHistograms: { turn: exponentialHistogram(500, 100, p + 5) },
        }),
      ),
      cell('zeta', { server: 'ws', client: 'sio', status: 'skipped' }),
    ],
  );
  const charts = chartsOf(r);
  assert.deepEqual([...charts.keys()], ['zeta-percentiles']);
  const svg = await rendered(charts, 'zeta-percentiles', r);
  assert.equal(countMarks(svg, 'line mark'), PAIRS.length * 2);
  assert.ok(svg.includes('turn (server) (ms, log scale)'));
});

test('heatmap: a square per cell and metric, a row per variant, legends titled with header and unit', async () => {
  const metrics = {
    waitA: metric('wait p50 ms', 'ms', 'primary-latency', { histogram: 'wait', stat: 'p50' }),
    flow: metric('flow', 'msg/s', 'primary-rate', { counter: 'got', as: 'rate' }, 'higher'),
  };
  const cells = [16, 4096].flatMap((blob, v) =>
    PAIRS.map(([server, client], p) =>
      cell('qux', {
        server,
        client,
        params: { blob },
        metrics: { waitA: 0.5 + v + p, flow: p === 0 ? 0 : 1000 * (v + 1) },
      }),
    ),
  );
  const r = run('qux', [{ kind: 'heatmap', metrics: ['waitA', 'flow', 'undeclared'] }], cells, metrics);
  const charts = chartsOf(r);
  const svg = await rendered(charts, 'qux-heatmap', r);
  assert.equal(countMarks(svg, 'rect mark'), cells.length * 2);
  for (const text of ['wait p50 (ms)', 'flow (msg/s)', 'blob=16', 'blob=4096'])
    assert.ok(svg.includes(text), `heatmap shows ${text}`);
});

test('over-time: per-interval p50/p99/max per cell, and counter rates as the declared metrics say', async () => {
  const metrics = {
    inRate: metric('in', '/s', 'primary-rate', { counter: 'arrived', as: 'rate' }, 'higher'),
    volume: metric('volume', 'MB/s', 'progress', { counter: 'octets', as: 'rate', scale: 1e-6 }, 'higher'),
    total: metric('arrived', 'count', 'detail', { counter: 'arrived' }, 'none'),
  };
  const cells = PAIRS.map(([server, client], p) =>
    withSeries(
      cell('blip', { server, client }),
      [1, 2, 3].map((t) => ({
        tMs: t * 1000,
        counters: { arrived: t * 1000 * (p + 1), octets: t * 3e6 },
        latency: { lag: { count: 10, p50Ms: 0.1 * t, p99Ms: 0.5 * t, maxMs: t } },
      })),
    ),
  );
  const r = run(
    'blip',
    [{ kind: 'over-time', histogram: 'lag', rates: ['inRate', 'volume', 'total'] }],
    cells,
    metrics,
  );
  const charts = chartsOf(r);
  assert.deepEqual([...charts.keys()], ['blip-over-time', 'blip-over-time-2']);
  assert.equal(
    countMarks(await rendered(charts, 'blip-over-time', r), 'line mark'),
    PAIRS.length * 3,
    'p50, p99 and max per cell',
  );
  const rates = await rendered(charts, 'blip-over-time-2', r);
  assert.equal(countMarks(rates, 'line mark'), PAIRS.length * 2, 'only the counter-rate metrics, per cell');
  assert.ok(rates.includes('in (/s)') && rates.includes('volume (MB/s)'));
  const values = (charts.get('blip-over-time-2')!.spec.data as { values: Array<{ metric: string; value: number }> })
    .values;
  assert.deepEqual(
    [...new Set(values.filter((v) => v.metric === 'inRate').map((v) => v.value))].sort(),
    [1000, 2000],
    'difference per interval',
  );
  assert.deepEqual([...new Set(values.filter((v) => v.metric === 'volume').map((v) => v.value))], [3], 'scaled');
});

test('grid: percentile curves and mean bars per rows x columns combination, label metric above the bars', async () => {
  const parameters: Record<string, ParameterInfo> = {
    hold: { kind: 'duration', description: 'made up', default: 0 },
    lane: { kind: 'choice', description: 'made up', default: 'wide', choices: ['wide', 'narrow'] },
  };
  const metrics = { lost: metric('lost', 'count', 'errors', { counter: 'lost' }) };
  const cells = [0, 10].flatMap((hold, d) =>
    ['wide', 'narrow'].map((lane, q) =>
      cell('plop', {
        server: 'ws',
        client: 'ws',
        params: { hold, lane, other: 1 },
        histograms: { trip: exponentialHistogram(1500, 1000, d * 2 + q, hold * 1000) },
        metrics: { lost: q },
      }),
    ),
  );
  const r = run(
    'plop',
    [{ kind: 'grid', rows: 'hold', columns: 'lane', histogram: 'trip', label: 'lost' }],
    cells,
    metrics,
    parameters,
  );
  const charts = chartsOf(r);
  const curves = await rendered(charts, 'plop-grid', r);
  assert.equal(countMarks(curves, 'line mark'), 4);
  for (const label of ['hold=0ms', 'hold=10ms', 'lane=wide', 'lane=narrow'])
    assert.ok(curves.includes(label), `grid shows ${label}`);
  const means = await rendered(charts, 'plop-grid-2', r);
  assert.equal(countMarks(means, 'bar'), 4);
  assert.equal(countMarks(means, 'tick'), 4);
  assert.equal(countMarks(means, 'rule mark'), 4);
  assert.ok(means.includes('lost 1') && means.includes('lost 0'));
});

test('by-parameter, numeric: lines over a log x axis, one panel per unit, errors on symlog', async () => {
  const parameters: Record<string, ParameterInfo> = { crowd: { kind: 'integer', description: 'made up', default: 10 } };
  const metrics = {
    slowA: metric('lag p50 ms', 'ms', 'primary-latency', { histogram: 'lag', stat: 'p50' }),
    slowB: metric('lag p99 ms', 'ms', 'primary-latency', { histogram: 'lag', stat: 'p99' }),
    slowC: metric('lag max ms', 'ms', 'detail', { histogram: 'lag', stat: 'max' }),
    oops: metric('oops', 'count', 'errors', { counter: 'oops' }),
    gone: metric('gone', 'count', 'errors', { counter: 'gone' }),
  };
  const ladder = [10, 100, 1000];
  const cells = PAIRS.flatMap(([server, client], p) =>
    ladder.map((crowd, i) =>
      cell('wibble', {
        server,
        client,
        params: { crowd },
        metrics: { slowA: 1 + i, slowB: 5 + i, slowC: 9 + i + p, oops: i, gone: 0 },
      }),
    ),
  );
  const r = run(
    'wibble',
    [{ kind: 'by-parameter', parameter: 'crowd', metrics: Object.keys(metrics) }],
    cells,
    metrics,
    parameters,
  );
  const charts = chartsOf(r);
  const svg = await rendered(charts, 'wibble-by-parameter', r);
  assert.equal(countMarks(svg, 'line mark'), PAIRS.length * 5);
  assert.equal(countMarks(svg, 'point'), PAIRS.length * 5 * ladder.length);
  const spec = JSON.stringify(charts.get('wibble-by-parameter')!.spec);
  assert.ok(spec.includes('"symlog"') && spec.includes('crowd (count, log scale)'));
  assert.ok(svg.includes('oops, gone (count, symlog scale)'));

  const flat = chartsOf(
    run('wibble', [{ kind: 'by-parameter', parameter: 'crowd', metrics: ['oops'] }], [cells[0]!], metrics, parameters),
  );
  assert.equal(
    countMarks(await renderSvg(flat.get('wibble-by-parameter')!.spec), 'bar'),
    1,
    'one value: a bar, not a line',
  );
});

test('by-parameter, words: grouped bars for metrics, box plots and means for histograms, a panel per value', async () => {
  const parameters: Record<string, ParameterInfo> = {
    style: { kind: 'choice', description: 'made up', default: 'calm', choices: ['calm', 'wild'] },
  };
  const metrics = { speed: metric('speed', 'msg/s', 'primary-rate', { counter: 'moved', as: 'rate' }, 'higher') };
  const cells = ['calm', 'wild'].flatMap((style, s) =>
    PAIRS.map(([server, client], p) =>
      cell('frob', {
        server,
        client,
        params: { style },
        metrics: { speed: 100 * (s + p + 1) },
        histograms: { near: exponentialHistogram(300, 500, s + p), far: exponentialHistogram(300, 50_000, s + p + 7) },
      }),
    ),
  );
  const r = run(
    'frob',
    [{ kind: 'by-parameter', parameter: 'style', metrics: ['speed'], histograms: ['near', 'far'] }],
    cells,
    metrics,
    parameters,
  );
  const charts = chartsOf(r);
  assert.deepEqual([...charts.keys()], ['frob-by-parameter', 'frob-by-parameter-2', 'frob-by-parameter-3']);
  assert.equal(countMarks(await rendered(charts, 'frob-by-parameter', r), 'bar'), cells.length);
  const box = await rendered(charts, 'frob-by-parameter-2', r);
  assert.equal(countMarks(box, 'bar'), cells.length * 2);
  assert.equal(countMarks(box, 'tick'), cells.length * 2);
  assert.equal(countMarks(box, 'rule mark'), cells.length * 2);
  for (const label of ['style=calm', 'style=wild', '>near<', '>far<'])
    assert.ok(box.includes(label), `box plot shows ${label}`);
  assert.equal(countMarks(await rendered(charts, 'frob-by-parameter-3', r), 'bar'), cells.length * 2);
});

test('sizes: a step line per cell from a size histogram; a latency histogram is no size distribution', async () => {
  const cells = PAIRS.map(([server, client], p) =>
    cell('glob', {
      server,
      client,
      histograms: {
        bulk: { ...exponentialHistogram(4000, 200, p, 1), unit: 'bytes' },
        lag: exponentialHistogram(100, 100, p),
      },
    }),
  );
  const r = run(
    'glob',
    [
      { kind: 'sizes', histogram: 'bulk' },
      { kind: 'sizes', histogram: 'lag' },
    ],
    cells,
  );
  const charts = chartsOf(r);
  assert.deepEqual([...charts.keys()], ['glob-sizes']);
  const svg = await rendered(charts, 'glob-sizes', r);
  assert.equal(countMarks(svg, 'line mark'), PAIRS.length);
  assert.ok(svg.includes('bulk (bytes, log scale)'));
});

test('resources: server CPU (mean bar, max tick) and peak RSS per measured cell', async () => {
  const cells = [
    ...PAIRS.map(([server, client]) => cell('hum', { server, client })),
    cell('hum', { server: 'a', client: 'b', status: 'skipped' }),
  ];
  const r = run('hum', [{ kind: 'resources' }], cells);
  const charts = chartsOf(r);
  const svg = await rendered(charts, 'hum-resources', r);
  assert.equal(countMarks(svg, 'bar'), PAIRS.length * 2);
  assert.equal(countMarks(svg, 'tick'), PAIRS.length);
});

test('every kind draws nothing when the result lacks its data', () => {
  const bare = cell('void', { server: 'ws', client: 'ws', params: { knob: 1 } });
  assert.ok(isMeasured(bare));
  bare.resources.server = null;
  const metrics = {
    m: metric('m', 'ms', 'primary-latency', { histogram: 'h', stat: 'p50' }),
    r: metric('r', '/s', 'primary-rate', { counter: 'c', as: 'rate' }),
  };
  const requests: ChartRequest[] = [
    { kind: 'percentiles', histograms: ['h'] },
    { kind: 'heatmap', metrics: ['m'] },
    { kind: 'over-time', histogram: 'h', rates: ['r'] },
    { kind: 'grid', rows: 'knob', columns: 'dial', histogram: 'h', label: 'm' },
    { kind: 'by-parameter', parameter: 'knob', metrics: ['m'], histograms: ['h'] },
    { kind: 'sizes', histogram: 'h' },
    { kind: 'resources' },
  ];
  const failed = cell('void', { server: 'ws', client: 'uws', status: 'skipped' });
  const emptyHistogram = cell('void', {
    server: 'uws',
    client: 'ws',
    histograms: { h: exponentialHistogram(0, 1, 1) },
    metrics: { m: null },
  });
  assert.ok(isMeasured(emptyHistogram));
  emptyHistogram.resources.server = null;
  assert.deepEqual(buildCharts(run('void', requests, [bare, failed, emptyHistogram], metrics)), [
    { scenario: 'void', charts: [] },
  ]);
  assert.deepEqual(buildCharts(run('void', requests, [], metrics)), [{ scenario: 'void', charts: [] }]);
});

test('a user scenario with one chart request gets exactly that chart, whatever it is called', async () => {
  const metrics = { zorp: metric('zorp index', 'ratio', 'primary-rate', { custom: 'made up' }, 'higher') };
  const r = run(
    'My Own Thing!',
    [{ kind: 'heatmap', metrics: ['zorp'], title: 'zorps' }],
    PAIRS.map(([server, client], p) =>
      cell('My Own Thing!', {
        server,
        client,
        metrics: { zorp: 0.25 * (p + 1) },
        histograms: { hop: exponentialHistogram(100, 100, p) },
      }),
    ),
    metrics,
  );
  const built = buildCharts(r);
  assert.deepEqual(
    built.map((s) => [s.scenario, s.charts.map((c) => c.name)]),
    [['My Own Thing!', ['my-own-thing-heatmap']]],
  );
  const charts = chartsOf(r);
  const svg = await rendered(charts, 'my-own-thing-heatmap', r);
  assert.equal(countMarks(svg, 'rect mark'), PAIRS.length);
  assert.ok(svg.includes('zorp index (ratio)') && svg.includes('My Own Thing!: zorps'));
});

/**
 * Every scenario's charts compile with vega-lite without warnings and render
 * to SVG with one mark per thing drawn, from fixtures whose contents the test
 * knows; charts whose data a result lacks are left out, not drawn empty.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCharts } from '../src/report/charts/index.js';
import type { ChartSpec } from '../src/report/charts/common.js';
import { compileSpec, renderSvg } from '../src/report/render-svg.js';
import type { BenchResult } from '../src/result-types.js';
import { REPO_ROOT } from './support.js';
import { cell, exponentialHistogram, result } from './fixtures/synthetic-results.js';

const realEcho = JSON.parse(readFileSync(join(REPO_ROOT, 'test/fixtures/echo-run.json'), 'utf8')) as BenchResult;

function chartsOf(r: BenchResult): Map<string, ChartSpec> {
  return new Map(buildCharts(r).flatMap((s) => s.charts).map((c) => [c.name, c]));
}

/** Marks vega drew, by the role description it gives each item ("line mark", "bar", "tick", "rect mark"...). */
function countMarks(svg: string, role: string): number {
  return svg.split(`aria-roledescription="${role}"`).length - 1;
}

async function rendered(charts: Map<string, ChartSpec>, name: string): Promise<string> {
  const chart = charts.get(name);
  assert.ok(chart, `chart ${name} missing; have ${[...charts.keys()].join(', ')}`);
  assert.deepEqual(compileSpec(chart.spec).warnings, [], `${name} compiles without warnings`);
  const svg = await renderSvg(chart.spec);
  assert.match(svg, /^<svg[^>]+width="\d+"/);
  return svg;
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

function assertMachine(chart: ChartSpec, r: BenchResult): void {
  const subtitle = JSON.stringify((chart.spec.title as { subtitle: string[] }).subtitle);
  for (const part of [r.environment.cpuModel, `${r.environment.cpuCores} cores`, r.environment.node]) {
    assert.ok(subtitle.includes(part), `${chart.name} subtitle names ${part}`);
  }
}

test('echo (real run): heatmap has a square per pair and statistic, percentile curve a line per cell', async () => {
  const charts = chartsOf(realEcho);
  const ok = realEcho.cells.filter((c) => c.status === 'ok');
  assert.deepEqual([...charts.keys()], ['echo-heatmap', 'echo-percentiles', 'echo-throughput', 'echo-server-resources']);
  assert.equal(countMarks(await rendered(charts, 'echo-heatmap'), 'rect mark'), ok.length * 2);
  assert.equal(countMarks(await rendered(charts, 'echo-percentiles'), 'line mark'), ok.length);
  const rates = Object.keys(ok[0]!.metrics!).filter((k) => k.endsWith('PerSec')).length;
  assert.equal(countMarks(await rendered(charts, 'echo-throughput'), 'bar'), ok.length * rates);
  const resources = await rendered(charts, 'echo-server-resources');
  assert.equal(countMarks(resources, 'bar'), ok.length * 2);
  assert.equal(countMarks(resources, 'tick'), ok.length);
  for (const chart of charts.values()) {
    assertUnits(chart);
    assertMachine(chart, realEcho);
    assert.ok(JSON.stringify(chart.spec.data ?? {}).includes('values'), `${chart.name} inlines its data`);
    assert.ok(!/"url"\s*:/.test(JSON.stringify(chart.spec)), `${chart.name} loads nothing`);
  }
});

const pairs = [['ws', 'ws'], ['uws', 'undici']] as const;

test('push-vs-poll: a box and a mean bar per transport, test and pair', async () => {
  const names = ['wsContinuous', 'restContinuous', 'wsSustained', 'restSustained'];
  const r = result('push-vs-poll', [], pairs.map(([server, client], p) =>
    cell('push-vs-poll', { server, client, histograms: Object.fromEntries(names.map((n, i) => [n, exponentialHistogram(2000, n.startsWith('rest') ? 50_000 : 500, 10 * p + i)])) }),
  ));
  const charts = chartsOf(r);
  const box = await rendered(charts, 'push-vs-poll-box');
  assert.equal(countMarks(box, 'bar'), pairs.length * names.length);
  assert.equal(countMarks(box, 'tick'), pairs.length * names.length);
  assert.equal(countMarks(box, 'rule mark'), pairs.length * names.length);
  for (const label of ['WebSocket push', 'REST polling', 'continuous', 'sustained']) assert.ok(box.includes(label), `box plot shows ${label}`);
  assert.equal(countMarks(await rendered(charts, 'push-vs-poll-means'), 'bar'), pairs.length * names.length);
  for (const chart of charts.values()) assertUnits(chart);
});

test('push-vs-poll as the scenario records it: histograms ws and rest, the test swept as a parameter', async () => {
  const tests = ['continuous', 'sustained'];
  const r = result('push-vs-poll', [{ key: 'wsP50Ms', header: 'WS p50' }], tests.flatMap((t, i) => pairs.map(([server, client], p) =>
    cell('push-vs-poll', { server, client, params: { test: t, pollInterval: 50 }, histograms: { ws: exponentialHistogram(200, 500, i * 2 + p), rest: exponentialHistogram(200, 25_000, i * 2 + p + 7) } }),
  )));
  const charts = chartsOf(r);
  const box = await rendered(charts, 'push-vs-poll-box');
  assert.equal(countMarks(box, 'bar'), tests.length * pairs.length * 2);
  for (const label of ['WebSocket push', 'REST polling', ...tests]) assert.ok(box.includes(`>${label}<`), `box plot shows ${label}`);
});

test('ticker-orders: one panel per pair with a line per histogram (no time series in results)', async () => {
  const r = result('ticker-orders', [{ key: 'orderRttP99Ms', header: 'p99' }], pairs.map(([server, client], p) =>
    cell('ticker-orders', {
      server,
      client,
      histograms: { orderRtt: exponentialHistogram(3000, 800, p), tickDelay: exponentialHistogram(3000, 300, p + 5) },
      serverHistograms: { tickTimerLag: exponentialHistogram(500, 100, p + 9) },
    }),
  ));
  const charts = chartsOf(r);
  assert.equal(countMarks(await rendered(charts, 'ticker-orders-per-pair'), 'line mark'), pairs.length * 3);
  assert.equal(countMarks(await rendered(charts, 'ticker-orders-percentiles'), 'line mark'), pairs.length * 3);
  assert.match(charts.get('ticker-orders-per-pair')!.caption, /no time series/);
});

test('chat: the 2 x 2 treatment grid, and nothing chat-specific without the treatments', async () => {
  const cells = [0, 10].flatMap((moderatorDelay, d) => ['unlimited', 'bounded'].map((queue, q) =>
    cell('chat', {
      server: 'ws',
      client: 'ws',
      params: { members: 4, moderatorDelay, queue },
      histograms: { latency: exponentialHistogram(1500, 1000, d * 2 + q, moderatorDelay * 1000) },
      metrics: { dropped: q, latencyP50Ms: 1 },
    }),
  ));
  const columns = [{ key: 'latencyP50Ms', header: 'p50 ms' }];
  const charts = chartsOf(result('chat', columns, cells));
  const grid = await rendered(charts, 'chat-treatments');
  assert.equal(countMarks(grid, 'line mark'), 4);
  for (const label of ['moderator delay 0 ms', 'moderator delay 10 ms', 'queue unlimited', 'queue bounded']) assert.ok(grid.includes(label), `grid shows ${label}`);
  const means = await rendered(charts, 'chat-treatment-means');
  assert.equal(countMarks(means, 'bar'), 4);
  assert.ok(means.includes('dropped 1') && means.includes('dropped 0'));

  const untreated = chartsOf(result('chat', columns, [cell('chat', { server: 'ws', client: 'ws', histograms: { latency: exponentialHistogram(100, 1000, 1) } })]));
  assert.deepEqual([...untreated.keys()].filter((n) => n.includes('treatment')), []);
  assert.ok(untreated.has('chat-percentiles'));
});

test('fanout: delay percentiles and errors against client count', async () => {
  const ladder = [10, 100, 1000];
  const cells = pairs.flatMap(([server, client], p) => ladder.map((connections, i) =>
    cell('fanout', {
      server,
      client,
      params: { connections, interval: 100 },
      histograms: { delay: exponentialHistogram(500, 200 * (i + 1), p * 10 + i) },
      metrics: { errors: i, connectFailed: 0, dropped: i, missing: 0, delayP50Ms: 1 },
    }),
  ));
  const charts = chartsOf(result('fanout', [{ key: 'delayP50Ms', header: 'p50' }], cells));
  const delay = await rendered(charts, 'fanout-delay-vs-clients');
  assert.equal(countMarks(delay, 'line mark'), pairs.length * 3);
  assert.equal(countMarks(delay, 'point'), pairs.length * 3 * ladder.length);
  assert.equal(countMarks(await rendered(charts, 'fanout-errors-vs-clients'), 'line mark'), pairs.length * 4);

  const flat = chartsOf(result('fanout', [], [cells[0]!]));
  assert.ok(!flat.has('fanout-delay-vs-clients'), 'one client count draws no curve against client count');
});

test('firehose: message sizes when a size histogram exists, left out when not', async () => {
  const withSizes = chartsOf(result('firehose', [], pairs.map(([server, client], p) =>
    cell('firehose', { server, client, histograms: { messageBytes: { ...exponentialHistogram(4000, 200, p, 1), unit: 'bytes' } }, metrics: { messagesPerSec: 1000, rxBytesPerSec: 2e5 } }),
  )));
  assert.equal(countMarks(await rendered(withSizes, 'firehose-message-sizes'), 'line mark'), pairs.length);
  assert.equal(countMarks(await rendered(withSizes, 'firehose-throughput'), 'bar'), pairs.length * 2);
  const without = chartsOf(result('firehose', [], [cell('firehose', { server: 'ws', client: 'ws', metrics: { messagesPerSec: 1000 } })]));
  assert.deepEqual([...without.keys()], ['firehose-throughput', 'firehose-server-resources']);

  // As the scenario records it: min / avg / max size metrics, bytes and megabytes per second both.
  const ranges = chartsOf(result('firehose', [], pairs.map(([server, client]) =>
    cell('firehose', { server, client, metrics: { messagesPerSec: 1000, bytesPerSec: 2e5, megabytesPerSec: 0.2, messageBytesMin: 1, messageBytesAvg: 208, messageBytesMax: 78_000 } }),
  )));
  const sizes = await rendered(ranges, 'firehose-message-sizes');
  assert.equal(countMarks(sizes, 'rule mark'), pairs.length);
  assert.equal(countMarks(sizes, 'point'), pairs.length);
  const rates = await rendered(ranges, 'firehose-throughput');
  assert.equal(countMarks(rates, 'bar'), pairs.length * 2, 'megabytesPerSec is not drawn twice');
  assert.ok(rates.includes('bytesPerSec (MB/s)'));
});

test('a scenario with no builder of its own still gets the generic charts; skipped cells draw nothing', async () => {
  const r = result('my-scenario', [], [
    cell('my-scenario', { server: 'ws', client: 'ws', histograms: { hop: exponentialHistogram(100, 100, 3) } }),
    cell('my-scenario', { server: 'ws', client: 'socketio', status: 'skipped' }),
  ]);
  const charts = chartsOf(r);
  assert.deepEqual([...charts.keys()], ['my-scenario-percentiles', 'my-scenario-server-resources']);
  assert.equal(countMarks(await rendered(charts, 'my-scenario-percentiles'), 'line mark'), 1);
});

test('over time: per-interval latency (p50, p99, max) per cell and receive rates, from the time series', async () => {
  const withSeries = pairs.map(([server, client], p) => {
    const c = cell('firehose', { server, client, metrics: { messagesPerSec: 1000 } });
    const points = [1, 2, 3].map((t) => ({
      tMs: t * 1000,
      counters: { received: t * 1000 * (p + 1), rxBytes: t * 2e5 },
      latency: { assembly: { count: 10, p50Ms: 0.1 * t, p99Ms: 0.5 * t, maxMs: t } },
    }));
    c.measurements!.timeSeries = { intervalMs: 1000, points };
    return c;
  });
  const charts = chartsOf(result('firehose', [{ key: 'assemblyP50Ms', header: 'asm' }], withSeries));
  const latency = await rendered(charts, 'firehose-latency-over-time');
  assert.equal(countMarks(latency, 'line mark'), pairs.length * 3, 'p50, p99 and max per cell');
  const rates = await rendered(charts, 'firehose-rate-over-time');
  assert.equal(countMarks(rates, 'line mark'), pairs.length * 2, 'msg/s and MB/s per cell');
  assertUnits(charts.get('firehose-rate-over-time')!);
  const spec = JSON.stringify(charts.get('firehose-rate-over-time')!.spec);
  assert.ok(spec.includes('"value":1000') && spec.includes('"value":2000'), 'rates are per-interval differences of the cumulative counters');
  assert.ok(!chartsOf(result('firehose', [], [cell('firehose', { server: 'ws', client: 'ws' })])).has('firehose-rate-over-time'), 'no series, no chart');
});

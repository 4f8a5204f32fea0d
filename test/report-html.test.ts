/**
 * report.html stands alone: every chart inline as SVG, the environment and
 * the cell table present, and no reference to anything outside the file
 * (no URL at all, no script, no stylesheet or font import). Its table holds
 * the same strings as the terminal's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeArtifacts } from '../src/parent/report/html/artifacts.js';
import { buildCharts } from '../src/parent/charts/index.js';
import { renderHtml } from '../src/parent/report/html/html.js';
import { renderTable } from '../src/parent/report/run/table.js';
import { readResultFile } from '../src/parent/results/result-file.js';
import { histogramStat, NO_SAMPLES } from '../src/parent/measure/metric-values.js';
import type { BenchResult, MeasuredCell } from '../src/shared/types/result-types.js';
import { cell, exponentialHistogram, result as syntheticResult, scenarioInfo } from './fixtures/synthetic-results.js';
import { REPO_ROOT, tempDir } from './support.js';
import { latencyMetric, rateMetric } from './fixtures/metric-declarations.js';

const result = readResultFile(join(REPO_ROOT, 'test/fixtures/echo-run.json'));

/** A result with what a table can hold: a swept duration, a failed cell, a value with no samples, a skipped pair. */
function mixedResult(): BenchResult {
  const scenario = scenarioInfo('delays', {
    parameters: { delay: { kind: 'duration', description: 'reply delay', default: 0, sweepable: true } },
    metrics: {
      rttP50Ms: latencyMetric('rtt', 'p50'),
      lateP99Ms: {
        header: 'late p99 ms',
        unit: 'ms',
        better: 'lower',
        role: 'detail',
        source: { histogram: 'late', stat: 'p99' },
      },
      messagesPerSec: rateMetric(),
    },
    table: ['rttP50Ms', 'lateP99Ms', 'messagesPerSec'],
    charts: [],
  });
  const measured = (delay: number, seed: number, status: 'ok' | 'failed' = 'ok'): MeasuredCell => {
    const rtt = exponentialHistogram(500, 300 + delay * 1000, seed);
    const c = cell('delays', {
      server: 'ws',
      client: 'ws',
      params: { delay },
      histograms: { rtt },
      metrics: { rttP50Ms: histogramStat(rtt, 'p50'), lateP99Ms: null, messagesPerSec: 1234.5 + seed },
      status,
    }) as MeasuredCell;
    c.missing = { lateP99Ms: NO_SAMPLES };
    return c;
  };
  return syntheticResult(scenario, [
    measured(0, 1),
    measured(10, 2),
    measured(20, 3, 'failed'),
    {
      scenario: 'delays',
      server: 'uws',
      client: 'ws',
      params: { delay: 0 },
      status: 'failed',
      reason: 'server <did> not start',
      elapsedMs: 10,
    },
    {
      scenario: 'delays',
      server: 'ws',
      client: 'socketio',
      params: { delay: 0 },
      status: 'skipped',
      reason: 'protocols differ',
      elapsedMs: 0,
    },
  ]);
}

const unescaped = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

test('the HTML table holds the terminal table: same headers, same strings, one statistic per cell', () => {
  const mixed = mixedResult();
  const html = renderHtml(mixed, []);
  const terminal = renderTable(mixed).split('\n');
  const header = terminal[1]!.trim().split(/\s{2,}/);
  assert.deepEqual(header, [
    'delay',
    'server',
    'client',
    'status',
    'p50 ms',
    'late p99 ms',
    'msg/s',
    'srv CPU%',
    'srv RSS MB',
  ]);
  const terminalRows = terminal.slice(2, 6).map((line) => line.trim().split(/\s{2,}/));
  const thead = [...html.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => unescaped(m[1]!));
  assert.deepEqual(thead, header);
  const htmlRows = [...html.matchAll(/<tr>(<td(?! class="text failed" colspan)[\s\S]*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((c) => unescaped(c[1]!)),
  );
  assert.deepEqual(htmlRows, terminalRows);
  assert.deepEqual(
    terminalRows.map((r) => r[0]),
    ['0ms', '10ms', '20ms', '0ms'],
    'durations with their unit',
  );
  assert.equal(terminalRows[0]![5], 'no samples');
  assert.equal(terminalRows[3]!.at(-1), 'server <did> not start');
  assert.ok(html.includes('server &lt;did&gt; not start'), 'text is escaped');
  assert.ok(html.includes('protocols differ'), 'the footer is in the page too');
});

test('report.html has no URL at all, even with SVG namespaces, and ids stay unique per chart', () => {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10"><defs><linearGradient id="gradient_0"/></defs><rect fill="url(#gradient_0)"/></svg>';
  const mixed = mixedResult();
  const chart = (name: string) => ({ chart: { name, caption: `${name} caption`, spec: {} as never }, svg });
  const html = renderHtml(mixed, [{ scenario: 'delays', charts: [chart('delays-a'), chart('delays-b')] }]);
  assert.doesNotMatch(html, /https?:\/\//i);
  assert.doesNotMatch(html, /<script\b|<link\b|\b(src|href)\s*=/i);
  const ids = [...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(new Set(ids).size, ids.length);
  for (const [, target] of html.matchAll(/url\(#([^)]+)\)/g))
    assert.ok(ids.includes(target!), `url(#${target}) points into the page`);
});

test('report.html has every chart inline and no external reference', async () => {
  const dir = tempDir();
  const written = await writeArtifacts(result, join(dir, 'results.json'), { outDir: dir });
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  const charts = buildCharts(result).flatMap((s) => s.charts);

  assert.ok(written.includes(join(dir, 'report.html')));
  assert.equal((html.match(/<figure\b/g) ?? []).length, charts.length);
  assert.equal((html.match(/<svg\b/g) ?? []).length, charts.length);
  for (const chart of charts) assert.ok(html.includes(`<figure id="${chart.name}">`), `${chart.name} is in the page`);

  assert.doesNotMatch(html, /https?:\/\//i, 'no URL anywhere (inline SVG needs no xmlns)');
  assert.doesNotMatch(html, /<script\b/i);
  assert.doesNotMatch(html, /<link\b|<iframe\b|<object\b|<embed\b|<img\b/i);
  assert.doesNotMatch(html, /@import|@font-face|url\(\s*['"]?(?!#)/i, 'url() only to fragments of the page itself');
  const ids = [...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique across the inlined charts');
  for (const [, target] of html.matchAll(/url\(#([^)]+)\)/g))
    assert.ok(ids.includes(target!), `url(#${target}) points into the page`);
  assert.doesNotMatch(html, /\b(src|href)\s*=/i);

  for (const text of [result.environment.cpuModel, result.environment.node, 'undici', 'p99 ms', 'srv RSS MB']) {
    assert.ok(html.includes(text), `page shows ${text}`);
  }
});

test('charts/ holds a standalone .vl.json (data inline) and an .svg per chart', async () => {
  const dir = tempDir();
  await writeArtifacts(result, join(dir, 'results.json'), { outDir: dir });
  const files = readdirSync(join(dir, 'charts')).sort();
  const names = buildCharts(result)
    .flatMap((s) => s.charts)
    .map((c) => c.name)
    .sort();
  assert.deepEqual(files, names.flatMap((n) => [`${n}.svg`, `${n}.vl.json`]).sort());
  for (const name of names) {
    const spec = JSON.parse(readFileSync(join(dir, 'charts', `${name}.vl.json`), 'utf8')) as {
      $schema: string;
      data: { values: unknown[] };
    };
    assert.match(spec.$schema, /vega-lite\/v5/);
    assert.ok(Array.isArray(spec.data.values) && spec.data.values.length > 0, `${name} inlines its data`);
    assert.match(readFileSync(join(dir, 'charts', `${name}.svg`), 'utf8'), /^<svg[\s\S]+<\/svg>$/);
  }
});

test('--png writes a PNG per chart, with text drawn (not blank)', async () => {
  const dir = tempDir();
  const written = await writeArtifacts(result, join(dir, 'results.json'), { outDir: dir, png: true });
  const pngs = written.filter((p) => p.endsWith('.png'));
  assert.equal(pngs.length, buildCharts(result).flatMap((s) => s.charts).length);
  const png = readFileSync(pngs[0]!);
  assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
  assert.ok(png.length > 5000, `a chart with text and marks is more than a blank page (${png.length} bytes)`);
});

test('the environment block lists the servers a run measured by --target and --server-cmd', () => {
  const mixed = mixedResult();
  mixed.environment.foreignServers = [
    {
      name: 'py',
      kind: 'command',
      protocol: 'websocket',
      url: 'ws://{host}:{port}/',
      command: 'python3 server.py --port {port}',
    },
    { name: 'mine', kind: 'target', protocol: 'websocket', url: 'ws://127.0.0.1:8765/', pid: 4242 },
    { name: 'blind', kind: 'target', protocol: 'websocket', url: 'ws://127.0.0.1:8766/' },
  ];
  const html = renderHtml(mixed, []);
  const row = /<dt>Your servers<\/dt><dd>([^<]*)<\/dd>/.exec(html)?.[1];
  assert.equal(
    row && unescaped(row),
    'py (websocket): started by `python3 server.py --port {port}` at ws://{host}:{port}/; mine (websocket): running at ws://127.0.0.1:8765/, pid 4242; blind (websocket): running at ws://127.0.0.1:8766/, CPU and RSS not measured (no --target-pid)',
  );
  assert.doesNotMatch(renderHtml(mixedResult(), []), /Your servers/, 'a run of built-in stacks only has no such row');
});

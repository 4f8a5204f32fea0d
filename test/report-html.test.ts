/**
 * report.html stands alone: every chart inline as SVG, the environment and
 * the cell table present, and no reference to anything outside the file
 * (no URL at all, no script, no stylesheet or font import).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeArtifacts } from '../src/report/artifacts.js';
import { buildCharts } from '../src/report/charts/index.js';
import type { BenchResult } from '../src/result-types.js';
import { REPO_ROOT, tempDir } from './support.js';

const fixture = join(REPO_ROOT, 'test/fixtures/echo-run.json');
const result = JSON.parse(readFileSync(fixture, 'utf8')) as BenchResult;

test('report.html has every chart inline and no external reference', async () => {
  const dir = tempDir();
  const written = await writeArtifacts(result, join(dir, 'results.json'));
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
  for (const [, target] of html.matchAll(/url\(#([^)]+)\)/g)) assert.ok(ids.includes(target!), `url(#${target}) points into the page`);
  assert.doesNotMatch(html, /\b(src|href)\s*=/i);

  for (const text of [result.environment.cpuModel, result.environment.node, 'ws x undici'.split(' x ')[1]!, 'p99 ms', 'srv RSS MiB']) {
    assert.ok(html.includes(text), `page shows ${text}`);
  }
});

test('charts/ holds a standalone .vl.json (data inline) and an .svg per chart', async () => {
  const dir = tempDir();
  await writeArtifacts(result, join(dir, 'results.json'));
  const files = readdirSync(join(dir, 'charts')).sort();
  const names = buildCharts(result).flatMap((s) => s.charts).map((c) => c.name).sort();
  assert.deepEqual(files, names.flatMap((n) => [`${n}.svg`, `${n}.vl.json`]).sort());
  for (const name of names) {
    const spec = JSON.parse(readFileSync(join(dir, 'charts', `${name}.vl.json`), 'utf8')) as { $schema: string; data: { values: unknown[] } };
    assert.match(spec.$schema, /vega-lite\/v5/);
    assert.ok(Array.isArray(spec.data.values) && spec.data.values.length > 0, `${name} inlines its data`);
    assert.match(readFileSync(join(dir, 'charts', `${name}.svg`), 'utf8'), /^<svg[\s\S]+<\/svg>$/);
  }
});

test('--png writes a PNG per chart, with text drawn (not blank)', async () => {
  const dir = tempDir();
  const written = await writeArtifacts(result, join(dir, 'results.json'), { png: true });
  const pngs = written.filter((p) => p.endsWith('.png'));
  assert.equal(pngs.length, buildCharts(result).flatMap((s) => s.charts).length);
  const png = readFileSync(pngs[0]!);
  assert.deepEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')]);
  assert.ok(png.length > 5000, `a chart with text and marks is more than a blank page (${png.length} bytes)`);
});

/**
 * Latency against offered load: a sweep of the open model's rate draws
 * echo's offered-load chart (p50, p99 and p99.9 against the rate each cell was
 * offered, one line per pair); a cell that delivered less than 95 % of what it
 * was offered is marked, on the chart and in the table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMeasured, type BenchResult } from '../src/parent/index.js';
import { readResultFile } from '../src/parent/results/result-file.js';
import { buildCharts } from '../src/parent/charts/index.js';
import { renderTable } from '../src/parent/report/run/table.js';
import { runCli, tempDir, runArgs } from './support.js';

test('run echo --rate 300,1000 over two servers draws latency against offered load', async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const outcome = await runCli(
    runArgs('echo', 'ws,uws', 'ws', '--rate', '300,1000', '--duration', '600ms', '--out', out),
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const spec = JSON.parse(readFileSync(join(dir, 'r.report', 'charts', 'echo-offered-load.vl.json'), 'utf8'));
  assert.ok(existsSync(join(dir, 'r.report', 'charts', 'echo-offered-load.svg')));
  assert.deepEqual(
    spec.concat.map((panel: { title: string }) => panel.title),
    ['p50', 'p99', 'p99.9'],
  );
  const rows = spec.data.values as Array<{ cell: string; offered: number; percentile: string; value: number }>;
  assert.deepEqual([...new Set(rows.map((r) => r.cell))].sort(), ['uws x ws', 'ws x ws']);
  assert.deepEqual(
    [...new Set(rows.map((r) => r.offered))].sort((a, b) => a - b),
    [300, 1000],
  );
  const result = readResultFile(out);
  for (const cell of result.cells) {
    assert.ok(isMeasured(cell));
    const row = rows.find(
      (r) => r.cell.startsWith(cell.server) && r.offered === cell.params.rate && r.percentile === 'p99',
    );
    assert.equal(
      row?.value,
      cell.measurements.latency.rtt!.p99Ms,
      `${cell.server} at ${cell.params.rate}: its p99 is drawn`,
    );
  }
});

test('a cell that delivered below what it was offered is marked on the chart and in the table', async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const outcome = await runCli(runArgs('echo', 'ws', 'ws', '--rate', '200,400', '--duration', '500ms', '--out', out));
  assert.equal(outcome.code, 0, outcome.stderr);
  // The same cells, as if the second had delivered 300 of the 400 a second it was offered.
  const result: BenchResult = readResultFile(out);
  const short = result.cells[1]!;
  assert.ok(isMeasured(short));
  short.metrics.messagesPerSec = 300;
  const table = renderTable(result);
  // A busy machine may add the load generator's judgement before the mark.
  assert.match(table, /^400 +ws +ws +ok(, client (saturated|starved|behind))*, below offered +/m);
  assert.match(table, /^ {2}ws x ws rate=400: 300\/s of 400\/s offered$/m);
  const chart = buildCharts(result)[0]!.charts.find((c) => c.name === 'echo-offered-load')!;
  const values = (chart.spec as { data: { values: Array<{ offered: number; short: string | null }> } }).data.values;
  assert.deepEqual(
    [...new Set(values.map((v) => `${v.offered} ${v.short}`))],
    ['200 null', '400 delivered 300/s of 400/s'],
  );
  assert.match(chart.caption, /A cross marks a cell that delivered less than 95 %/);
});

/**
 * A user's scenario (test/fixtures/user-scenario.ts, the README's example) gets
 * everything a built-in one gets, from the result JSON alone: its own table
 * columns, the chart it asked for, and compare verdicts on its declared metrics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { compareResults, readResultFile, renderTable, run, writeResultFile } from '../src/parent/index.js';
import { buildCharts } from '../src/parent/charts/index.js';
import { compileSpec } from '../src/parent/report/html/render-svg.js';
import heartbeat from './fixtures/user-scenario.js';
import { tempDir } from './support.js';

test('a user scenario passed as an object: table columns, its one chart and compare verdicts from the JSON', async () => {
  const dir = tempDir();
  const paths = [join(dir, 'a.json'), join(dir, 'b.json')];
  for (const path of paths) {
    const result = await run({
      scenario: heartbeat,
      servers: ['ws'],
      clients: ['ws'],
      params: { duration: '600ms', connections: 2 },
    });
    assert.equal(result.cells[0]?.status, 'ok');
    writeResultFile(path, result);
  }
  const [a, b] = paths.map(readResultFile) as [ReturnType<typeof readResultFile>, ReturnType<typeof readResultFile>];

  const table = renderTable(a).split('\n');
  assert.match(table[1]!, /^every cell: /);
  assert.match(table[2]!, /^server\s+client\s+status\s+p50 ms\s+p99 ms\s+beats\/s\s+missed\s+srv CPU%\s+srv RSS MB$/);
  // A key number may carry its interval: `100 ±6` or `0.163 [0.092, 0.289]`.
  const number = String.raw`[\d.]+(?: ±[\d.]+| \[[\d.]+, [\d.]+\])?`;
  assert.match(table[3]!, new RegExp(String.raw`^ws\s+ws\s+ok(, [a-z ,]+)?\s+${number}\s+${number}\s+${number}\s+\d+`));

  const charts = buildCharts(a).flatMap((s) => s.charts);
  assert.deepEqual(
    charts.map((c) => c.name),
    ['heartbeat-percentiles'],
  );
  assert.deepEqual(compileSpec(charts[0]!.spec).warnings, []);

  const [cell] = compareResults(a, b).cells;
  const compared = new Map(cell?.deltas.map((d) => [d.key, d.verdict]));
  for (const key of ['beatP50Ms', 'beatP99Ms', 'beatsPerSec', 'missed']) {
    assert.ok(
      ['unchanged', 'inconclusive', 'regressed', 'improved'].includes(compared.get(key) ?? 'absent'),
      `${key} gets a verdict`,
    );
  }
});

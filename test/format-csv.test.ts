/**
 * `run echo ... --format csv`: stdout is CSV instead of the table, one row per
 * cell read back by a strict RFC 4180 reader, every number the same as the
 * result file's (each key number with its interval's bounds), and no progress
 * lines on stderr, as with --json.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMeasured, type BenchResult } from '../src/shared/types/result-types.js';
import { runCli, tempDir } from './support.js';
import { parseCsv } from './format-parsers.js';

test('run echo --format csv: one row per cell, the numbers of the result file', async () => {
  const out = join(tempDir(), 'echo.json');
  const outcome = await runCli(
    ['run', 'echo', '--servers', 'ws,uws', '--clients', 'ws', '--duration', '1s', '--out', out, '--format', 'csv'],
    { timeoutMs: 120_000 },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const [header, ...rows] = parseCsv(outcome.stdout);
  assert.equal(rows.length, result.cells.length, 'one row per cell');
  const scenario = result.scenarios[0]!;
  for (const key of Object.keys(scenario.metrics))
    assert.ok(header!.includes(key), `a column for the declared metric ${key}`);
  assert.deepEqual(header!.slice(0, 3), ['scenario', 'server', 'client']);
  for (const [i, row] of rows.entries()) {
    const cell = result.cells[i]!;
    const field = (name: string): string => row[header!.indexOf(name)]!;
    assert.equal(row.length, header!.length);
    assert.deepEqual(
      [field('scenario'), field('server'), field('client'), field('status')],
      [cell.scenario, cell.server, cell.client, cell.status],
    );
    assert.equal(field('duration'), String(cell.params.duration), "parameters in the JSON's units (ms)");
    assert.ok(isMeasured(cell));
    for (const [key, value] of Object.entries(cell.metrics))
      assert.equal(field(key), value === null ? '' : String(value), key);
    const intervals = Object.entries(cell.intervals ?? {});
    assert.ok(intervals.length > 0, 'the key numbers have intervals');
    for (const [key, interval] of intervals)
      assert.deepEqual([Number(field(`${key}.low`)), Number(field(`${key}.high`))], [interval.low, interval.high]);
    assert.equal(Number(field('serverRssBytesMax')), cell.resources.server!.rssBytes.max);
  }
  assert.doesNotMatch(outcome.stderr, /: started$/m, 'no progress lines beside CSV');
  assert.match(outcome.stderr, /^results: /m);
});

/**
 * A result whose counts are below 0 is no result a run wrote: compare, report and merge refuse it in one line
 * with exit 2, naming the value, instead of reading "errors 0 -> -5" as an improvement. A count is a counter,
 * or a metric its scenario declares with unit count or role errors, in a cell or a round.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import { isMeasured } from '../src/shared/types/result-types.js';
import { REPO_ROOT, runCli, tempDir, usageErrorLine } from './support.js';
import { cell, result, scenarioInfo } from './fixtures/synthetic-results.js';

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'echo-run.json');
const METRICS: Record<string, MetricInfo> = {
  lost: { header: 'lost', unit: 'count', better: 'lower', role: 'errors', source: { counter: 'lost' } },
  spread: { header: 'spread ms', unit: 'ms', better: 'lower', role: 'detail', source: { counter: 'spread' } },
};

/** The first cell of a version 1 file, as far as this test edits it. */
interface V1Cell {
  metrics: Record<string, number>;
  measurements: { counters: Record<string, number> };
}

/** The echo fixture (a version 1 file) with `change` made to its first cell. */
function edited(dir: string, name: string, change: (cell: V1Cell) => void): string {
  const data = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { cells: V1Cell[] };
  change(data.cells[0]!);
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(data));
  return path;
}

test('compare and report refuse a result with a count below 0, naming it', async () => {
  const dir = tempDir();
  const base = join(dir, 'base.json');
  writeFileSync(base, readFileSync(FIXTURE));
  const errors = edited(dir, 'errors.json', (c) => (c.metrics.errors = -5));
  const counter = edited(dir, 'counter.json', (c) => (c.measurements.counters.received = -3));
  const cases: Array<[string[], string]> = [
    [
      ['compare', base, errors],
      `wsbench: ${errors} is not a valid wsbench result: cells[0].metrics.errors is -5, and a count is never below 0`,
    ],
    [
      ['report', counter],
      `wsbench: ${counter} is not a valid wsbench result: cells[0].measurements.counters.received is -3, and a count is never below 0`,
    ],
  ];
  for (const [args, line] of cases) assert.equal(usageErrorLine(await runCli(args, { cwd: dir })), line);
});

test('a version 3 result: an errors metric of a round below 0 is refused; a metric that is no count may be', async () => {
  const dir = tempDir();
  const info = scenarioInfo('synthetic', { metrics: METRICS, table: ['lost'], charts: [] });
  const made = cell('synthetic', {
    server: 'ws',
    client: 'ws',
    metrics: { lost: 0, spread: -1 },
    counters: { lost: 0 },
  });
  const fine = join(dir, 'fine.json');
  writeFileSync(fine, JSON.stringify(result(info, [made])));
  const ok = await runCli(['compare', fine, fine], { cwd: dir });
  assert.equal(ok.code, 0, ok.stderr);

  assert.ok(isMeasured(made));
  made.rounds = [{ status: 'ok', metrics: { lost: -2, spread: 1 }, elapsedMs: 1000 }];
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify(result(info, [made])));
  assert.equal(
    usageErrorLine(await runCli(['compare', fine, bad], { cwd: dir })),
    `wsbench: ${bad} is not a valid wsbench result: cells[0].rounds[0].metrics.lost is -2, and a count is never below 0`,
  );
});

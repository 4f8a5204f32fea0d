/**
 * `compare --format markdown` writes what a pull request can show: one row per
 * cell with its verdict, each compared metric's change with its interval,
 * and the gate's line; `--summary FILE` appends the same to a file (a GitHub
 * step summary) whatever stdout holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import type { CellResult } from '../src/shared/types/result-types.js';
import { histogramStat } from '../src/parent/measure/metric-values.js';
import { runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, resources, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric, rateMetric } from './fixtures/metric-declarations.js';

const METRICS: Record<string, MetricInfo> = {
  rttP99Ms: latencyMetric('rtt', 'p99'),
  messagesPerSec: rateMetric(),
};

/** Windows of 5 s: long enough for compare to measure msg/s's and CPU's noise and give them intervals. */
function measured(server: string, meanUs: number, rate: number): CellResult {
  const rtt = exponentialHistogram(5000, meanUs, 1, 50);
  return cell('echo', {
    server,
    client: 'ws',
    histograms: { rtt },
    metrics: { rttP99Ms: histogramStat(rtt, 'p99'), messagesPerSec: rate },
    serverResources: resources(40, 44, 70),
    windowMs: 5000,
  });
}

function write(dir: string, name: string, cells: CellResult[]): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify(result(scenarioInfo('echo', { metrics: METRICS, table: Object.keys(METRICS), charts: [] }), cells)),
  );
  return path;
}

test('--format markdown: a row per cell with its verdict, changes with their intervals, and the gate line', async () => {
  const dir = tempDir();
  const base = write(dir, 'base.json', [measured('ws', 200, 10_000), measured('uws', 200, 10_000)]);
  const next = write(dir, 'next.json', [
    measured('ws', 600, 10_000),
    {
      scenario: 'echo',
      server: 'uws',
      client: 'ws',
      params: {},
      status: 'skipped',
      reason: 'uws is not installed',
      elapsedMs: 0,
    },
  ]);
  const outcome = await runCli(['compare', base, next, '--format', 'markdown', '--fail-on-regression', '20']);
  assert.equal(outcome.code, 1, outcome.stderr);
  const lines = outcome.stdout.split('\n');
  const header = lines.find((l) => l.startsWith('| cell |'));
  assert.equal(header, '| cell | status | p99 ms | msg/s | srv CPU % | srv RSS MiB | verdict |');
  assert.equal(lines[lines.indexOf(header!) + 1], '| :-- | :-- | --: | --: | --: | --: | :-- |');
  const ws = lines.find((l) => l.startsWith('| echo ws x ws |'))!;
  const change = '\\+\\d+\\.\\d% \\[[-+]\\d+\\.\\d%, \\+\\d+\\.\\d%\\]';
  const same = '\\+0\\.0% \\[-\\d+\\.\\d%, \\+\\d+\\.\\d%\\]';
  assert.match(
    ws,
    new RegExp(
      `^\\| echo ws x ws \\| ok \\| \\*\\*${change}\\*\\* \\| ${same} \\| ${same} \\| ${same} \\| \\*\\*REGRESSED\\*\\*: p99 ms \\+\\d+\\.\\d% \\|$`,
    ),
  );
  assert.equal(
    lines.find((l) => l.startsWith('| echo uws x ws |')),
    '| echo uws x ws | ok → skipped |  |  |  |  | **REGRESSED**: skipped in new: uws is not installed |',
  );
  assert.ok(
    lines.some((l) => /^\*\*gate failed\*\* at --fail-on-regression 20%: 2 regressions/.test(l)),
    outcome.stdout,
  );
  assert.match(
    outcome.stderr,
    /^gate failed at --fail-on-regression 20%/m,
    'the CI log shows the gate line when stdout goes to a file',
  );
});

test('--summary FILE appends the markdown to the file, keeping what was there; stdout stays the text table', async () => {
  const dir = tempDir();
  const base = write(dir, 'base.json', [measured('ws', 200, 10_000)]);
  const summary = join(dir, 'step-summary.md');
  writeFileSync(summary, '# earlier step\n');
  const first = await runCli(['compare', base, base, '--fail-on-regression', '10', '--summary', summary]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^cell\s+metric\s+base\s+new/m, 'stdout keeps its format');
  const second = await runCli(['compare', base, base, '--summary', summary]);
  assert.equal(second.code, 0, second.stderr);
  const text = readFileSync(summary, 'utf8');
  assert.ok(text.startsWith('# earlier step\n'), 'appended, not overwritten');
  assert.equal(text.split('| cell | status |').length - 1, 2, 'one table per compare');
  assert.match(text, /\*\*gate passed\*\* at --fail-on-regression 10%/);
  assert.match(
    text,
    /^\| echo ws x ws \| ok \| \+0\.0% \[-\d+\.\d%, \+\d+\.\d%\] \|.*\| (unchanged|inconclusive: .*) \|$/m,
  );
});

test('a bad --format or an unwritable --summary is one line and exit 2, before anything is compared', async () => {
  const dir = tempDir();
  const base = write(dir, 'base.json', [measured('ws', 200, 10_000)]);
  const [format, summary] = await Promise.all([
    runCli(['compare', base, base, '--format', 'html']),
    runCli(['compare', base, base, '--summary', join(dir, 'no-such-dir', 'summary.md')]),
  ]);
  assert.equal(format.code, 2);
  assert.equal(format.stderr, 'wsbench: --format: "html" is not one of table, json, json-line, markdown, csv, junit\n');
  assert.equal(format.stdout, '');
  assert.equal(summary.code, 2);
  assert.equal(summary.stderr, `wsbench: --summary: directory ${join(dir, 'no-such-dir')} does not exist\n`);
  assert.equal(summary.stdout, '');
});

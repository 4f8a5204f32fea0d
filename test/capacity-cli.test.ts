/**
 * `wsbench capacity` end to end with tiny steps: the table, one result file
 * holding the steps' cells and the search, its report with the capacity
 * section and charts, and `wsbench report` of that file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResultFile } from '../src/parent/results/result-file.js';
import type { CapacityResult } from '../src/parent/index.js';
import { runCli, tempDir } from './support.js';

test('capacity of fanout on uws, 5 to 10 clients, 300 ms steps: one result file that report reads, with the capacity charts', async () => {
  const dir = tempDir();
  const out = join(dir, 'cap.json');
  const outcome = await runCli([
    'capacity',
    'fanout',
    '--slo',
    'p99<500ms,errors=0',
    '--servers',
    'uws',
    '--start',
    '5',
    '--max',
    '10',
    '--interval',
    '50ms',
    '--duration',
    '300ms',
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.match(outcome.stdout, /^fanout capacity within p99<500ms, errors=0: the most connections each server holds/);
  assert.match(outcome.stdout, /\nuws\s+ws\s+>= 10\s+-\s+2\s+1\s+fresh\s+nothing up to the maximum\n/);
  const result = readResultFile(out) as CapacityResult;
  assert.equal(result.schemaVersion, 3);
  assert.equal(result.capacity.latencyMetric, 'delayP99Ms');
  assert.deepEqual(
    result.capacity.slo.clauses.map((c) => c.kind),
    ['latency', 'errors'],
  );
  const [uws] = result.capacity.servers;
  assert.deepEqual(
    [uws!.server, uws!.client, uws!.capacity, uws!.end, uws!.brokeAt, uws!.serverPerStep],
    ['uws', 'ws', 10, 'max', null, 'fresh'],
  );
  assert.deepEqual(
    uws!.steps.map((s) => [s.count, s.phase, s.outcome]),
    [
      [5, 'ramp', 'within'],
      [10, 'ramp', 'within'],
    ],
  );
  for (const step of uws!.steps) {
    assert.equal(step.errors, 0);
    assert.equal(typeof step.latencyMs, 'number');
    assert.deepEqual(step.sloValues, [step.latencyMs, 0], "each clause's value: the p99, then the errors");
    assert.equal(typeof step.serverCpuPercent, 'number');
    assert.equal(step.clientCpuPercent.length, 1);
  }
  // The steps are the file's cells: one per count.
  assert.deepEqual(
    result.cells.map((c) => [c.server, c.params.connections, c.status]),
    [
      ['uws', 5, 'ok'],
      ['uws', 10, 'ok'],
    ],
  );
  assert.ok(!existsSync(join(dir, 'cap-steps.json')), 'no second file');

  // The report and the charts go where the artifacts of any result go; stderr says where.
  const report = /^report: (.+)$/m.exec(outcome.stderr)?.[1];
  const charts = /^charts: \d+ files in (.+)$/m.exec(outcome.stderr)?.[1];
  assert.ok(report && existsSync(report), outcome.stderr);
  for (const name of ['fanout-capacity', 'fanout-capacity-p99', 'fanout-capacity-errors']) {
    assert.ok(
      charts && existsSync(join(charts, `${name}.svg`)) && existsSync(join(charts, `${name}.vl.json`)),
      `${name}: ${outcome.stderr}`,
    );
  }
  const html = readFileSync(report!, 'utf8');
  assert.match(html, /<h2>Capacity<\/h2>/);
  assert.match(html, /<figure id="fanout-capacity-p99">/);
  assert.match(html, /SLO p99&lt;500ms/, 'the SLO line is labelled in the chart');

  // `wsbench report` reads the same file and writes the same charts.
  const again = await runCli(['report', out, '--out', join(dir, 'again')]);
  assert.equal(again.code, 0, again.stderr);
  assert.ok(existsSync(join(dir, 'again', 'charts', 'fanout-capacity-p99.svg')));
  assert.match(readFileSync(join(dir, 'again', 'report.html'), 'utf8'), /<h2>Capacity<\/h2>/);
});

/**
 * The delta table and the gate agree: with --fail-on-regression N, a change is
 * judged with N as its margin, so one smaller than N is never REGRESSED, and
 * the table says which margin it judged by.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import { histogramStat } from '../src/parent/measure/metric-values.js';
import { runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, resources, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

const METRICS: Record<string, MetricInfo> = {
  rttP99Ms: latencyMetric('rtt', 'p99'),
};

function write(dir: string, name: string, meanUs: number): string {
  const rtt = exponentialHistogram(5000, meanUs, 1, 50);
  const info = scenarioInfo('echo', { metrics: METRICS, table: ['rttP99Ms'], charts: [] });
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify(
      result(info, [
        cell('echo', {
          server: 'ws',
          client: 'ws',
          histograms: { rtt },
          metrics: { rttP99Ms: histogramStat(rtt, 'p99') },
          serverResources: resources(40, 44, 70),
        }),
      ]),
    ),
  );
  return path;
}

test("a regression under the gate's threshold is not REGRESSED in the table; the table names the margin", async () => {
  const dir = tempDir();
  const base = write(dir, 'base.json', 200);
  const slower = write(dir, 'slower.json', 600);
  const [ungated, lenient, strict] = await Promise.all([
    runCli(['compare', base, slower]),
    runCli(['compare', base, slower, '--fail-on-regression', '1000']),
    runCli(['compare', base, slower, '--fail-on-regression', '10']),
  ]);
  const row = (verdict: string): RegExp =>
    new RegExp(
      `p99 ms\\s+\\S+\\s+\\S+\\s+\\+\\d+\\.\\d%\\s+\\[\\+\\d+\\.\\d%, \\+\\d+\\.\\d%\\]\\s+run-to-run band .*\\s${verdict}$`,
      'm',
    );
  assert.match(ungated.stdout, row('REGRESSED'), 'no gate: significant and beyond the default 5% margin');
  assert.match(
    ungated.stdout,
    /^verdict \(margin 5%, the default margin \(no gate: --fail-on-regression not given\)\): REGRESSED = /m,
  );

  assert.equal(lenient.code, 0, lenient.stderr);
  assert.doesNotMatch(lenient.stdout, /\sREGRESSED$/m, 'no row reads REGRESSED');
  assert.match(lenient.stdout, row('unchanged'), 'the whole interval lies within +-1000%');
  assert.match(lenient.stdout, /^verdict \(margin 1000%, the gate's --fail-on-regression 1000%\)/m);

  assert.equal(strict.code, 1);
  assert.match(strict.stdout, row('REGRESSED'));
});

/**
 * The delta table and the gate agree: with --fail-on-regression, a change
 * beyond the noise that the gate does not count (it is under the threshold)
 * is not shown as REGRESSED, and the table says which threshold it judged by.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricInfo } from '../src/declaration-types.js';
import { histogramStat } from '../src/core/metric-values.js';
import { runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, resources, result, scenarioInfo } from './fixtures/synthetic-results.js';

const METRICS: Record<string, MetricInfo> = {
  rttP99Ms: { header: 'p99 ms', unit: 'ms', better: 'lower', role: 'primary-latency', source: { histogram: 'rtt', stat: 'p99' } },
};

function write(dir: string, name: string, meanUs: number): string {
  const rtt = exponentialHistogram(5000, meanUs, 1, 50);
  const info = scenarioInfo('echo', { metrics: METRICS, table: ['rttP99Ms'], charts: [] });
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(result(info, [cell('echo', { server: 'ws', client: 'ws', histograms: { rtt }, metrics: { rttP99Ms: histogramStat(rtt, 'p99') }, serverResources: resources(40, 44, 70) })])));
  return path;
}

test('a regression the gate does not count is not REGRESSED in the table; the table names the threshold', async () => {
  const dir = tempDir();
  const base = write(dir, 'base.json', 200);
  const slower = write(dir, 'slower.json', 600);
  const [ungated, lenient, strict] = await Promise.all([
    runCli(['compare', base, slower]),
    runCli(['compare', base, slower, '--fail-on-regression', '1000']),
    runCli(['compare', base, slower, '--fail-on-regression', '10']),
  ]);
  assert.match(ungated.stdout, /p99 ms\s+\S+\s+\S+\s+\+\d+\.\d%\s+\S+\s+REGRESSED$/m, 'no gate: beyond the noise is REGRESSED');
  assert.match(ungated.stdout, /^verdict: REGRESSED = worse beyond the noise \(no gate: --fail-on-regression not given\)$/m);

  assert.equal(lenient.code, 0, lenient.stderr);
  assert.doesNotMatch(lenient.stdout, /\sREGRESSED$/m, 'no row reads REGRESSED');
  assert.match(lenient.stdout, /p99 ms\s+\S+\s+\S+\s+\+\d+\.\d%\s+\S+\s+regressed, under 1000%$/m);
  assert.match(lenient.stdout, /^verdict: REGRESSED = worse beyond the noise and by more than the gate's 1000%/m);

  assert.equal(strict.code, 1);
  assert.match(strict.stdout, /p99 ms\s+\S+\s+\S+\s+\+\d+\.\d%\s+\S+\s+REGRESSED$/m);
});

/**
 * The gate sees every cell: a cell that was ok in the base and is skipped,
 * failed or missing in the new file fails `compare --fail-on-regression`
 * whatever the threshold, each named with its reason; a cell only the new
 * file has is listed, not failed; and a gate that passes says so, with its
 * threshold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import type { BenchResult, CellResult } from '../src/shared/types/result-types.js';
import { histogramStat } from '../src/parent/measure/metric-values.js';
import { runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, resources, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric, rateMetric } from './fixtures/metric-declarations.js';

const METRICS: Record<string, MetricInfo> = {
  rttP99Ms: latencyMetric('rtt', 'p99'),
  messagesPerSec: rateMetric(),
};
const INFO = scenarioInfo('echo', { metrics: METRICS, table: Object.keys(METRICS), charts: [] });
const rtt = exponentialHistogram(3000, 300, 1, 50);

/** Windows of 5 s: long enough for compare to measure msg/s's and CPU's noise, so identical cells read unchanged. */
function ok(server: string, client: string): CellResult {
  const metrics = { rttP99Ms: histogramStat(rtt, 'p99'), messagesPerSec: 10_000 };
  return cell('echo', {
    server,
    client,
    histograms: { rtt },
    metrics,
    serverResources: resources(40, 44, 70),
    windowMs: 5000,
  });
}

function write(dir: string, name: string, cells: CellResult[]): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(result(INFO, cells) satisfies BenchResult));
  return path;
}

test('ok -> skipped, ok -> failed and ok -> missing fail the gate with their reasons; a new cell is listed, not failed', async () => {
  const dir = tempDir();
  const identity = (server: string, client: string) => ({ scenario: 'echo', server, client, params: {}, elapsedMs: 5 });
  const base = write(dir, 'base.json', [ok('ws', 'ws'), ok('ws', 'bun'), ok('uws', 'ws'), ok('uws', 'uws')]);
  const next = write(dir, 'next.json', [
    ok('ws', 'ws'),
    { ...identity('ws', 'bun'), status: 'skipped', reason: 'bun is not installed' },
    { ...identity('uws', 'uws'), status: 'failed', reason: 'server exited with code 3' },
    ok('deno', 'ws'),
  ]);
  const outcome = await runCli(['compare', base, next, '--fail-on-regression', '1000']);
  assert.equal(outcome.code, 1, outcome.stderr);
  const lines = outcome.stderr.trimEnd().split('\n');
  assert.ok(lines.includes('regression: echo ws x bun: status ok -> skipped (bun is not installed)'), outcome.stderr);
  assert.ok(
    lines.includes('regression: echo uws x uws: status ok -> failed (server exited with code 3)'),
    outcome.stderr,
  );
  assert.ok(lines.includes('regression: echo uws x ws: status ok -> missing (not in the new file)'), outcome.stderr);
  assert.doesNotMatch(outcome.stderr, /deno/, 'a cell only the new file has fails nothing');
  assert.match(lines.at(-1)!, /^gate failed at --fail-on-regression 1000%: 3 regressions/);
  assert.match(outcome.stdout, /^only in new \(1\): echo deno x ws$/m);
  assert.match(
    outcome.stdout,
    /^echo uws x ws\s+status\s+ok\s+missing\s+REGRESSED$/m,
    'the table shows the missing cell too',
  );

  const json = await runCli(['compare', base, next, '--fail-on-regression', '1000', '--json']);
  assert.equal(json.code, 1);
  const printed = JSON.parse(json.stdout) as {
    gate: { regressions: Array<{ cell: string; base: string; next: string; reason: string | null }> };
  };
  assert.deepEqual(printed.gate.regressions.map((r) => [r.cell, r.base, r.next, r.reason]).sort(), [
    ['echo uws x uws', 'ok', 'failed', 'server exited with code 3'],
    ['echo uws x ws', 'ok', 'missing', 'not in the new file'],
    ['echo ws x bun', 'ok', 'skipped', 'bun is not installed'],
  ]);
});

test('a gate that passes says so in one line, with its threshold, on stdout and stderr', async () => {
  const dir = tempDir();
  const base = write(dir, 'base.json', [ok('ws', 'ws'), ok('uws', 'ws')]);
  const next = write(dir, 'next.json', [ok('ws', 'ws'), ok('uws', 'ws'), ok('deno', 'ws')]);
  const outcome = await runCli(['compare', base, next, '--fail-on-regression', '25']);
  assert.equal(outcome.code, 0, outcome.stderr);
  const line =
    'gate passed at --fail-on-regression 25%: 2 cells compared, none regressed significantly by more than 25%, none failed, skipped or missing; 1 cell only in the new file, not gated';
  assert.equal(outcome.stderr.trimEnd(), line);
  assert.equal(outcome.stdout.trimEnd().split('\n').at(-1), line);
});

/**
 * `wsbench report` and `wsbench compare` through the real bin: what they
 * write, and one line + exit 2 for every kind of bad input file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_VERSION } from '../src/shared/types/result-types.js';
import { REPO_ROOT, runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, resources, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { histogramStat } from '../src/parent/measure/metric-values.js';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import { latencyMetric, rateMetric } from './fixtures/metric-declarations.js';

const ECHO_METRICS: Record<string, MetricInfo> = {
  rttP50Ms: latencyMetric('rtt', 'p50', 'rtt p50 ms'),
  rttP99Ms: latencyMetric('rtt', 'p99', 'rtt p99 ms'),
  messagesPerSec: rateMetric(),
};

const fixture = join(REPO_ROOT, 'test/fixtures/echo-run.json');

test('report re-renders charts and HTML from the result file alone', async () => {
  const out = join(tempDir(), 'elsewhere');
  const outcome = await runCli(['report', fixture, '--out', out]);
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.ok(existsSync(join(out, 'report.html')));
  // A schema 1 file: its declarations are derived on reading, charts included.
  assert.ok(existsSync(join(out, 'charts', 'echo-percentiles.vl.json')));
  assert.ok(existsSync(join(out, 'charts', 'echo-percentiles.svg')));
  assert.ok(outcome.stdout.split('\n').includes(join(out, 'report.html')));
});

/** Every bad file, with the line the CLI must print for it. */
function badFiles(): Array<[string, string, string]> {
  const dir = tempDir();
  const truncated = join(dir, 'truncated.json');
  writeFileSync(truncated, readFileSync(fixture, 'utf8').slice(0, 500));
  const foreign = join(dir, 'package.json');
  writeFileSync(foreign, JSON.stringify({ name: 'not-wsbench', cells: [] }));
  const newer = join(dir, 'newer.json');
  writeFileSync(
    newer,
    JSON.stringify({ ...JSON.parse(readFileSync(fixture, 'utf8')), schemaVersion: SCHEMA_VERSION + 1 }),
  );
  const directory = join(dir, 'a-directory.json');
  mkdirSync(directory);
  const missing = join(dir, 'missing.json');
  return [
    ['missing', missing, `wsbench: ${missing} does not exist\n`],
    ['a directory', directory, `wsbench: ${directory} is a folder, not a regular file\n`],
    ['truncated', truncated, `wsbench: ${truncated} is not valid JSON (truncated or corrupted?)\n`],
    ['not wsbench', foreign, `wsbench: ${foreign} is not a wsbench result file\n`],
    [
      'newer schema',
      newer,
      `wsbench: ${newer} has schemaVersion ${SCHEMA_VERSION + 1}, newer than this wsbench reads (${SCHEMA_VERSION}); upgrade wsbench\n`,
    ],
  ];
}

test('report and compare: each bad input file gives one line and exit 2', async () => {
  const cases = badFiles();
  const outcomes = await Promise.all(
    cases.flatMap(([, path]) => [
      runCli(['report', path]),
      runCli(['compare', fixture, path]),
      runCli(['compare', path, fixture]),
    ]),
  );
  cases.forEach(([kind, , line], i) => {
    for (const outcome of outcomes.slice(i * 3, i * 3 + 3)) {
      assert.equal(outcome.stderr, line, kind);
      assert.equal(outcome.code, 2, kind);
      assert.equal(outcome.stdout, '', kind);
    }
  });
});

function writeResult(dir: string, name: string, p99ScaleUs: number, messagesPerSec: number, connections = 1): string {
  const path = join(dir, name);
  const rtt = exponentialHistogram(5000, p99ScaleUs, 1, 50);
  const metrics = { rttP50Ms: histogramStat(rtt, 'p50'), rttP99Ms: histogramStat(rtt, 'p99'), messagesPerSec };
  const info = scenarioInfo('echo', { metrics: ECHO_METRICS, table: Object.keys(ECHO_METRICS), charts: [] });
  const r = result(info, [
    cell('echo', {
      server: 'ws',
      client: 'ws',
      params: { connections },
      histograms: { rtt },
      metrics,
      serverResources: resources(40, 44, 70),
    }),
  ]);
  writeFileSync(path, JSON.stringify(r));
  return path;
}

test('compare prints the delta table; --fail-on-regression exits 1 only beyond the threshold', async () => {
  const dir = tempDir();
  const base = writeResult(dir, 'base.json', 200, 10_000);
  const slower = writeResult(dir, 'slower.json', 600, 10_000);
  const [plain, failing, lenient] = await Promise.all([
    runCli(['compare', base, slower]),
    runCli(['compare', base, slower, '--fail-on-regression', '10']),
    runCli(['compare', base, slower, '--fail-on-regression', '1000']),
  ]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.match(plain.stdout, /echo ws x ws\s+rtt p50 ms/);
  assert.match(plain.stdout, /rtt p99 ms\s+\S+\s+\S+\s+\+\d+\.\d%\s+\[\S+, \S+\]\s+.*\sREGRESSED$/m);
  assert.equal(failing.code, 1);
  assert.match(failing.stderr, /^regression beyond 10%: echo ws x ws: rtt p99 ms \+\d+\.\d%$/m);
  assert.equal(lenient.code, 0, lenient.stderr);
});

test('compare --json carries the gate: threshold, regressed cells, exit code', async () => {
  const dir = tempDir();
  const base = writeResult(dir, 'base.json', 200, 10_000);
  const slower = writeResult(dir, 'slower.json', 600, 10_000);
  const outcome = await runCli(['compare', base, slower, '--fail-on-regression', '10', '--json']);
  assert.equal(outcome.code, 1);
  const printed = JSON.parse(outcome.stdout) as {
    gate: { thresholdPct: number; exitCode: number; regressions: Array<{ cell: string; key: string }> };
  };
  assert.equal(printed.gate.thresholdPct, 10);
  assert.equal(printed.gate.exitCode, 1);
  assert.ok(printed.gate.regressions.some((r) => r.cell === 'echo ws x ws' && r.key === 'rttP99Ms'));
});

test('compare: no cell in common, or a bad threshold, is one line and exit 2', async () => {
  const dir = tempDir();
  const one = writeResult(dir, 'one.json', 200, 10_000, 1);
  const ten = writeResult(dir, 'ten.json', 200, 10_000, 10);
  const [disjoint, badPct] = await Promise.all([
    runCli(['compare', one, ten]),
    runCli(['compare', one, one, '--fail-on-regression', 'lots']),
  ]);
  assert.equal(disjoint.code, 2);
  assert.equal(
    disjoint.stderr,
    `wsbench: ${one} and ${ten} have no cell in common (cells match on scenario, server, client and every parameter)\n`,
  );
  assert.equal(badPct.code, 2);
  assert.equal(badPct.stderr, 'wsbench: --fail-on-regression: "lots" is not a percentage (a number >= 0)\n');
});

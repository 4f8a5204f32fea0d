/**
 * JUnit XML for CI test reporters. `compare a.json b.json --format junit=report.xml`
 * writes one testcase per cell beside the table on stdout: what regressed and a
 * cell the new file lacks are failures, --inconclusive fail makes an undecided
 * change one, a cell only the new file has is skipped. A run's JUnit makes its
 * failed, errors and --slo failed cells failures and its skipped cells skipped.
 * Each document is read back by a strict XML parser.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import type { CellResult } from '../src/shared/types/result-types.js';
import { histogramStat } from '../src/parent/measure/metric-values.js';
import { junitFormat } from '../src/parent/formats/junit.js';
import { runCli, tempDir } from './support.js';
import { cell, exponentialHistogram, resources, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { parseXml, type XmlElement } from './format-parsers.js';
import { latencyMetric, rateMetric } from './fixtures/metric-declarations.js';

const METRICS: Record<string, MetricInfo> = {
  rttP99Ms: latencyMetric('rtt', 'p99'),
  messagesPerSec: rateMetric(),
};
const INFO = scenarioInfo('echo', { metrics: METRICS, table: Object.keys(METRICS), charts: [] });

function measured(server: string, meanUs: number, client = 'ws'): CellResult {
  const rtt = exponentialHistogram(5000, meanUs, 1, 50);
  return cell('echo', {
    server,
    client,
    histograms: { rtt },
    metrics: { rttP99Ms: histogramStat(rtt, 'p99'), messagesPerSec: 10_000 },
    serverResources: resources(40, 44, 70),
  });
}

/** Each testcase as `name: outcome (type)`, and the suites' counts. */
function outcomes(doc: XmlElement): { cases: Record<string, string>; totals: Record<string, string> } {
  assert.equal(doc.tag, 'testsuites');
  const cases: Record<string, string> = {};
  for (const suite of doc.children) {
    assert.equal(suite.tag, 'testsuite');
    for (const testcase of suite.children) {
      const failure = testcase.children.find((c) => c.tag === 'failure');
      const skipped = testcase.children.find((c) => c.tag === 'skipped');
      cases[testcase.attributes.name!] = failure
        ? `failure (${failure.attributes.type})`
        : skipped
          ? 'skipped'
          : 'passed';
    }
  }
  const { tests, failures, skipped } = doc.attributes;
  return { cases, totals: { tests: tests!, failures: failures!, skipped: skipped! } };
}

test('compare a.json b.json --format junit=report.xml: regressed and missing cells fail, a new cell is skipped; the table stays on stdout', async () => {
  const dir = tempDir();
  const base = join(dir, 'a.json');
  const next = join(dir, 'b.json');
  writeFileSync(base, JSON.stringify(result(INFO, [measured('ws', 200), measured('uws', 200), measured('bun', 200)])));
  writeFileSync(next, JSON.stringify(result(INFO, [measured('ws', 900), measured('uws', 200), measured('deno', 200)])));
  const report = join(dir, 'report.xml');
  const outcome = await runCli(['compare', base, next, '--fail-on-regression', '20', '--format', `junit=${report}`]);
  assert.equal(outcome.code, 1, outcome.stderr);
  assert.match(outcome.stdout, /^cell\s+metric\s+base\s+new/m, 'stdout keeps the table');
  assert.match(outcome.stderr, new RegExp(`^junit: ${report}$`, 'm'));
  const { cases, totals } = outcomes(parseXml(readFileSync(report, 'utf8')));
  assert.deepEqual(cases, {
    'echo ws x ws': 'failure (regressed)',
    'echo uws x ws': 'passed',
    'echo bun x ws': 'failure (missing)',
    'echo deno x ws': 'skipped',
  });
  assert.deepEqual(totals, { tests: '4', failures: '2', skipped: '1' });
});

test('compare --format junit with --inconclusive fail: an undecided change is a failure of its own type', async () => {
  const dir = tempDir();
  const base = join(dir, 'a.json');
  const next = join(dir, 'b.json');
  // 1.5 s windows measured once: the run-to-run band is wide, so a 12 % change cannot be decided at a 10 % gate.
  writeFileSync(base, JSON.stringify(result(INFO, [measured('ws', 200)])));
  writeFileSync(next, JSON.stringify(result(INFO, [measured('ws', 224)])));
  const pass = await runCli(['compare', base, next, '--fail-on-regression', '10', '--format', 'junit']);
  const fail = await runCli([
    'compare',
    base,
    next,
    '--fail-on-regression',
    '10',
    '--inconclusive',
    'fail',
    '--format',
    'junit',
  ]);
  assert.equal(pass.code, 0, pass.stderr);
  assert.equal(fail.code, 3, fail.stderr);
  assert.deepEqual(outcomes(parseXml(pass.stdout)).cases, { 'echo ws x ws': 'passed' });
  assert.deepEqual(outcomes(parseXml(fail.stdout)).cases, { 'echo ws x ws': 'failure (inconclusive)' });
  assert.match(
    fail.stderr,
    /^gate failed at --fail-on-regression 10% with --inconclusive fail/m,
    'the gate line on stderr beside XML on stdout',
  );
});

test("a run's JUnit: failed, errors and --slo failed cells are failures, skipped cells skipped, every name escaped", () => {
  const ok = measured('ws', 200);
  const sloFailed: CellResult = {
    ...measured('uws', 200),
    slo: { verdict: 'fail', clauses: [{ clause: 'p99<0.1ms', verdict: 'fail', value: 1, why: 'p99 1 ms > 0.1 ms' }] },
  } as CellResult;
  const cells: CellResult[] = [
    ok,
    sloFailed,
    { ...cell('echo', { server: 'bun', client: 'ws', status: 'errors' }), reason: '3 connections lost' } as CellResult,
    {
      ...cell('echo', { server: 'deno', client: 'ws', status: 'failed' }),
      reason: 'server exited <code 3> & "quit"',
    } as CellResult,
    {
      scenario: 'echo',
      server: 'socketio',
      client: 'ws\u001b[31m<x>',
      params: {},
      status: 'skipped',
      reason: 'protocols differ',
      elapsedMs: 0,
    },
  ];
  const xml = junitFormat.render.run!(result(INFO, cells));
  const doc = parseXml(xml);
  assert.deepEqual(outcomes(doc).cases, {
    'ws x ws': 'passed',
    'uws x ws': 'failure (slo)',
    'bun x ws': 'failure (errors)',
    'deno x ws': 'failure (failed)',
    'socketio x ws\u241b[31m<x>': 'skipped',
  });
  const deno = doc.children[0]!.children[3]!;
  assert.equal(deno.children[0]!.attributes.message, 'server exited <code 3> & "quit"');
  assert.deepEqual(outcomes(doc).totals, { tests: '5', failures: '3', skipped: '1' });
});

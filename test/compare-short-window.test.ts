/**
 * A gate never calls noise of a window too short to measure it a regression:
 * a rate or the server's CPU measured in fewer than 3 rounds of windows under
 * 2.5 s (too short for 3 one-second rates, so nothing shows how far two runs
 * differ) is inconclusive whatever its change, and the test column says why.
 * Exact counts and status changes still regress at any size.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import type { BenchResult, MeasuredCell } from '../src/shared/types/result-types.js';
import { compareResults, type Comparison, type MetricDelta } from '../src/parent/compare/compare.js';
import { MIN_NOISE_WINDOW_MS } from '../src/parent/compare/compare-noise.js';
import { runCli, tempDir, runArgs } from './support.js';
import { cell, resources, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { rateMetric } from './fixtures/metric-declarations.js';

// Both windows are 300 ms; on a loaded machine one may measure a little shorter (0.2 s), and the reason then names each side's.
const SHORT = String.raw`(0\.\d s, 1 round|base 0\.\d s, 1 round; new 0\.\d s, 1 round)`;
const REASON = new RegExp(String.raw`^window too short to measure its noise \(${SHORT}\)$`);

/** What `compare --format json` prints, as far as this test reads it. */
interface Printed {
  cells: Array<{ deltas: MetricDelta[] }>;
  gate: { exitCode: number; regressions: Array<{ key: string; metric: string }>; inconclusive: unknown[] };
}

async function run300ms(dir: string, name: string): Promise<string> {
  const out = join(dir, name);
  const outcome = await runCli(runArgs('echo', 'ws', 'ws', '--duration', '300ms', '--out', out));
  assert.equal(outcome.code, 0, outcome.stderr);
  return out;
}

const deltaOf = (printed: Printed, metric: string): MetricDelta => {
  const found = printed.cells[0]!.deltas.find((d) => d.metric === metric);
  assert.ok(found, `${metric} compared`);
  return found;
};

test('two real 300 ms runs of ws x ws: msg/s, srv CPU % and srv RSS inconclusive with the reason; errors and a failed cell still fail the gate', async () => {
  const dir = tempDir();
  const a = await run300ms(dir, 'a.json');
  const b = await run300ms(dir, 'b.json');
  const files = ['json', 'junit', 'markdown'].map((f) => join(dir, `compare.${f}`));
  const outcome = await runCli([
    'compare',
    a,
    b,
    '--fail-on-regression',
    '5',
    ...['json', 'junit', 'markdown'].flatMap((f, i) => ['--format', `${f}=${files[i]}`]),
  ]);
  const printed = JSON.parse(readFileSync(files[0]!, 'utf8')) as Printed;
  for (const metric of ['msg/s', 'srv CPU %', 'srv RSS MiB']) {
    const d = deltaOf(printed, metric);
    assert.equal(d.verdict, 'inconclusive', `${metric}: ${JSON.stringify(d)}`);
    assert.match(d.noiseUnmeasured!, REASON);
    assert.equal(d.change, null, `${metric}: no interval made of the 5% rule alone`);
    assert.match(
      outcome.stdout,
      new RegExp(
        `^\\s+${metric.replace(/[/%]/g, '\\$&')}\\s.*window too short to measure its noise \\(${SHORT}\\)\\s+inconclusive$`,
        'm',
      ),
      'the test column names the reason',
    );
  }
  assert.match(outcome.stdout, /is inconclusive at any size \("window too short to measure its noise"/, 'the legend');
  assert.ok(printed.gate.inconclusive.length >= 2, 'the gate counts them inconclusive');
  // A latency percentile keeps the band of its histogram: between identical 0.3 s runs on a busy
  // 2-core box it read REGRESSED in 5 of 182 comparisons (p50 0.095 vs 0.16 ms), so the exit code
  // is 0 unless a latency percentile is what regressed, and nothing else ever is.
  const others = printed.gate.regressions.filter((r) => !/^rttP\d+Ms$/.test(r.key));
  assert.deepEqual(others, [], outcome.stderr);
  assert.equal(outcome.code, printed.gate.regressions.length === 0 ? 0 : 1, outcome.stderr);
  if (outcome.code === 0) assert.match(outcome.stderr, /^gate passed at --fail-on-regression 5%.*inconclusive/m);
  // JUnit and Markdown are made from the same comparison: the same verdict, no interval.
  const junit = readFileSync(files[1]!, 'utf8');
  assert.match(junit, /^msg\/s [-+]\d+\.\d%: inconclusive$/m);
  assert.match(junit, /^srv CPU % [-+]\d+\.\d%: inconclusive$/m);
  const markdown = readFileSync(files[2]!, 'utf8').split('\n');
  const columns = (line: string | undefined): string[] => (line ?? '').split(' | ');
  const header = columns(markdown.find((l) => l.startsWith('| cell |')));
  const row = columns(markdown.find((l) => l.startsWith('| echo ws x ws |')));
  assert.match(row[header.indexOf('msg/s')]!, /^[-+]\d+\.\d%$/, 'not bold, no interval');
  assert.match(markdown.join('\n'), /is inconclusive at any size/);

  // The same file with errors added by hand (this test edits a copy of the real result): any rise
  // in an exact count fails the gate, however short the window.
  const withErrors = JSON.parse(readFileSync(b, 'utf8')) as BenchResult;
  const c = withErrors.cells[0] as MeasuredCell;
  c.metrics.errors = (c.metrics.errors ?? 0) + 3;
  c.measurements.counters.errors = (c.measurements.counters.errors ?? 0) + 3;
  const errorsPath = join(dir, 'errors.json');
  writeFileSync(errorsPath, JSON.stringify(withErrors));
  const errors = await runCli(['compare', a, errorsPath, '--fail-on-regression', '5', '--json']);
  assert.equal(errors.code, 1, errors.stderr);
  const errorsGate = (JSON.parse(errors.stdout) as Printed).gate;
  assert.ok(
    errorsGate.regressions.some((r) => r.key === 'errors'),
    JSON.stringify(errorsGate.regressions),
  );
  assert.match(errors.stderr, /^regression beyond 5%: echo ws x ws: errors /m);

  // And a cell that failed (edited likewise) regresses with its status.
  const failed = JSON.parse(readFileSync(b, 'utf8')) as BenchResult;
  Object.assign(failed.cells[0]!, { status: 'failed', reason: 'server exited with code 3' });
  const failedPath = join(dir, 'failed.json');
  writeFileSync(failedPath, JSON.stringify(failed));
  const status = await runCli(['compare', a, failedPath, '--fail-on-regression', '5']);
  assert.equal(status.code, 1, status.stderr);
  assert.match(status.stderr, /^regression: echo ws x ws: status ok -> failed \(server exited with code 3\)$/m);
});

// ---------------------------------------------------------------- where the line is

const METRICS: Record<string, MetricInfo> = {
  messagesPerSec: rateMetric(),
};
const INFO = scenarioInfo('echo', { metrics: METRICS, table: ['messagesPerSec'], charts: [] });

/** One cell at `rate` msg/s in `rounds` rounds (their values `roundRates`) of `windowMs` each. */
function file(rate: number, windowMs: number, roundRates?: number[]): BenchResult {
  const rounds = roundRates?.length ?? 1;
  const c = cell('echo', {
    server: 'ws',
    client: 'ws',
    metrics: { messagesPerSec: rate },
    serverResources: resources(40, 44, 70),
    windowMs: windowMs * rounds,
  }) as MeasuredCell;
  if (roundRates) {
    c.rounds = roundRates.map((messagesPerSec) => ({
      status: 'ok' as const,
      metrics: { messagesPerSec },
      resources: { server: resources(40, 44, 70), clients: [] },
      elapsedMs: windowMs,
    }));
  }
  return { ...result(INFO, [c]), repeat: rounds };
}

function rate(comparison: Comparison): MetricDelta {
  return comparison.cells[0]!.deltas.find((d) => d.key === 'messagesPerSec')!;
}

test('the line is the shortest window with 3 one-second rates (2.5 s), or 3 rounds; either side short is enough', () => {
  assert.equal(MIN_NOISE_WINDOW_MS, 2500);
  // A 30% drop, far beyond the 5% rule of thumb.
  const short = rate(compareResults(file(10_000, 2400), file(7000, 2400)));
  assert.deepEqual(
    [short.verdict, short.noiseUnmeasured],
    ['inconclusive', 'window too short to measure its noise (2.4 s, 1 round)'],
  );
  const long = rate(compareResults(file(10_000, 2500), file(7000, 2500)));
  assert.deepEqual([long.verdict, long.noiseUnmeasured], ['regressed', undefined]);
  const oneShort = rate(compareResults(file(10_000, 5000), file(7000, 300)));
  assert.deepEqual(
    [oneShort.verdict, oneShort.noiseUnmeasured],
    ['inconclusive', 'window too short to measure its noise (new 0.3 s, 1 round)'],
  );
  // Two rounds have no spread to read (MIN_ROUNDS); three do, and the change is judged on them.
  const two = rate(compareResults(file(10_000, 300, [10_000, 10_000]), file(7000, 300, [7000, 7000])));
  assert.deepEqual(
    [two.verdict, two.noiseUnmeasured],
    ['inconclusive', 'window too short to measure its noise (0.3 s, 2 rounds)'],
  );
  const three = rate(compareResults(file(10_000, 300, [9900, 10_000, 10_100]), file(7000, 300, [6900, 7000, 7100])));
  assert.equal(three.verdict, 'regressed');
  assert.match(three.change!.method, /^two runs, Welch's t/);
  // The server's CPU follows the same rule.
  const cpu = compareResults(file(10_000, 300), file(10_000, 300)).cells[0]!.deltas.find(
    (d) => d.key === 'serverCpuPercent',
  )!;
  assert.deepEqual(
    [cpu.verdict, cpu.noiseUnmeasured],
    ['inconclusive', 'window too short to measure its noise (0.3 s, 1 round)'],
  );
});

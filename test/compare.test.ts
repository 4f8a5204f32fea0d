/**
 * compare: a 2x p99 regression is flagged, a change inside the noise is not,
 * direction comes from the declarations (msg/s up is good, latency up is bad),
 * errors and failing cells fail the gate whatever the threshold, and cells
 * match only on scenario, server, client and every parameter. Every value is
 * read from `cell.metrics`, so compare shows what the table shows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tCritical } from '../src/parent/stats/confidence.js';
import { RUN_SPREAD } from '../src/parent/stats/separate-runs.js';
import { twoCellTest } from '../src/parent/stats/two-cells.js';
import { decodeHistogram, encodeHistogram, newHistogram } from '../src/shared/measure/metrics.js';
import { histogramStat } from '../src/parent/measure/metric-values.js';
import { cellResult } from '../src/parent/engine/cell-result.js';
import { scenarioInfo as infoOf } from '../src/parent/engine/scenario-info.js';
import type { CellRun } from '../src/parent/engine/cell.js';
import { latencyMetrics, rate, total } from '../src/shared/scenario-kit/index.js';
import { declarationsOnly, measuredRun } from './fixtures/cell-runs.js';
import { compareResults, type Comparison, type MetricDelta } from '../src/parent/compare/compare.js';
import { RATE_NOISE_FRACTION } from '../src/parent/compare/cell-deltas.js';
import { renderComparison } from '../src/parent/compare/compare-text.js';
import { gate, regressionsBeyond } from '../src/parent/compare/compare-gate.js';
import { percentileNoiseMs } from '../src/parent/compare/compare-noise.js';
import { formatNumber, renderTable } from '../src/parent/report/run/table.js';
import {
  isMeasured,
  type CellResult,
  type EncodedHistogram,
  type MeasuredCell,
} from '../src/shared/types/result-types.js';
import {
  cell,
  exponentialHistogram,
  resources,
  result,
  scenarioInfo,
  seededRandom,
} from './fixtures/synthetic-results.js';
import { latencyMetric, rateMetric } from './fixtures/metric-declarations.js';

/** Declared as a user would: no name below is read by compare, only the roles, sources and headers. */
const ECHO = scenarioInfo('echo', {
  parameters: {
    connections: { kind: 'integer', description: 'open connections', default: 1, sweepable: true },
    delay: { kind: 'duration', description: 'reply delay', default: 0, sweepable: true },
  },
  metrics: {
    rttP50Ms: latencyMetric('rtt', 'p50'),
    rttP99Ms: latencyMetric('rtt', 'p99'),
    rttMaxMs: {
      header: 'max ms',
      unit: 'ms',
      better: 'lower',
      role: 'detail',
      source: { histogram: 'rtt', stat: 'max' },
    },
    messagesPerSec: rateMetric(),
    errors: { header: 'errors', unit: 'count', better: 'lower', role: 'errors', source: { counter: 'errors' } },
  },
  table: ['rttP50Ms', 'rttP99Ms', 'messagesPerSec', 'errors'],
  charts: [],
});

function echoCell(
  histogram: EncodedHistogram,
  messagesPerSec: number,
  params: Record<string, number> = { connections: 1, delay: 0 },
  errors = 0,
): MeasuredCell {
  const metrics = {
    rttP50Ms: histogramStat(histogram, 'p50'),
    rttP99Ms: histogramStat(histogram, 'p99'),
    rttMaxMs: histogramStat(histogram, 'max'),
    messagesPerSec,
    errors,
  };
  return cell('echo', {
    server: 'ws',
    client: 'ws',
    params,
    histograms: { rtt: histogram },
    metrics,
    serverResources: resources(40, 44, 70),
  }) as MeasuredCell;
}

function echoResult(histogram: EncodedHistogram, messagesPerSec: number, params?: Record<string, number>, errors = 0) {
  return result(ECHO, [echoCell(histogram, messagesPerSec, params, errors)]);
}

function deltaOf(comparison: Comparison, metric: string): MetricDelta {
  const found = comparison.cells[0]!.deltas.find((d) => d.metric === metric);
  assert.ok(found, `delta ${metric} present`);
  return found;
}

/** The same samples twice, the second time with every value at or above p98 times `factor`: p50 stays, p99 moves by `factor`. */
function withTailScaled(seed: number, factor: number): { base: EncodedHistogram; slower: EncodedHistogram } {
  const random = seededRandom(seed);
  const samples = Array.from({ length: 20_000 }, () => Math.round(200 - 100 * Math.log(1 - random())));
  const cut = [...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.98)]!;
  const base = newHistogram();
  const slower = newHistogram();
  for (const v of samples) {
    base.recordValue(v);
    slower.recordValue(v >= cut ? Math.round(v * factor) : v);
  }
  return { base: encodeHistogram(base), slower: encodeHistogram(slower) };
}

test('a 2x p99 regression is flagged, the unchanged p50 is not; only declared comparing roles are compared', () => {
  const { base, slower } = withTailScaled(7, 2);
  const comparison = compareResults(echoResult(base, 10_000), echoResult(slower, 10_000));
  const p99 = deltaOf(comparison, 'p99 ms');
  assert.equal(p99.verdict, 'regressed');
  assert.equal(p99.key, 'rttP99Ms');
  assert.ok(Math.abs(p99.changePct! - 100) < 1, `p99 doubled (${p99.changePct}%)`);
  // An unchanged p50 measured once: its run-to-run band is wider than the 5% margin, so the data cannot say it did not move.
  assert.equal(deltaOf(comparison, 'p50 ms').verdict, 'inconclusive');
  assert.deepEqual(
    comparison.cells[0]!.deltas.map((d) => d.metric),
    ['p50 ms', 'p99 ms', 'msg/s', 'errors', 'srv CPU %', 'srv RSS MiB'],
    'max ms is a detail',
  );
  assert.deepEqual(
    regressionsBeyond(comparison, 50).map((r) => r.delta.metric),
    ['p99 ms'],
  );
  assert.deepEqual(regressionsBeyond(comparison, 150), [], 'a +100% change is not beyond 150%');
  const verdict = gate(comparison, 50);
  assert.equal(verdict.exitCode, 1);
  assert.equal(verdict.thresholdPct, 50);
  assert.deepEqual(
    verdict.regressions.map((r) => [r.cell, r.metric, r.key, r.base, r.next]),
    [['echo ws x ws', 'p99 ms', 'rttP99Ms', p99.base, p99.next]],
  );
  const lenient = gate(compareResults(echoResult(base, 10_000), echoResult(slower, 10_000), { marginPct: 150 }), 150);
  assert.deepEqual([lenient.thresholdPct, lenient.regressions, lenient.exitCode], [150, [], 0]);
  assert.match(
    lenient.summary,
    /^gate passed at --fail-on-regression 150%: 1 cell compared, none regressed significantly by more than 150%, none failed, skipped or missing; \d+ changes? inconclusive/,
  );
  assert.equal(
    gate(compareResults(echoResult(base, 10_000), echoResult(slower, 10_000), { marginPct: 150 }), 150, 'fail')
      .exitCode,
    3,
    '--inconclusive fail',
  );
});

test('two samples of the same distribution: no verdict says they differ (unchanged or inconclusive)', () => {
  const a = exponentialHistogram(5000, 300, 1, 100);
  const b = exponentialHistogram(5000, 300, 2, 100);
  const comparison = compareResults(echoResult(a, 10_000), echoResult(b, 10_000 * (1 + RATE_NOISE_FRACTION / 2)));
  for (const metric of ['p50 ms', 'p99 ms', 'msg/s', 'errors', 'srv CPU %', 'srv RSS MiB']) {
    const d = deltaOf(comparison, metric);
    assert.ok(
      ['unchanged', 'inconclusive'].includes(d.verdict),
      `${metric}: ${d.base} -> ${d.next} (noise ${d.noise}): ${d.verdict}`,
    );
  }
  // The samples do differ: the rule did not pass them for being identical.
  assert.notEqual(deltaOf(comparison, 'p99 ms').changePct, 0);
  assert.deepEqual(regressionsBeyond(comparison, 0), []);
  assert.equal(gate(comparison, 0).exitCode, 0);
});

test('identical files: no delta regressed or improved, nothing for the gate', () => {
  const file = echoResult(exponentialHistogram(3000, 300, 9), 10_000);
  const comparison = compareResults(file, structuredClone(file));
  for (const d of comparison.cells[0]!.deltas)
    assert.ok(['unchanged', 'inconclusive'].includes(d.verdict), `${d.metric}: ${d.verdict}`);
  assert.equal(deltaOf(comparison, 'errors').verdict, 'unchanged');
  assert.deepEqual(gate(comparison, 0).regressions, []);
});

test('a 15% p99 shift is inside the run-to-run band of an exponential tail (spread p96.8..p99.7 is wider): inconclusive', () => {
  const { base, slower } = withTailScaled(11, 1.15);
  const p99 = deltaOf(compareResults(echoResult(base, 10_000), echoResult(slower, 10_000)), 'p99 ms');
  assert.ok(p99.changePct! > 14 && p99.changePct! < 16, `p99 moved ${p99.changePct}%`);
  assert.equal(p99.verdict, 'inconclusive', `noise ${p99.noise} ms vs change ${p99.next! - p99.base!} ms`);
  assert.equal(
    p99.change!.level,
    null,
    'a band, no confidence interval: the fixture has neither rounds nor a time series',
  );
});

test('noise is half the spread half a nine either side: exact on a uniform histogram', () => {
  const histogram = newHistogram();
  for (let v = 1; v <= 10_000; v++) histogram.recordValue(v * 1000); // 1..10000 ms, uniform
  const decoded = decodeHistogram(encodeHistogram(histogram));
  // p50: min .. p84.2 -> (8419 - 1) / 2 ms, within the histogram's 0.1% precision.
  const expected = (10_000 * (1 - 0.5 / Math.sqrt(10)) - 1) / 2;
  assert.ok(
    Math.abs(percentileNoiseMs(decoded, 50) - expected) / expected < 0.002,
    `${percentileNoiseMs(decoded, 50)} vs ${expected}`,
  );
  // p99: p96.84 .. p99.68 -> (9968 - 9684) / 2.
  const expected99 = (10_000 * (1 - 0.01 / Math.sqrt(10)) - 10_000 * (1 - 0.01 * Math.sqrt(10))) / 2;
  assert.ok(
    Math.abs(percentileNoiseMs(decoded, 99) - expected99) / expected99 < 0.05,
    `${percentileNoiseMs(decoded, 99)} vs ${expected99}`,
  );
});

/** The echo result in a window of `windowMs`: from 2.5 s on, long enough for compare to have measured a rate's noise. */
function inWindow(file: ReturnType<typeof echoResult>, windowMs: number): ReturnType<typeof echoResult> {
  (file.cells[0] as MeasuredCell).measurements.windowMs = windowMs;
  return file;
}

test('direction comes from `better`: more msg/s is an improvement, fewer beyond 5% a regression', () => {
  const h = exponentialHistogram(2000, 300, 3);
  const long = (rate: number) => inWindow(echoResult(h, rate), 5000);
  const faster = compareResults(long(10_000), long(12_000));
  assert.equal(deltaOf(faster, 'msg/s').verdict, 'improved');
  const slower = compareResults(long(10_000), long(8_000));
  assert.equal(deltaOf(slower, 'msg/s').verdict, 'regressed');
  assert.equal(regressionsBeyond(slower, 15).length, 1);
  assert.equal(regressionsBeyond(slower, 25).length, 0);
});

test('errors from 0 to 3 regress whatever the threshold; the same count is unchanged', () => {
  const h = exponentialHistogram(2000, 300, 4);
  const worse = compareResults(echoResult(h, 10_000, undefined, 0), echoResult(h, 10_000, undefined, 3));
  const errors = deltaOf(worse, 'errors');
  assert.deepEqual([errors.verdict, errors.noise, errors.changePct], ['regressed', 0, null]);
  assert.equal(gate(worse, 1000).exitCode, 1);
  assert.deepEqual(
    gate(worse, 1000).regressions.map((r) => [r.metric, r.base, r.next]),
    [['errors', 0, 3]],
  );
  // 3 -> 4 is +33%: still a regression beyond a 50% gate, since any increase counts.
  assert.equal(
    gate(compareResults(echoResult(h, 10_000, undefined, 3), echoResult(h, 10_000, undefined, 4)), 50).exitCode,
    1,
  );
  assert.equal(
    deltaOf(compareResults(echoResult(h, 10_000, undefined, 3), echoResult(h, 10_000, undefined, 3)), 'errors').verdict,
    'unchanged',
  );
});

function withStatus(
  file: ReturnType<typeof echoResult>,
  status: 'failed' | 'skipped',
  measured = true,
): ReturnType<typeof echoResult> {
  const c = file.cells[0]!;
  const identity = {
    scenario: c.scenario,
    server: c.server,
    client: c.client,
    params: c.params,
    elapsedMs: c.elapsedMs,
  };
  const next: CellResult =
    status === 'skipped'
      ? { ...identity, status, reason: 'stack not installed' }
      : measured && isMeasured(c)
        ? { ...c, status, reason: 'server exited' }
        : { ...identity, status, reason: 'server did not start' };
  return { ...file, cells: [next] };
}

test('ok -> failed and failed -> failed regress with their status, whatever the threshold', () => {
  const h = exponentialHistogram(2000, 300, 4);
  const ok = echoResult(h, 10_000);
  const okToFailed = compareResults(ok, withStatus(echoResult(h, 10_000), 'failed'));
  assert.equal(okToFailed.cells[0]!.deltas[0]!.metric, 'status');
  assert.equal(regressionsBeyond(okToFailed, 1000).length, 1);
  assert.match(renderComparison(okToFailed, { base: 'a.json', next: 'b.json' }), /status\s+ok\s+failed\s+REGRESSED/);
  assert.deepEqual(
    gate(okToFailed, 1000).regressions.map((r) => [r.metric, r.base, r.next]),
    [['status', 'ok', 'failed']],
  );

  const failedToFailed = compareResults(
    withStatus(echoResult(h, 10_000), 'failed', false),
    withStatus(echoResult(h, 10_000), 'failed', false),
  );
  assert.deepEqual(
    failedToFailed.cells[0]!.deltas.map((d) => [d.metric, d.verdict]),
    [['status', 'regressed']],
  );
  assert.match(
    renderComparison(failedToFailed, { base: 'a.json', next: 'b.json' }),
    /status\s+failed\s+failed\s+REGRESSED/,
  );
  assert.equal(gate(failedToFailed, 1000).exitCode, 1);

  const fixed = compareResults(withStatus(echoResult(h, 10_000), 'failed'), ok);
  assert.equal(fixed.cells[0]!.deltas[0]!.verdict, 'improved');
  assert.equal(gate(fixed, 0).exitCode, 0);
});

test('skipped on both sides: no deltas, nothing for the gate', () => {
  const h = exponentialHistogram(2000, 300, 4);
  const comparison = compareResults(
    withStatus(echoResult(h, 10_000), 'skipped'),
    withStatus(echoResult(h, 10_000), 'skipped'),
  );
  assert.deepEqual(comparison.cells[0]!.deltas, []);
  assert.match(renderComparison(comparison, { base: 'a', next: 'b' }), /status\s+skipped\s+skipped\s+n\/a/);
  assert.equal(gate(comparison, 0).exitCode, 0);
});

test('cells match on parameters too; labels list the varying ones, with units; the table names the cells each file alone has', () => {
  const h = exponentialHistogram(2000, 300, 5);
  const base = echoResult(h, 10_000);
  const next = echoResult(h, 10_000, { connections: 10, delay: 10 });
  assert.equal(compareResults(base, next).cells.length, 0);
  next.cells.push(base.cells[0]!);
  const comparison = compareResults(base, next);
  assert.equal(comparison.cells.length, 1);
  const text = renderComparison(comparison, { base: 'base.json', next: 'new.json' });
  assert.match(text, /only in new \(1\): echo ws x ws connections=10 delay=10ms/);
  assert.match(text, /^echo ws x ws connections=1 delay=0ms\s+p50 ms/m);
  assert.match(text, /^cell\s+metric\s+base\s+new\s+change\s+\d+(\.\d+)?% interval\s+test\s+verdict$/m);
  assert.match(text, /p99 ms/);
});

/** An echo result whose time series received `perSecond[i]` messages in second i, over a window that long. */
function withRates(perSecond: number[]) {
  const r = inWindow(
    echoResult(exponentialHistogram(2000, 300, 5), perSecond.reduce((a, b) => a + b, 0) / perSecond.length),
    perSecond.length * 1000,
  );
  let received = 0;
  (r.cells[0] as MeasuredCell).measurements.timeSeries = {
    intervalMs: 1000,
    points: perSecond.map((n, i) => ({ tMs: (i + 1) * 1000, counters: { received: (received += n) }, latency: {} })),
  };
  return r;
}

test('rate noise is the spread of the per-interval rates of the source counter when the time series shows one', () => {
  // A window whose rate wandered 8k..12k per second: a 10% lower mean is inside that.
  const wandering = compareResults(withRates([8000, 12_000, 9000, 11_000]), withRates([9000, 9000, 9000, 9000]));
  const d = deltaOf(wandering, 'msg/s');
  assert.equal(d.verdict, 'inconclusive');
  assert.ok(Math.abs(d.noise! - 1825.7) < 0.1, `noise ${d.noise}`);
  // Steady windows: the same 10% drop is a regression.
  const steady = compareResults(withRates([10_000, 10_000, 10_000, 10_000]), withRates([9000, 9000, 9000, 9000]));
  assert.equal(deltaOf(steady, 'msg/s').verdict, 'regressed');
  assert.equal(deltaOf(steady, 'msg/s').noise, 500, 'never less than 5% of base');
});

test("with --repeat, two files' change is judged on the rounds (Welch on their logs, with the run-to-run spread), around the pooled values", () => {
  const h = exponentialHistogram(2000, 300, 7);
  const repeated = (rates: number[]) => {
    const r = echoResult(h, rates[1]!);
    (r.cells[0] as MeasuredCell).rounds = rates.map((messagesPerSec) => ({
      status: 'ok' as const,
      metrics: { messagesPerSec },
      elapsedMs: 1000,
    }));
    return { ...r, repeat: rates.length };
  };
  // Rounds of 8k, 10k, 12k: a 15% lower rate is inside their spread (stdev 2000).
  const d = deltaOf(compareResults(repeated([8000, 10_000, 12_000]), repeated([8500, 8500, 8500])), 'msg/s');
  assert.equal(d.noise, 2000);
  assert.equal(d.verdict, 'inconclusive');
  assert.match(d.change!.method, /^two runs, Welch's t, t\(\d+(\.\d)?\)$/);
  // The change the columns show (10000 -> 8500), not the rounds' geometric means (which read -14.3 %).
  assert.ok(Math.abs(d.change!.estimatePct - -15) < 1e-9, `${d.change!.estimatePct}`);
  assert.equal(d.change!.estimatePct, d.changePct);
  // Each side: its rounds' spread s * sqrt(1/3 + 1) (2 degrees of freedom), and RUN_SPREAD (known).
  const logs = [8000, 10_000, 12_000].map(Math.log);
  const sd = Math.sqrt(logs.reduce((sum, x) => sum + (x - logs.reduce((a, b) => a + b, 0) / 3) ** 2, 0) / 2);
  const rounds = sd ** 2 * (1 / 3 + 1);
  const variance = rounds + 2 * RUN_SPREAD ** 2;
  const df = variance ** 2 / (rounds ** 2 / 2);
  const half = tCritical(df, d.change!.level!) * Math.sqrt(variance);
  assert.ok(
    Math.abs(d.change!.highPct - (Math.exp(Math.log(0.85) + half) - 1) * 100) < 1e-9,
    'the rounds spread its logs, and each run may sit RUN_SPREAD from the next',
  );
});

test('two files of one build whose runs sit 20 % apart (the machine moved between them) read no change', () => {
  // Measured: the msg/s rounds of two runs of one build, 90 s apart on a 2-core VM (Welch alone: -20.4 % [-31.4 %, -7.8 %], REGRESSED).
  const h = exponentialHistogram(2000, 300, 7);
  const repeated = (rates: number[]) => {
    const r = echoResult(h, rates.reduce((a, b) => a + b, 0) / rates.length);
    (r.cells[0] as MeasuredCell).rounds = rates.map((messagesPerSec) => ({
      status: 'ok' as const,
      metrics: { messagesPerSec },
      elapsedMs: 1000,
    }));
    return { ...r, repeat: rates.length };
  };
  const base = repeated([31_494, 33_854, 29_554, 33_849, 31_547]);
  const next = repeated([22_791, 25_483, 26_727, 27_109, 25_409]);
  const d = deltaOf(compareResults(base, next, { marginPct: 5 }), 'msg/s');
  assert.ok(d.changePct! < -19, `${d.changePct}`);
  assert.match(d.change!.method, /^two runs/);
  // Welch's t on the rounds alone, at the same level, would have called it a change.
  const sides = [base, next].map((r) => {
    const c = r.cells[0] as MeasuredCell;
    return { value: c.metrics.messagesPerSec as number, rounds: c.rounds!.map((x) => x.metrics!.messagesPerSec) };
  });
  const welch = twoCellTest(sides[1]!, sides[0]!, { paired: false, level: d.change!.level! });
  assert.equal(welch?.outcome, 'differs', JSON.stringify(welch));
  assert.equal(d.verdict, 'inconclusive', JSON.stringify(d.change));
  assert.ok(d.change!.lowPct < d.changePct! && d.change!.highPct > 0, JSON.stringify(d.change));
});

test('one round of short windows gets a warning', () => {
  const h = exponentialHistogram(2000, 300, 7);
  const comparison = compareResults(echoResult(h, 10_000), { ...echoResult(h, 10_000), repeat: 3 });
  assert.equal(comparison.warnings.length, 1);
  assert.match(comparison.warnings[0]!, /^base measured each cell once, in windows of 2\.0 s or less/);
  assert.match(renderComparison(comparison, { base: 'a', next: 'b' }), /^warning: base measured/m);
});

// ---------------------------------------------------------------- one statistic per cell

const scenario = declarationsOnly(
  'pooled',
  {
    ...latencyMetrics('rtt', { stats: ['p50', 'p99'], primary: ['p50', 'p99'] }),
    messagesPerSec: rate('received', 'msg/s', { unit: 'msg/s', role: 'primary-rate' }),
    errors: total('errors', 'errors', { role: 'errors' }),
  },
  ['rttP50Ms', 'rttP99Ms', 'messagesPerSec', 'errors'],
);

const round = (seed: number, meanUs: number, received: number): CellRun =>
  measuredRun(exponentialHistogram(1000, meanUs, seed, 50), { received, errors: 0 }, 1000, { stackDrops: 0 });

test('compare shows the same number as the table for a repeated cell', () => {
  const identity = { scenario: 'pooled', server: 'ws', client: 'ws', params: {} };
  const pooled = cellResult(identity, scenario, 1, [round(1, 200, 900), round(2, 400, 1000), round(3, 300, 1300)]);
  const file = { ...result(infoOf(scenario), [pooled]), repeat: 3 };
  const comparison = compareResults(file, structuredClone(file));
  const table = renderTable(file).split('\n');
  // Columns are two spaces apart at least; a number's interval (`0.25 ±0.01`) is one space after it.
  const row = table
    .find((line) => line.startsWith('ws '))!
    .trim()
    .split(/\s{2,}/)
    .map((value) => value.split(' ')[0]);
  const header = table.find((line) => line.startsWith('server '))!.split(/\s{2,}/);
  assert.ok(isMeasured(pooled));
  for (const [key, metric] of [
    ['rttP50Ms', 'p50 ms'],
    ['rttP99Ms', 'p99 ms'],
    ['messagesPerSec', 'msg/s'],
  ] as const) {
    const shown = row[header.indexOf(metric)];
    const d = deltaOf(comparison, metric);
    assert.equal(d.base, pooled.metrics[key], `${metric}: compare reads the cell's metric`);
    assert.equal(formatNumber(d.base), shown, `${metric}: compare ${d.base}, table ${shown}`);
  }
  // Pooled, not a median of rounds: 3200 messages over 3 s of windows.
  assert.ok(Math.abs(deltaOf(comparison, 'msg/s').base! - 3200 / 3) < 1e-9);
});

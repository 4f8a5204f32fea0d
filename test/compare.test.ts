/**
 * compare: a 2x p99 regression is flagged, a change inside the noise is not,
 * direction matters (msg/s up is good, latency up is bad), and cells match
 * only on scenario, server, client and every parameter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHistogram, encodeHistogram, newHistogram } from '../src/core/metrics.js';
import { compareResults, percentileNoiseMs, regressionsBeyond, renderComparison, RATE_NOISE_FRACTION, type MetricDelta } from '../src/report/compare.js';
import type { EncodedHistogram } from '../src/result-types.js';
import { cell, exponentialHistogram, resources, result, seededRandom } from './fixtures/synthetic-results.js';

const COLUMNS = [{ key: 'rttP50Ms', header: 'p50' }];

function echoResult(histogram: EncodedHistogram, messagesPerSec: number, params = { connections: 1 }) {
  return result('echo', COLUMNS, [cell('echo', { server: 'ws', client: 'ws', params, histograms: { rtt: histogram }, metrics: { messagesPerSec }, serverResources: resources(40, 44, 70) })]);
}

function deltaOf(comparison: ReturnType<typeof compareResults>, metric: string): MetricDelta {
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

test('a 2x p99 regression is flagged, the unchanged p50 is not', () => {
  const { base, slower } = withTailScaled(7, 2);
  const comparison = compareResults(echoResult(base, 10_000), echoResult(slower, 10_000));
  const p99 = deltaOf(comparison, 'rtt p99 ms');
  assert.equal(p99.verdict, 'regressed');
  assert.ok(Math.abs(p99.changePct! - 100) < 1, `p99 doubled (${p99.changePct}%)`);
  assert.equal(deltaOf(comparison, 'rtt p50 ms').verdict, 'within noise');
  assert.deepEqual(regressionsBeyond(comparison, 50).map((r) => r.delta.metric), ['rtt p99 ms']);
  assert.deepEqual(regressionsBeyond(comparison, 150), [], 'a +100% change is not beyond 150%');
});

test('two samples of the same distribution differ only within the noise', () => {
  const a = exponentialHistogram(5000, 300, 1, 100);
  const b = exponentialHistogram(5000, 300, 2, 100);
  const comparison = compareResults(echoResult(a, 10_000), echoResult(b, 10_000 * (1 + RATE_NOISE_FRACTION / 2)));
  for (const metric of ['rtt p50 ms', 'rtt p99 ms', 'msg/s', 'srv CPU %', 'srv RSS MiB']) {
    const d = deltaOf(comparison, metric);
    assert.equal(d.verdict, 'within noise', `${metric}: ${d.base} -> ${d.next} (noise ${d.noise})`);
  }
  // The samples do differ: the rule did not pass them for being identical.
  assert.notEqual(deltaOf(comparison, 'rtt p99 ms').changePct, 0);
  assert.deepEqual(regressionsBeyond(comparison, 0), []);
});

test('a 15% p99 shift is inside the noise of an exponential tail (spread p96.8..p99.7 is wider)', () => {
  const { base, slower } = withTailScaled(11, 1.15);
  const p99 = deltaOf(compareResults(echoResult(base, 10_000), echoResult(slower, 10_000)), 'rtt p99 ms');
  assert.ok(p99.changePct! > 14 && p99.changePct! < 16, `p99 moved ${p99.changePct}%`);
  assert.equal(p99.verdict, 'within noise', `noise ${p99.noise} ms vs change ${p99.next! - p99.base!} ms`);
});

test('noise is half the spread half a nine either side: exact on a uniform histogram', () => {
  const histogram = newHistogram();
  for (let v = 1; v <= 10_000; v++) histogram.recordValue(v * 1000); // 1..10000 ms, uniform
  const decoded = decodeHistogram(encodeHistogram(histogram));
  // p50: min .. p84.2 -> (8419 - 1) / 2 ms, within the histogram's 0.1% precision.
  const expected = (10_000 * (1 - 0.5 / Math.sqrt(10)) - 1) / 2;
  assert.ok(Math.abs(percentileNoiseMs(decoded, 50) - expected) / expected < 0.002, `${percentileNoiseMs(decoded, 50)} vs ${expected}`);
  // p99: p96.84 .. p99.68 -> (9968 - 9684) / 2.
  const expected99 = (10_000 * (1 - 0.01 / Math.sqrt(10)) - 10_000 * (1 - 0.01 * Math.sqrt(10))) / 2;
  assert.ok(Math.abs(percentileNoiseMs(decoded, 99) - expected99) / expected99 < 0.05, `${percentileNoiseMs(decoded, 99)} vs ${expected99}`);
});

test('direction: more msg/s is an improvement, fewer beyond 5% a regression', () => {
  const h = exponentialHistogram(2000, 300, 3);
  const faster = compareResults(echoResult(h, 10_000), echoResult(h, 12_000));
  assert.equal(deltaOf(faster, 'msg/s').verdict, 'improved');
  const slower = compareResults(echoResult(h, 10_000), echoResult(h, 8_000));
  assert.equal(deltaOf(slower, 'msg/s').verdict, 'regressed');
  assert.equal(regressionsBeyond(slower, 15).length, 1);
  assert.equal(regressionsBeyond(slower, 25).length, 0);
});

test('a cell that was ok and now fails is a regression whatever the threshold', () => {
  const h = exponentialHistogram(2000, 300, 4);
  const broken = echoResult(h, 10_000);
  broken.cells[0]!.status = 'failed';
  broken.cells[0]!.reason = 'server exited';
  const comparison = compareResults(echoResult(h, 10_000), broken);
  assert.equal(regressionsBeyond(comparison, 1000).length, 1);
  assert.match(renderComparison(comparison, { base: 'a.json', next: 'b.json' }), /status\s+ok\s+failed\s+REGRESSED/);
});

test('cells match on parameters too; the table names the cells each file alone has', () => {
  const h = exponentialHistogram(2000, 300, 5);
  const base = echoResult(h, 10_000);
  const next = echoResult(h, 10_000, { connections: 10 });
  assert.equal(compareResults(base, next).cells.length, 0);
  next.cells.push(base.cells[0]!);
  const comparison = compareResults(base, next);
  assert.equal(comparison.cells.length, 1);
  const text = renderComparison(comparison, { base: 'base.json', next: 'new.json' });
  assert.match(text, /only in new \(1\): echo ws x ws connections=10/);
  assert.match(text, /^cell\s+metric\s+base\s+new\s+change\s+noise ±\s+verdict$/m);
  assert.match(text, /rtt p99 ms/);
});

/** An echo result whose time series received `perSecond[i]` messages in second i. */
function withRates(perSecond: number[]) {
  const r = echoResult(exponentialHistogram(2000, 300, 5), perSecond.reduce((a, b) => a + b, 0) / perSecond.length);
  let total = 0;
  r.cells[0]!.measurements!.timeSeries = {
    intervalMs: 1000,
    points: perSecond.map((n, i) => ({ tMs: (i + 1) * 1000, counters: { received: (total += n) }, latency: {} })),
  };
  return r;
}

test('msg/s noise is the spread of the per-second rates when the time series shows one', () => {
  // A window whose rate wandered 8k..12k per second: a 10% lower mean is inside that.
  const wandering = compareResults(withRates([8000, 12_000, 9000, 11_000]), withRates([9000, 9000, 9000, 9000]));
  const d = deltaOf(wandering, 'msg/s');
  assert.equal(d.verdict, 'within noise');
  assert.ok(Math.abs(d.noise! - 1825.7) < 0.1, `noise ${d.noise}`);
  // Steady windows: the same 10% drop is a regression.
  const steady = compareResults(withRates([10_000, 10_000, 10_000, 10_000]), withRates([9000, 9000, 9000, 9000]));
  assert.equal(deltaOf(steady, 'msg/s').verdict, 'regressed');
  assert.equal(deltaOf(steady, 'msg/s').noise, 500, 'never less than 5% of base');
});

test('with --repeat, the spread between rounds is noise too', () => {
  const h = exponentialHistogram(2000, 300, 7);
  const repeated = (rates: number[]) => {
    const r = echoResult(h, rates[1]!);
    r.cells[0]!.rounds = rates.map((messagesPerSec) => ({ status: 'ok' as const, metrics: { messagesPerSec }, elapsedMs: 1000 }));
    return r;
  };
  // Rounds of 8k, 10k, 12k: a 15% lower median is inside their spread (stdev 2000).
  const d = deltaOf(compareResults(repeated([8000, 10_000, 12_000]), repeated([8500, 8500, 8500])), 'msg/s');
  assert.equal(d.noise, 2000);
  assert.equal(d.verdict, 'within noise');
});

/**
 * The precision /metrics states for wsbench_latency_seconds, from 1 µs to 60 s:
 * PromQL's own histogram_quantile (promtool's rule unit tests run Prometheus'
 * query engine in process) over the classic buckets reads every distribution's
 * p50 and p99 within QUANTILE_PRECISION of the result's HDR percentiles. The
 * native histogram has the same bucket bounds (schema 3); a real Prometheus
 * reads it in test/live-prometheus.test.ts. Skips where promtool is absent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newHistogram, summarizeHistogram } from '../src/shared/measure/metrics.js';
import {
  LATENCY_BUCKET_BOUNDS_SECONDS,
  latencyBuckets,
  nativeIndex,
  QUANTILE_PRECISION,
} from '../src/parent/live/latency-buckets.js';
import { PROMTOOL, promtoolSkip } from './prometheus.js';
import { tempDir } from './support.js';

/** Distributions as [µs, count] pairs: single values across the range, spreads, a loopback echo, a bimodal machine. */
const DISTRIBUTIONS: Record<string, Array<[number, number]>> = {
  ...Object.fromEntries(
    [
      1, 2, 3, 7, 17, 50, 99, 101, 250, 1000, 2047, 4097, 12_345, 99_999, 250_000, 1_000_000, 7_000_000, 30_000_000,
      59_000_000, 60_000_000,
    ].map((us) => [`at ${us} us`, [[us, 100]]]),
  ),
  'log-uniform 1 us to 60 s': Array.from(
    { length: 390 },
    (_, k) => [Math.round(10 ** (k / 50)), 1] as [number, number],
  ).filter(([us]) => us <= 60_000_000),
  'loopback echo': [
    [14, 50],
    [15, 400],
    [16, 900],
    [17, 1200],
    [18, 800],
    [20, 400],
    [25, 150],
    [40, 60],
    [90, 25],
    [480, 10],
    [2200, 1],
  ],
  'bimodal 17 us / 50 us': [
    [17, 600],
    [50, 400],
  ],
  'firehose assembly': [
    [1, 700],
    [2, 200],
    [3, 60],
    [9, 30],
    [28, 10],
  ],
  'seconds with a tail': [
    [900_000, 50],
    [1_100_000, 40],
    [3_000_000, 9],
    [45_000_000, 1],
  ],
};

test(`PromQL reads p50 and p99 of the classic buckets within ${QUANTILE_PRECISION * 100} % of the HDR's, from 1 us to 60 s`, {
  skip: promtoolSkip,
  timeout: 60_000,
}, () => {
  const series: string[] = [];
  const checks: string[] = [];
  Object.entries(DISTRIBUTIONS).forEach(([name, samples], d) => {
    const histogram = newHistogram();
    for (const [us, count] of samples) histogram.recordValueWithCount(us, count);
    const buckets = latencyBuckets(histogram);
    const summary = summarizeHistogram(histogram)!;
    LATENCY_BUCKET_BOUNDS_SECONDS.forEach((bound, i) => {
      series.push(seriesYaml(d, String(bound), buckets.cumulativeCounts[i]!));
    });
    series.push(seriesYaml(d, '+Inf', buckets.count));
    for (const [q, ms] of [
      [0.5, summary.p50Ms],
      [0.99, summary.p99Ms],
    ] as const) {
      const expected = ms / 1000;
      checks.push(
        [
          `      - expr: 'abs(histogram_quantile(${q}, h_bucket{d="${d}"}) - ${expected}) / ${expected} <= bool ${QUANTILE_PRECISION}'`,
          '        eval_time: 1m',
          `        exp_samples: [{ labels: '{d="${d}"}', value: 1 }]  # ${name}: p${q * 100} ${ms} ms`,
        ].join('\n'),
      );
    }
  });
  const file = join(tempDir(), 'quantiles.yml');
  writeFileSync(
    file,
    [
      'rule_files: []',
      'evaluation_interval: 1m',
      'tests:',
      '  - interval: 1m',
      '    input_series:',
      ...series,
      '    promql_expr_test:',
      ...checks,
      '',
    ].join('\n'),
  );
  const promtool = spawnSync(PROMTOOL, ['test', 'rules', file], { encoding: 'utf8', timeout: 50_000 });
  assert.equal(promtool.status, 0, `${promtool.stdout}${promtool.stderr}`);
});

test('a value on a bucket bound counts in that bucket, and the classic bounds run from below 1 us to above 60 s', () => {
  assert.ok(LATENCY_BUCKET_BOUNDS_SECONDS[0]! < 1e-6 && LATENCY_BUCKET_BOUNDS_SECONDS.at(-1)! > 60);
  for (const bound of LATENCY_BUCKET_BOUNDS_SECONDS) {
    const index = nativeIndex(bound);
    assert.equal(nativeIndex(bound * (1 + 1e-12)), index + 1, `just above ${bound}`);
    assert.equal(2 ** (index / 8), bound);
  }
  const widest = Math.max(
    ...LATENCY_BUCKET_BOUNDS_SECONDS.slice(1).map((bound, i) => bound / LATENCY_BUCKET_BOUNDS_SECONDS[i]! - 1),
  );
  assert.ok(widest + 0.001 <= QUANTILE_PRECISION, `buckets ${(widest * 100).toFixed(2)} % wide`);
});

function seriesYaml(d: number, le: string, cumulative: number): string {
  return `      - series: 'h_bucket{d="${d}",le="${le}"}'\n        values: '0 ${cumulative}'`;
}

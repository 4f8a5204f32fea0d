/**
 * `run --control`: the first pair measured twice more, as the first and the
 * last cell of every round; the result keeps the two apart from the matrix, with
 * the ratio of each key number and its interval, and the table says how far two
 * identical cells read apart. A control whose ratio excludes 1 says the
 * intervals understate the machine's noise.
 *
 * Slow (about 40 s): real runs with --control (two more cells every round) and --repeat.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import type { BenchResult, MeasuredCell } from '../src/shared/types/result-types.js';
import { controlDisagrees, controlSection } from '../src/parent/stats/control.js';
import { runCli, tempDir, runArgs } from './support.js';
import { cell } from './fixtures/synthetic-results.js';
import { latencyMetric } from './fixtures/metric-declarations.js';

test('--control: two more cells of the first pair, first and last of every round, kept apart from the matrix', {
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'control.json');
  const outcome = await runCli(
    runArgs('echo', 'ws,uws', 'ws', '--control', '--repeat', '3', '--duration', '300ms', '--out', out),
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const started = [...outcome.stderr.matchAll(/round (\d)\/3 echo (\w+) x ws[^:]*: started/g)].map(
    (m) => `${m[1]}${m[2]}`,
  );
  assert.deepEqual(started, ['1ws', '1ws', '1uws', '1ws', '2ws', '2ws', '2uws', '2ws', '3ws', '3ws', '3uws', '3ws']);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  assert.deepEqual(
    result.cells.map((c) => `${c.server} x ${c.client}`),
    ['ws x ws', 'uws x ws'],
    'the matrix as without --control',
  );
  const control = result.control!;
  assert.deepEqual([control.server, control.client, control.cells.length], ['ws', 'ws', 2]);
  for (const c of control.cells) assert.equal((c as MeasuredCell).rounds?.length, 3);
  for (const key of ['rttP50Ms', 'rttP99Ms', 'messagesPerSec']) {
    const ratio = control.ratios[key]!;
    assert.equal(ratio.method, 'paired rounds', key);
    assert.ok(ratio.low <= ratio.ratio && ratio.ratio <= ratio.high, `${key}: ${JSON.stringify(ratio)}`);
  }
  assert.match(
    outcome.stdout,
    /^control: ws x ws measured twice in every round \(first and last\), second over first: p50 ms \d+\.\d\d \[\d+\.\d\d, \d+\.\d\d\], /m,
  );
});

const METRICS: Record<string, MetricInfo> = {
  p50: latencyMetric('rtt', 'p50'),
};

test('a control whose two cells differ beyond their rounds is named', () => {
  const measured = (rounds: number[]) => ({
    ...(cell('echo', { server: 'ws', client: 'ws', metrics: { p50: rounds[1]! } }) as MeasuredCell),
    rounds: rounds.map((p50) => ({ status: 'ok' as const, metrics: { p50 }, elapsedMs: 500 })),
  });
  const steady = controlSection(METRICS, measured([10, 20, 15]), measured([10.2, 19.8, 15.1]));
  assert.deepEqual(controlDisagrees(steady), []);
  const drifting = controlSection(METRICS, measured([10, 20, 15]), measured([13, 26.2, 19.4]));
  assert.deepEqual(controlDisagrees(drifting), ['p50']);
  // The ratio of the two values the table would show (26.2 over 20), its interval from the rounds paired.
  assert.ok(Math.abs(drifting.ratios.p50!.ratio - 26.2 / 20) < 1e-9);
});

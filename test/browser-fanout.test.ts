/**
 * fanout with the browser client: one-way delays from the server's timestamp
 * to the page, read on the page clock moved onto CLOCK_MONOTONIC. Every tick
 * reaches every page connection, and the delays are those of a loopback hop
 * (positive, well under the run), which a wrong offset could not give.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, runArgs } from './support.js';
import { NO_CHROMIUM } from './browser-support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

const CONNECTIONS = 5;
const TICKS = 10;

test('fanout uws x browser: every tick reaches every page connection, with one-way delays on the host clock', {
  skip: NO_CHROMIUM,
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const args = runArgs(
    'fanout',
    'uws',
    'browser',
    '--connections',
    String(CONNECTIONS),
    '--interval',
    '50ms',
    '--duration',
    `${TICKS * 50}ms`,
    '--out',
    out,
  );
  const outcome = await runCli(args, { timeoutMs: 100_000 });
  assert.equal(outcome.code, 0, outcome.stderr);
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.ok(cell && cell.status === 'ok', `cell ${cell?.status}: ${'reason' in cell! ? cell.reason : ''}`);
  assert.equal(cell.measurements.counters.received, CONNECTIONS * TICKS);
  assert.equal(cell.measurements.counters.missing, 0);
  const delay = cell.measurements.latency.delay!;
  assert.equal(delay.count, CONNECTIONS * TICKS);
  // Off by a wrong offset, a delay would be the page's uptime or nothing at all (recorded as 1 µs).
  assert.ok(delay.minMs > 0.001 && delay.maxMs < 10_000, `delays ${delay.minMs}..${delay.maxMs} ms`);
  assert.equal(cell.metrics.clientRssPerConnectionKB, null, 'a page cannot read its memory: no per-connection figure');
});

/**
 * echo with the browser client: the round trips are timed on a real headless
 * Chromium's page and booked like any client's. The result records the
 * browser's version (as `chromium --version` says it), the page clock's offset
 * uncertainty (a sample per page, and a note), the page's loop, and CPU and
 * memory of the browser's processes (the client's process tree).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './support.js';
import { CHROMIUM_VERSION, NO_CHROMIUM } from './browser-support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

test('echo ws x browser: timed on the page, with the browser version and the clock uncertainty in the result', {
  skip: NO_CHROMIUM,
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(
    ['run', 'echo', '--servers', 'ws', '--clients', 'browser', '--duration', '1s', '--out', out],
    { timeoutMs: 100_000 },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const stack = result.environment.stacks.find((s) => s.role === 'client' && s.name === 'browser')!;
  assert.deepEqual(stack.availability, { available: true, version: CHROMIUM_VERSION });

  const [cell] = result.cells;
  assert.ok(cell && cell.status === 'ok', `cell ${cell?.status}: ${'reason' in cell! ? cell.reason : ''}`);
  const received = cell.measurements.counters.received!;
  assert.ok(received > 0, 'replies arrived');
  // Replies in the drain after the window are timed too (counted apart from the rate's).
  const drained = cell.measurements.counters.repliesAfterWindow ?? 0;
  assert.equal(cell.measurements.latency.rtt?.count, received + drained, 'one round trip per reply, timed on the page');
  assert.equal(
    cell.measurements.counters.connectionsOpened,
    1,
    'the connection the page opened, counted by the engine',
  );

  const uncertainty = cell.measurements.latency.browserClockUncertainty;
  assert.equal(uncertainty?.count, 1, 'one page, one uncertainty');
  assert.ok(uncertainty.maxMs > 0, 'a probe takes time: the offset is never exact');
  const noted = cell.notes.map((n) => /^page clock on CLOCK_MONOTONIC within ±(\d+\.\d) µs/.exec(n)).find(Boolean);
  assert.ok(noted, cell.notes.join('\n'));
  assert.ok(
    Math.abs(Number(noted[1]) - uncertainty.maxMs * 1000) <= 1,
    `note ${noted[1]} µs, histogram ${uncertainty.maxMs} ms`,
  );
  assert.ok(
    cell.notes.some((n) => /^browser: Chrome\/\d+\./.test(n)),
    cell.notes.join('\n'),
  );

  const [client] = cell.resources.clients;
  // A Node client process alone holds well under this; the browser's processes are in the tree.
  assert.ok(client && client.rssBytes.max > 250e6, `client RSS ${client?.rssBytes.max}`);
  assert.ok(client.eventLoopUtilization !== null, "the page renderer's main thread, measured from /proc");
});

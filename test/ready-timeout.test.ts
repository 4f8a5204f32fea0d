/**
 * A client that never calls ready() costs a cell the scenario's ready timeout
 * (default 15 s), not two minutes; a scenario sizes its own timeout from its
 * parameters, and no declaration goes past the cap.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { run } from '../src/parent/index.js';
import { DEFAULT_READY_TIMEOUT_MS, MAX_READY_TIMEOUT_MS, readyTimeoutMs } from '../src/parent/engine/ready-timeout.js';
import { resolveParameterSets } from '../src/parent/engine/params.js';
import type { AnyScenario } from '../src/shared/types/scenario-types.js';
import fanout from '../scenarios/fanout.js';
import echo from '../scenarios/echo.js';
import { NEVER_READY_TIMEOUT_MS } from './fixtures/never-ready.js';

const NEVER_READY = fileURLToPath(new URL('./fixtures/never-ready.js', import.meta.url));

test("a client that never calls ready() fails its cell after the scenario's ready timeout, with the reason", async () => {
  const started = Date.now();
  const result = await run({ scenario: NEVER_READY, servers: ['ws'], clients: ['ws'], params: { duration: '1s' } });
  const tookMs = Date.now() - started;
  const [cell] = result.cells;
  assert.equal(cell?.status, 'failed');
  assert.equal(cell.reason, `client: no ready() call (connections open) within ${NEVER_READY_TIMEOUT_MS / 1000}s`);
  // Generous for a busy machine, and far below the two minutes it used to take.
  assert.ok(tookMs < DEFAULT_READY_TIMEOUT_MS + 30_000, `took ${tookMs} ms`);
});

test('the ready timeout: the default, a declared one, and the cap', () => {
  const scenario = (readyTimeoutMs?: (p: unknown) => number): AnyScenario =>
    ({ ...echo, ...(readyTimeoutMs ? { readyTimeoutMs } : {}) }) as AnyScenario;
  assert.equal(readyTimeoutMs(echo as AnyScenario, {}), DEFAULT_READY_TIMEOUT_MS);
  assert.equal(
    readyTimeoutMs(
      scenario(() => 42_000),
      {},
    ),
    42_000,
  );
  assert.equal(
    readyTimeoutMs(
      scenario(() => 10 * 3_600_000),
      {},
    ),
    MAX_READY_TIMEOUT_MS,
  );
  assert.equal(
    readyTimeoutMs(
      scenario(() => Number.NaN),
      {},
    ),
    DEFAULT_READY_TIMEOUT_MS,
  );
});

test('fanout sizes its ready timeout from connections, connect rate and connect timeout', () => {
  const [defaults] = resolveParameterSets(fanout as AnyScenario, {}, undefined);
  // 10 connections at 1000/s + 10 s connect timeout + 15 s margin.
  assert.equal(readyTimeoutMs(fanout as AnyScenario, defaults!), 10 + 10_000 + 15_000);
  // 50 s of paced connects: beyond the default, within the cap (values as validated: ms).
  assert.equal(
    readyTimeoutMs(fanout as AnyScenario, {
      ...defaults,
      connections: 50_000,
      connectRate: 1000,
      connectTimeout: 10_000,
    }),
    50_000 + 10_000 + 15_000,
  );
});

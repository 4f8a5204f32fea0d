/**
 * Two capacity results compared: each server's capacity moved only when the
 * two searches' brackets do not overlap; the gate fails on a drop beyond its
 * threshold and on a server that no longer got a capacity; the steps' cells
 * are not compared; two searches of different SLOs are refused.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareResults, gate } from '../src/parent/index.js';
import { capacityResult } from './fixtures/synthetic-capacity.js';
import { runCli, tempDir } from './support.js';

const BASE = capacityResult([
  { server: 'ws', capacity: 1000, brokeAt: 1100 },
  { server: 'uws', capacity: 4000, brokeAt: 4400 },
  { server: 'bun', capacity: 3000, brokeAt: 3300 },
  { server: 'deno', capacity: 800, brokeAt: 880 },
]);

test("each server's capacity: regressed, improved or unchanged within its bracket; a server that no longer ran regresses", () => {
  const next = capacityResult([
    { server: 'ws', capacity: 700, brokeAt: 770 },
    { server: 'uws', capacity: 4200, brokeAt: 4600 },
    { server: 'bun', capacity: 3400, brokeAt: null },
    { server: 'deno', capacity: 0, brokeAt: null, status: 'failed' },
  ]);
  const comparison = compareResults(BASE, next);
  const rows = comparison.cells.map((c) => [
    c.label,
    ...c.deltas.map((d) => [
      d.key,
      d.base,
      d.next,
      d.changePct === null ? null : Math.round(d.changePct),
      d.noise,
      d.verdict,
    ]),
  ]);
  assert.deepEqual(rows, [
    ['echo capacity ws x ws', ['capacity', 1000, 700, -30, 100, 'regressed']],
    ['echo capacity uws x ws', ['capacity', 4000, 4200, 5, 400, 'unchanged']],
    ['echo capacity bun x ws', ['capacity', 3000, 3400, 13, null, 'improved']],
    ['echo capacity deno x ws', ['status', null, null, null, null, 'regressed']],
  ]);
  assert.match(comparison.warnings.join('\n'), /the steps' cells are not/);

  const at10 = gate(comparison, 10);
  assert.deepEqual(
    at10.regressions.map((r) => [r.cell, r.key, r.next]),
    [
      ['echo capacity ws x ws', 'capacity', 700],
      ['echo capacity deno x ws', 'status', 'failed'],
    ],
  );
  assert.equal(at10.exitCode, 1);
  // A 30 % drop passes a 50 % gate; a search that failed fails it whatever the threshold.
  assert.deepEqual(
    gate(comparison, 50).regressions.map((r) => r.key),
    ['status'],
  );
});

test("compare on the command line: the capacity rows, and the gate's exit code", async () => {
  const dir = tempDir();
  const base = join(dir, 'base.json');
  const next = join(dir, 'next.json');
  writeFileSync(base, JSON.stringify(BASE));
  writeFileSync(
    next,
    JSON.stringify(
      capacityResult([
        { server: 'ws', capacity: 500, brokeAt: 550 },
        { server: 'uws', capacity: 4000, brokeAt: 4400 },
      ]),
    ),
  );
  const outcome = await runCli(['compare', base, next, '--fail-on-regression', '20']);
  assert.equal(outcome.code, 1, outcome.stderr);
  assert.match(
    outcome.stdout,
    /^echo capacity ws x ws\s+capacity \(connections\)\s+1000\s+500\s+-50\.0%\s+brackets ±100\s+REGRESSED$/m,
  );
  assert.match(
    outcome.stdout,
    /^echo capacity uws x ws\s+capacity \(connections\)\s+4000\s+4000\s+\+0\.0%\s+brackets ±400\s+unchanged$/m,
  );
  assert.match(outcome.stdout, /only in base \(2\): echo capacity bun x ws; echo capacity deno x ws/);
  assert.match(outcome.stderr, /^regression beyond 20%: echo capacity ws x ws: capacity \(connections\) -50\.0%$/m);

  const other = join(dir, 'other.json');
  const otherSlo = capacityResult([{ server: 'ws', capacity: 1000, brokeAt: 1100 }]);
  otherSlo.capacity.slo.text = 'p99<50ms, errors=0';
  writeFileSync(other, JSON.stringify(otherSlo));
  const refused = await runCli(['compare', base, other]);
  assert.equal(refused.code, 2);
  assert.equal(
    refused.stderr,
    'wsbench: the two capacity searches asked different questions (base: echo connections within p99<5ms, errors=0; new: echo connections within p99<50ms, errors=0): their capacities do not compare\n',
  );
});

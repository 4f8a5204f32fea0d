/**
 * A scenario without a server half (the jsonrpc scenario `wsbench init`
 * writes, templates/init/scenario.ts) runs against --server-cmd and --target
 * servers, here the JSON-RPC server in examples/jsonrpc/, measuring each
 * method's latency; built-in server stacks skip it, saying why.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMeasured, run } from '../src/parent/index.js';
import { readResultFile } from '../src/parent/results/result-file.js';
import { startPrintingServer } from './foreign-processes.js';
import { REPO_ROOT, runCli, tempDir } from './support.js';

const SCENARIO = fileURLToPath(new URL('../templates/init/scenario.js', import.meta.url));
const SERVER = join(REPO_ROOT, 'examples', 'jsonrpc', 'server.mjs');

const started: ChildProcess[] = [];
after(() =>
  started.forEach((child) => {
    child.kill('SIGKILL');
  }),
);

test('--server-cmd: the example server answers every method; built-in servers are skipped: "the scenario has no server half"', {
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'rpc.json');
  const outcome = await runCli([
    'run',
    SCENARIO,
    '--server-cmd',
    `rpc=${process.execPath} ${SERVER} --port {port}`,
    '--servers',
    'ws,rpc',
    '--clients',
    'ws',
    '--duration',
    '800ms',
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.match(outcome.stdout, /^n\/a {2}ws x ws: the scenario has no server half$/m);
  const result = readResultFile(out);
  const [builtIn, own] = result.cells;
  assert.deepEqual(
    [builtIn?.server, builtIn?.status, builtIn?.status === 'skipped' ? builtIn.reason : null],
    ['ws', 'skipped', 'the scenario has no server half'],
  );
  assert.ok(own?.status === 'ok' && isMeasured(own), own && 'reason' in own ? own.reason : 'no cell');
  for (const method of ['echo', 'add', 'sha256']) {
    assert.ok((own.measurements.latency[method]?.count ?? 0) > 0, `${method} replies were timed`);
    assert.equal(typeof own.metrics[`${method}P99Ms`], 'number');
  }
  assert.equal(own.metrics.errors, 0);
  assert.ok((own.metrics.requestsPerSec ?? 0) > 0);
});

test('--target, from the library: the running server is measured; with no server of yours every cell is skipped', {
  timeout: 60_000,
}, async () => {
  const { child, printed } = startPrintingServer([process.execPath, SERVER, '--port', '0'], /listening on (\S+)/);
  started.push(child);
  const url = (await printed)[1]!;
  const result = await run({
    scenario: SCENARIO,
    targets: [{ name: 'rpc', url }],
    clients: ['ws'],
    params: { duration: '600ms', connections: 2 },
  });
  const [cell] = result.cells;
  assert.ok(cell?.status === 'ok' && isMeasured(cell), cell && 'reason' in cell ? cell.reason : 'no cell');
  assert.ok((cell.measurements.latency.sha256?.count ?? 0) > 0);

  const alone = await run({
    scenario: SCENARIO,
    servers: ['ws', 'uws'],
    clients: ['ws'],
    params: { duration: '200ms' },
  });
  assert.deepEqual(
    alone.cells.map((c) => [c.server, c.status, c.status === 'skipped' ? c.reason : '']),
    [
      ['ws', 'skipped', 'the scenario has no server half'],
      ['uws', 'skipped', 'the scenario has no server half'],
    ],
  );
});

test('the same scenario runs open-model with --rate alone: requests at the rate, timed from when each was due', {
  timeout: 60_000,
}, async () => {
  const { child, printed } = startPrintingServer([process.execPath, SERVER, '--port', '0'], /listening on (\S+)/);
  started.push(child);
  const url = (await printed)[1]!;
  const result = await run({
    scenario: SCENARIO,
    targets: [{ name: 'rpc', url }],
    clients: ['ws'],
    params: { duration: '1500ms', connections: 2, rate: 400 },
  });
  const [cell] = result.cells;
  assert.ok(cell?.status === 'ok' && isMeasured(cell), cell && 'reason' in cell ? cell.reason : 'no cell');
  assert.equal(cell.load?.model, 'open');
  // 400 a second for 1.5 s over both connections: the schedule's 600, give or take the window's edges.
  const sent = cell.measurements.counters.sendsScheduled ?? 0;
  assert.ok(sent >= 570 && sent <= 610, `${sent} requests went out on the schedule`);
  const timed = ['echo', 'add', 'sha256'].reduce((sum, m) => sum + (cell.measurements.latency[m]?.count ?? 0), 0);
  assert.ok(timed >= sent - 5, `${timed} of ${sent} replies timed`);
  assert.equal(cell.metrics.errors, 0);
});

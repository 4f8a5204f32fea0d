/**
 * A fault never reads as ok, whoever runs the server: a --target that dies or
 * closes every connection mid-window, a --server-cmd that exits, a built-in
 * server killed, each fails its cell with the reason and the time it happened,
 * its rates taken over the time the traffic ran; connections lost or that could
 * not open (a client at its open-file limit) give the cell `errors`. The run
 * exits 1 on either, unless --max-errors allows the errors; and 1 when nothing
 * was measured at all.
 *
 * Slow (about a minute): each fault is a real run whose server dies, closes or runs out of files mid-window.
 */
// Echo runs at a rate here, not as fast as the server answers: these tests are about faults, and a spinning closed
// loop would only take the machine's cores from the suite's other files meanwhile.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMeasured, type BenchResult, type CellResult, type MeasuredCell } from '../src/parent/index.js';
import { BIN, childWithRole, hasEstablishedConnection, runCli, tempDir, runArgs } from './support.js';
import { ECHO_FIXTURE, fixtureCommand, newTag } from './foreign-processes.js';

const started: ChildProcess[] = [];
after(() =>
  started.forEach((child) => {
    child.kill('SIGKILL');
  }),
);

function read(out: string): BenchResult {
  return JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
}

function measured(cell: CellResult | undefined): MeasuredCell {
  assert.ok(cell && isMeasured(cell), JSON.stringify(cell));
  return cell;
}

/** The rate a cell shows is its counter over the time its traffic ran, and that time is shorter than the window. */
function assertRatesOverTraffic(cell: MeasuredCell, windowMs: number): void {
  const trafficMs = cell.fault?.trafficMs;
  assert.ok(trafficMs !== undefined && trafficMs > 0 && trafficMs < windowMs, JSON.stringify(cell.fault));
  assert.equal(cell.measurements.windowMs, trafficMs);
  const expected = (cell.measurements.counters.received ?? 0) / (trafficMs / 1000);
  // The engine divides in its own order: equal up to the last bits of a double.
  assert.ok(
    Math.abs((cell.metrics.messagesPerSec ?? NaN) - expected) <= expected * 1e-12,
    `${cell.metrics.messagesPerSec} per s, expected ${expected}`,
  );
  assert.match(
    cell.status === 'ok' ? '' : cell.reason,
    new RegExp(`rates are over the ${(trafficMs / 1000).toFixed(2)} s the traffic ran`),
  );
}

function startTarget(mode: string): Promise<{ url: string; pid: number }> {
  const child = spawn(process.execPath, [ECHO_FIXTURE, '--port', '0', '--mode', mode, '--after-ms', '1000'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  started.push(child);
  return new Promise((resolve) =>
    child.stdout!.once('data', (chunk: Buffer) =>
      resolve({ url: `ws://127.0.0.1:${/:(\d+)/.exec(chunk.toString())![1]}/`, pid: child.pid! }),
    ),
  );
}

test('a --target that dies mid-window, or closes every connection: failed with when, rates over the traffic, exit 1', {
  timeout: 120_000,
}, async () => {
  const dying = await startTarget('exit-after');
  const closing = await startTarget('close-all-after');
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli([
    'run',
    'echo',
    '--rate',
    '500',
    '--clients',
    'ws',
    '--connections',
    '3',
    '--duration',
    '4s',
    '--out',
    out,
    '--target',
    `dying=${dying.url}`,
    '--target-pid',
    String(dying.pid),
    '--target',
    `closing=${closing.url}`,
  ]);
  assert.equal(outcome.code, 1, outcome.stderr);
  assert.match(outcome.stderr, /^exit 1: 2 cells failed$/m);
  const [dead, closed] = read(out).cells.map(measured);
  assert.equal(dead!.status, 'failed');
  assert.match(
    dead!.status === 'failed' ? dead!.reason : '',
    /^target dying: its process \d+ is gone; every connection was lost \(3 of 3\) \d\.\d\d s into the window: the server closed them or went away/,
  );
  assert.equal(closed!.status, 'failed');
  assert.match(
    closed!.status === 'failed' ? closed!.reason : '',
    /^every connection was lost \(3 of 3\) \d\.\d\d s into the window: the server closed them or went away \(the first: connection closed by peer \(code 1001\)\); rates are over the/,
  );
  for (const cell of [dead!, closed!]) {
    assert.deepEqual(cell.fault!.connections, { opened: 3, failed: 0, lost: 3 });
    assert.ok(cell.fault!.atMs! > 0 && cell.fault!.atMs! < 4000, JSON.stringify(cell.fault));
    assertRatesOverTraffic(cell, 4000);
  }
  // A busy machine may add the load generator's judgement after the status word.
  assert.match(
    outcome.stdout,
    /^dying\s+ws\s+failed(, client (saturated|starved|behind))*\s/m,
    'the table shows the status',
  );
});

test('a --server-cmd that exits mid-window and a built-in server killed mid-window fail alike, with when', {
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  let pid = 0;
  const running = runCli(
    [
      'run',
      'echo',
      '--rate',
      '500',
      '--servers',
      'ws',
      '--clients',
      'ws',
      '--connections',
      '2',
      '--duration',
      '4s',
      '--out',
      out,
      '--server-cmd',
      `exits=${fixtureCommand('exit-after', newTag())} --after-ms 1000`,
    ],
    { onSpawn: (p) => (pid = p) },
  );
  // The built-in server, killed a second after its client connected: the window is on by then.
  let server: number | undefined;
  let client: number | undefined;
  for (let i = 0; i < 1200 && !(server && client && hasEstablishedConnection(client)); i++) {
    await new Promise((r) => setTimeout(r, 50));
    server ??= childWithRole(pid, 'server');
    client ??= childWithRole(pid, 'client');
  }
  await new Promise((r) => setTimeout(r, 1000));
  process.kill(server!, 'SIGKILL');
  const outcome = await running;
  assert.equal(outcome.code, 1, outcome.stderr);
  const cells = read(out).cells.map(measured);
  const builtIn = cells.find((c) => c.server === 'ws')!;
  const command = cells.find((c) => c.server === 'exits')!;
  assert.equal(builtIn.status, 'failed');
  assert.match(
    builtIn.status === 'failed' ? builtIn.reason : '',
    /^server killed by SIGKILL before report \(\d\.\d\d s into the window\); rates are over the \d\.\d\d s the traffic ran$/,
  );
  assert.equal(command.status, 'failed');
  assert.match(
    command.status === 'failed' ? command.reason : '',
    /^exits exited with code 3 \(\d\.\d\d s into the window\); rates are over the \d\.\d\d s the traffic ran$/,
  );
  for (const cell of [builtIn, command]) assertRatesOverTraffic(cell, 4000);
});

test('some connections lost: errors, exit 1; --max-errors allows them (exit 0), the status still says errors', {
  timeout: 120_000,
}, async () => {
  const dir = tempDir();
  const args = (out: string): string[] => [
    'run',
    'echo',
    '--rate',
    '500',
    '--clients',
    'ws',
    '--connections',
    '3',
    '--duration',
    '3s',
    '--out',
    out,
    '--server-cmd',
    `one=${fixtureCommand('close-one-after', newTag())} --after-ms 500`,
  ];
  const strict = await runCli(args(join(dir, 'a.json')));
  assert.equal(strict.code, 1, strict.stderr);
  assert.match(strict.stderr, /^exit 1: 1 cell with errors \(at most 1 in a cell\) beyond --max-errors 0$/m);
  const cell = measured(read(join(dir, 'a.json')).cells[0]);
  assert.equal(cell.status, 'errors');
  // What the engine's ledger saw, then what echo counted of it (its errors count the close too).
  assert.match(
    cell.status === 'errors' ? cell.reason : '',
    /^1 of 3 connections lost \(the first \d\.\d\d s into the window: connection closed by peer \(code 1001\)\); errors counted: errors 1, lost 1$/,
  );
  assert.deepEqual(cell.fault!.connections, { opened: 3, failed: 0, lost: 1 });
  assert.equal(cell.fault!.trafficMs, undefined, 'the other connections ran to the end');
  // The status word; a busy machine may add the load generator's judgement after it (load-saturation.test.ts tests
  // that), and the lost connection's share of the rate reads as delivered below offered.
  assert.match(strict.stdout, /^one\s+ws\s+errors(, client (saturated|starved|behind))?(, below offered)?\s/m);
  assert.match(strict.stdout, /^errors cells \(their numbers cover what was measured\):$/m);

  const allowed = await runCli([...args(join(dir, 'b.json')), '--max-errors', '1']);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.equal(read(join(dir, 'b.json')).cells[0]!.status, 'errors');
});

test('a client at its open-file limit (EMFILE) on fan-out: errors with the count and the reason, exit 1', {
  timeout: 180_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  // Each of 4 server processes needs ~200 files, within the limit; the one client process needs 400.
  const shell = `ulimit -n 300 && exec "${process.execPath}" "${BIN}" run fanout --servers uws --clients ws --connections 400 --server-processes 4 --duration 1s --connect-timeout 5s --out "${out}"`;
  const outcome = await runCli([], { command: ['/bin/sh', '-c', shell] });
  assert.equal(outcome.code, 1, outcome.stderr);
  const cell = measured(read(out).cells[0]);
  assert.equal(cell.status, 'errors');
  const { opened, failed } = cell.fault!.connections;
  assert.ok(failed > 0 && opened + failed === 400, JSON.stringify(cell.fault));
  assert.equal(cell.metrics.connectFailed, failed, "the scenario's own count agrees");
  assert.match(
    cell.status === 'errors' ? cell.reason : '',
    new RegExp(
      `^${failed} of 400 connections could not open \\(the first while connecting, before the window opened: .*EMFILE`,
    ),
  );
  assert.match(outcome.stdout, /^uws\s+ws\s+errors(, client (saturated|starved))?\s/m);
});

test('nothing measured: every pair skipped exits 1 and says so', { timeout: 60_000 }, async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(runArgs('echo', 'socketio', 'ws', '--duration', '500ms', '--out', out));
  assert.equal(outcome.code, 1, outcome.stderr);
  assert.match(outcome.stderr, /^exit 1: nothing was measured: every cell was skipped \(1 cell\)$/m);
  assert.equal(read(out).cells[0]!.status, 'skipped');
});

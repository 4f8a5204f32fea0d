/**
 * Servers that used to hang wsbench for good: every wait on them now has an
 * overall deadline, so each run ends by itself and writes its result. A stats
 * route that sends one byte a second is read within its deadline (the cell is
 * measured, the server's counters are missing with the reason); a server that
 * answers every request with `101` and a bogus Sec-WebSocket-Accept fails its
 * cell at the handshake, for every client stack (Deno's WebSocket accepts it),
 * instead of hanging on the stats read; and the stats read itself ends when a
 * server switches protocols on it.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { BenchResult } from '../src/parent/index.js';
import { readStats, STATS_TIMEOUT_MS } from '../src/parent/server-lifecycles/stats.js';
import { runCli, tempDir } from './support.js';
import { ECHO_FIXTURE, fixtureCommand, newTag, taggedProcesses } from './foreign-processes.js';

const started: ChildProcess[] = [];
after(() =>
  started.forEach((child) => {
    child.kill('SIGKILL');
  }),
);

test('a stats route that sends one byte a second: the cell is measured, the counters are missing with the reason, the run ends', {
  timeout: 90_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const tag = newTag();
  const outcome = await runCli(
    [
      'run',
      'echo',
      '--clients',
      'ws',
      '--duration',
      '1s',
      '--out',
      out,
      '--server-cmd',
      `slow=${fixtureCommand('slow-stats', tag)}`,
    ],
    { timeoutMs: 80_000 },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.equal(cell!.status, 'ok');
  assert.ok(
    cell!.status === 'ok' &&
      cell!.notes.includes(
        `server-side metrics not reported: GET /wsbench/stats gave no complete answer within ${STATS_TIMEOUT_MS / 1000}s (see docs/protocols/README.md, /wsbench/stats)`,
      ),
    JSON.stringify(cell),
  );
  assert.deepEqual(taggedProcesses(tag), []);
});

test('SIGINT while the stats route trickles: the run ends, interrupted, and writes what was measured', {
  timeout: 90_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const tag = newTag();
  let pid = 0;
  const running = runCli(
    [
      'run',
      'echo',
      '--clients',
      'ws',
      '--duration',
      '30s',
      '--out',
      out,
      '--server-cmd',
      `slow=${fixtureCommand('slow-stats', tag)}`,
    ],
    {
      timeoutMs: 80_000,
      onSpawn: (p) => (pid = p),
    },
  );
  // Interrupted once the server runs (wsbench's own command line carries the tag too): the window-open read of its stats is then under way or next.
  for (let i = 0; i < 400 && taggedProcesses(tag).filter((p) => p !== pid).length === 0; i++)
    await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 1500));
  process.kill(pid, 'SIGINT');
  const outcome = await running;
  assert.equal(outcome.signal, null, `wsbench died of ${outcome.signal}: ${outcome.stderr}`);
  assert.equal(outcome.code, 130, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  assert.equal(result.interrupted, true);
  assert.equal(result.cells[0]!.status, 'failed');
  assert.deepEqual(taggedProcesses(tag), []);
});

test('a server that answers 101 with a bogus Sec-WebSocket-Accept fails its cell at the handshake, for every client, and the run ends', {
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const tag = newTag();
  const outcome = await runCli(
    [
      'run',
      'echo',
      '--clients',
      'ws,deno',
      '--duration',
      '1s',
      '--out',
      out,
      '--server-start-timeout',
      '5s',
      '--server-cmd',
      `bogus=${fixtureCommand('bogus-accept', tag)}`,
    ],
    { timeoutMs: 110_000 },
  );
  assert.equal(outcome.code, 1, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  for (const cell of result.cells.filter((c) => c.status !== 'skipped')) {
    assert.equal(cell.status, 'failed');
    assert.match(
      cell.reason,
      /^bogus: answered the WebSocket handshake with a wrong Sec-WebSocket-Accept \("bm90IHRoZSBrZXkncw=="\): not a WebSocket server$/,
    );
  }
  assert.ok(
    result.cells.some((c) => c.client === 'deno' && c.status === 'failed'),
    'the Deno cell ran and failed',
  );
  assert.match(outcome.stderr, /^exit 1: 2 cells failed$/m);
  assert.deepEqual(taggedProcesses(tag), []);
});

test('the stats read ends within its deadline when the server switches protocols on it, or never finishes its answer', {
  timeout: 30_000,
}, async () => {
  const bogus = spawn(process.execPath, [ECHO_FIXTURE, '--port', '0', '--mode', 'bogus-accept'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  started.push(bogus);
  const port = await new Promise<number>((resolve) =>
    bogus.stdout!.once('data', (chunk: Buffer) => resolve(Number(/:(\d+)/.exec(chunk.toString())![1]))),
  );
  assert.deepEqual(await readStats(`http://127.0.0.1:${port}`, 'echo'), {
    missing: 'GET /wsbench/stats failed: answered HTTP 101 (a protocol switch) instead of a response',
  });

  // Headers, then silence: an idle timeout would be reset by nothing here, yet the read still ends.
  const silent = createServer((socket) =>
    socket.once('data', () => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{')),
  );
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const reading = await readStats(`http://127.0.0.1:${(silent.address() as { port: number }).port}`, 'echo');
  silent.close();
  assert.deepEqual(reading, {
    missing: `GET /wsbench/stats gave no complete answer within ${STATS_TIMEOUT_MS / 1000}s`,
  });

  const interrupted = new AbortController();
  setTimeout(() => interrupted.abort(), 100);
  const silentAgain = createServer(() => undefined);
  await new Promise<void>((resolve) => silentAgain.listen(0, '127.0.0.1', resolve));
  assert.deepEqual(
    await readStats(`http://127.0.0.1:${(silentAgain.address() as { port: number }).port}`, 'echo', interrupted.signal),
    { missing: 'GET /wsbench/stats was interrupted' },
  );
  silentAgain.close();
});

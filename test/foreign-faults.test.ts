import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { BenchResult } from '../src/parent/index.js';
import { runCli, tempDir } from './support.js';
import { fixtureCommand, newTag } from './foreign-processes.js';
import { pythonSkip } from './python-support.js';

const started: ChildProcess[] = [];
after(() =>
  started.forEach((child) => {
    child.kill('SIGKILL');
  }),
);

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

test('faults fail their own cell with a one-line reason; the run goes on and exits 1', async () => {
  const out = join(tempDir(), 'r.json');
  const tag = newTag();
  const outcome = await runCli([
    // Long enough for a Python process to start and fail on a crowded machine; `silent` waits it out.
    'run',
    'echo',
    '--clients',
    'ws',
    '--duration',
    '400ms',
    '--out',
    out,
    '--server-start-timeout',
    '6s',
    '--target',
    `refused=ws://127.0.0.1:${await closedPort()}/`,
    // .invalid never resolves, and asking sends nothing off this machine.
    '--target',
    'unresolved=ws://wsbench-test.invalid:9/',
    '--server-cmd',
    `exits=${fixtureCommand('exit-at-once', tag)}`,
    '--server-cmd',
    `silent=${fixtureCommand('never-listen', tag)}`,
    '--server-cmd',
    `closer=${fixtureCommand('close-every-connection', tag)}`,
    '--server-cmd',
    `garbage=${fixtureCommand('garbage', tag)}`,
    '--server-cmd',
    `healthy=${fixtureCommand('echo', tag)}`,
  ]);
  assert.equal(outcome.code, 1, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const reasons = Object.fromEntries(result.cells.map((c) => [c.server, c.status === 'ok' ? 'ok' : c.reason]));
  assert.match(reasons.refused!, /^target refused: 127\.0\.0\.1:\d+ refused the connection \(ECONNREFUSED\)$/);
  assert.match(
    reasons.unresolved!,
    /^target unresolved: host wsbench-test\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN)\)$/,
  );
  assert.equal(reasons.exits, 'exits exited with code 1 before listening: OSError: [Errno 98] address already in use');
  assert.match(
    reasons.silent!,
    /^silent was not listening on 127\.0\.0\.1:\d+ within 6s; last line on stderr: loading a very large model before listening$/,
  );
  assert.equal(reasons.closer, 'closer: closed the connection right after the WebSocket handshake (close frame)');
  // The reason says when, where the failure carried its time.
  assert.match(
    reasons.garbage ?? '',
    /^client: echo: the server broke the protocol: expected the message sent back \(32 bytes\), got "garbage!" \(8 bytes\)( \(-?\d+\.\d\d s into the window\))?$/,
  );
  assert.equal(reasons.healthy, 'ok', 'the run went on after the faults');
  for (const reason of Object.values(reasons)) assert.ok(!reason!.includes('\n'), reason);
});

test('a target that never completes the TCP handshake fails with a connect timeout', {
  skip: pythonSkip(),
}, async () => {
  // A listening socket whose one-slot accept queue is full and never accepted: further SYNs go unanswered.
  const holder = spawn(
    'python3',
    [
      '-c',
      [
        'import socket, time',
        's = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)',
        'port = s.getsockname()[1]',
        'held = socket.create_connection(("127.0.0.1", port))',
        'print(port, flush=True)',
        'time.sleep(60)',
      ].join('\n'),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  started.push(holder);
  const port = await new Promise<number>((resolve) =>
    holder.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
  );
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli([
    'run',
    'echo',
    '--clients',
    'ws',
    '--duration',
    '300ms',
    '--out',
    out,
    '--target',
    `stuck=ws://127.0.0.1:${port}/`,
  ]);
  assert.equal(outcome.code, 1, outcome.stderr);
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.equal(cell?.status, 'failed');
  assert.equal(cell.reason, `target stuck: could not connect to 127.0.0.1:${port} within 5s`);
});

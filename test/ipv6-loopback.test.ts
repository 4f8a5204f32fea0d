/**
 * IPv6 loopback is loopback: `--host ::1` makes wsbench's own servers listen on
 * ::1 and their clients connect to [::1]; a --server-cmd gets `::1` for {host}
 * in its command and `[::1]` in its URL; a --target ws://[::1]:PORT/ is
 * measured like any other. Each cell is a real echo run. Any other address
 * is still refused in one line. On a machine without IPv6 loopback the tests
 * are skipped, with the reason.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { runCli, tempDir, usageErrorLine } from './support.js';
import { ECHO_FIXTURE, fixtureCommand, newTag, startPrintingServer } from './foreign-processes.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

const started: ChildProcess[] = [];
after(() =>
  started.forEach((child) => {
    child.kill('SIGKILL');
  }),
);

/** Null when something can listen on ::1 here; else why not. */
function noIpv6Loopback(): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(`no IPv6 loopback here (${error.code})`));
    server.listen(0, '::1', () => server.close(() => resolve(null)));
  });
}

const skipped = await noIpv6Loopback();

function cellsOf(out: string): BenchResult['cells'] {
  return (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
}

function assertMeasuredOk(cells: BenchResult['cells'], expected: number): void {
  assert.equal(cells.length, expected);
  for (const cell of cells) {
    assert.equal(cell.status, 'ok', `${cell.server} x ${cell.client}: ${JSON.stringify(cell)}`);
    assert.ok(((cell as { metrics: Record<string, number> }).metrics.messagesPerSec ?? 0) > 0, cell.server);
  }
}

test('--host ::1: built-in servers listen on ::1, clients connect to [::1], every cell ok', {
  skip: skipped ?? false,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli([
    'run',
    'echo',
    '--host',
    '::1',
    '--servers',
    'ws,uws',
    '--clients',
    'ws,undici',
    '--duration',
    '500ms',
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.equal((JSON.parse(readFileSync(out, 'utf8')) as BenchResult).host, '::1');
  assertMeasuredOk(cellsOf(out), 4);
});

test('--host ::1 with --server-cmd: {host} is ::1 in the command, [::1] in the URL; a server on ::1 only is reached', {
  skip: skipped ?? false,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli([
    'run',
    'echo',
    '--host',
    '::1',
    '--server-cmd',
    `v6=${fixtureCommand('echo', newTag())} --host {host}`,
    '--clients',
    'ws',
    '--duration',
    '500ms',
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  assertMeasuredOk(cellsOf(out), 1);
});

test('--target ws://[::1]:PORT/ is measured', { skip: skipped ?? false }, async () => {
  const { child, printed } = startPrintingServer(
    [process.execPath, ECHO_FIXTURE, '--port', '0', '--host', '::1', '--tag', newTag()],
    /\[::1\]:(\d+)/,
  );
  started.push(child);
  const port = (await printed)[1];
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli([
    'run',
    'echo',
    '--target',
    `v6=ws://[::1]:${port}/`,
    '--target-pid',
    String(child.pid),
    '--clients',
    'ws,undici',
    '--duration',
    '500ms',
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  assertMeasuredOk(cellsOf(out), 2);
});

test('--host of an address that is not loopback is refused in one line', async () => {
  assert.equal(
    usageErrorLine(await runCli(['run', 'echo', '--host', '::2', '--servers', 'ws', '--clients', 'ws'])),
    'wsbench: --host: ::2 is not a loopback address (127.x.x.x or ::1)',
  );
});

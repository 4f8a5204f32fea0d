/**
 * A cell whose server died, or whose every connection is gone, ends then, not
 * at the end of its window: a --server-cmd that exits a second in, a --target
 * that closes every connection and refuses new ones, and wsbench's own server
 * killed, each with --duration 30s, finish in well under 30 s, failed with the
 * reason and when, what was measured until then kept. The window itself must
 * stay under 20 s; the whole command, start and wrap-up included, under the 30 s
 * the window alone would have taken (beside two busy loops and three other test
 * files it took 21.6 s); before, each took the whole window.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMeasured, type BenchResult, type CellResult } from '../src/parent/index.js';
import { childWithRole, hasEstablishedConnection, runCli, tempDir } from './support.js';
import { ECHO_FIXTURE, fixtureCommand, newTag, startPrintingServer } from './foreign-processes.js';

const WINDOW = '30s';
const WINDOW_MS = 30_000;
const WELL_UNDER_MS = 20_000;

const started: ChildProcess[] = [];
after(() =>
  started.forEach((child) => {
    child.kill('SIGKILL');
  }),
);

/** Runs `args` with a 30 s window; the one cell and how long the whole command took. */
async function timedRun(args: string[], onSpawn?: (pid: number) => void): Promise<{ cell: CellResult; ms: number }> {
  const out = join(tempDir(), 'r.json');
  const began = Date.now();
  const outcome = await runCli(
    // At a rate, not as fast as the server answers: the test is about the window's end, and a spinning closed loop
    // would only take the machine's cores from the suite's other files meanwhile.
    [
      'run',
      'echo',
      '--clients',
      'ws',
      '--connections',
      '3',
      '--rate',
      '300',
      '--duration',
      WINDOW,
      '--out',
      out,
      ...args,
    ],
    { ...(onSpawn ? { onSpawn } : {}), timeoutMs: 90_000 },
  );
  const ms = Date.now() - began;
  assert.equal(outcome.code, 1, outcome.stderr);
  const cells = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.equal(cells.length, 1);
  return { cell: cells[0]!, ms };
}

function assertEndedEarly(cell: CellResult, ms: number, reason: RegExp): void {
  assert.ok(ms < WINDOW_MS, `took ${(ms / 1000).toFixed(1)} s, longer than its ${WINDOW} window alone`);
  assert.ok(isMeasured(cell), JSON.stringify(cell));
  assert.equal(cell.status, 'failed');
  assert.match(cell.status === 'failed' ? cell.reason : '', reason);
  // What ran before the death is kept: replies counted, rates over the time the traffic ran.
  assert.ok((cell.measurements.counters.received ?? 0) > 0, JSON.stringify(cell.measurements.counters));
  assert.ok(
    cell.measurements.windowMs > 0 && cell.measurements.windowMs < WELL_UNDER_MS,
    `${cell.measurements.windowMs}`,
  );
}

test('a --server-cmd that exits a second into a 30 s window ends its cell then, failed with the reason', {
  timeout: 120_000,
}, async () => {
  const { cell, ms } = await timedRun([
    '--server-cmd',
    `dies=${fixtureCommand('exit-after', newTag())} --after-ms 1000`,
  ]);
  assertEndedEarly(
    cell,
    ms,
    /^dies exited with code 3 \(\d\.\d\d s into the window\); rates are over the \d\.\d\d s the traffic ran$/,
  );
});

test('a --target that closes every connection ends its cell once all are gone, failed with the reason', {
  timeout: 120_000,
}, async () => {
  const { child, printed } = startPrintingServer(
    [
      process.execPath,
      ECHO_FIXTURE,
      '--port',
      '0',
      '--mode',
      'close-all-after',
      '--after-ms',
      '1000',
      '--tag',
      newTag(),
    ],
    /:(\d+)/,
  );
  started.push(child);
  const port = (await printed)[1];
  const { cell, ms } = await timedRun(['--target', `closing=ws://127.0.0.1:${port}/`]);
  assertEndedEarly(
    cell,
    ms,
    /^every connection was lost \(3 of 3\) \d\.\d\d s into the window: the server closed them or went away/,
  );
});

test("wsbench's own server killed mid-window ends its cell then, failed with the reason", {
  timeout: 120_000,
}, async () => {
  let pid = 0;
  let killed = false;
  const running = timedRun(['--servers', 'ws'], (p) => (pid = p));
  // Killed a second after its client connected: the window is on by then.
  let server: number | undefined;
  let client: number | undefined;
  for (let i = 0; i < 1200 && !(server && client && hasEstablishedConnection(client)); i++) {
    await new Promise((r) => setTimeout(r, 50));
    server ??= childWithRole(pid, 'server');
    client ??= childWithRole(pid, 'client');
  }
  await new Promise((r) => setTimeout(r, 1000));
  if (server) {
    process.kill(server, 'SIGKILL');
    killed = true;
  }
  const { cell, ms } = await running;
  assert.ok(killed, 'the server child was found and killed');
  assertEndedEarly(
    cell,
    ms,
    /^server killed by SIGKILL before report \(\d\.\d\d s into the window\); rates are over the \d\.\d\d s the traffic ran$/,
  );
});

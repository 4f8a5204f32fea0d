import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult } from '../src/parent/index.js';
import { commandOf, runCli, tempDir } from './support.js';
import { eventually, fixtureCommand, newTag, parentOf, taggedProcesses } from './foreign-processes.js';

/** Runs echo against the fixture in `mode` for `duration`, returning the CLI's outcome and the tag its processes carry. */
function startRun(
  mode: string,
  duration: string,
  onSpawn?: (pid: number) => void,
  underSubreaper = false,
): { tag: string; out: string; finished: ReturnType<typeof runCli> } {
  const tag = newTag();
  const out = join(tempDir(), 'r.json');
  const finished = runCli(
    [
      'run',
      'echo',
      '--server-cmd',
      `srv=${fixtureCommand(mode, tag)}`,
      '--clients',
      'ws',
      '--duration',
      duration,
      '--out',
      out,
    ],
    {
      ownProcessGroup: true,
      underSubreaper,
      ...(onSpawn ? { onSpawn } : {}),
    },
  );
  return { tag, out, finished };
}

test('no server process is left after a normal end, the forked worker included', async () => {
  const tag = newTag();
  const outcome = await runCli([
    'run',
    'echo',
    '--server-cmd',
    `srv=${fixtureCommand('fork', tag)}`,
    '--clients',
    'ws',
    '--duration',
    '300ms',
    '--out',
    join(tempDir(), 'r.json'),
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.ok(
    await eventually(() => taggedProcesses(tag).length === 0, 2000),
    `left: ${taggedProcesses(tag).join(', ')}`,
  );
});

test('SIGINT: the cell ends as interrupted and the server started by command is stopped', async () => {
  let cliPid = 0;
  const { tag, out, finished } = startRun('fork', '30s', (pid) => (cliPid = pid));
  assert.ok(
    await eventually(() => taggedProcesses(tag).filter((pid) => pid !== cliPid).length >= 2, 15_000),
    'server and worker started',
  );
  await new Promise((r) => setTimeout(r, 1000));
  // Like Ctrl+C in a terminal: wsbench's process group; the server leads a group of its own and is stopped by wsbench.
  process.kill(-cliPid, 'SIGINT');
  const outcome = await finished;
  assert.equal(outcome.code, 130, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  assert.equal(result.cells[0]?.status, 'failed');
  assert.equal(result.cells[0].reason, 'interrupted');
  assert.ok(
    await eventually(() => taggedProcesses(tag).length === 0, 2000),
    `left: ${taggedProcesses(tag).join(', ')}`,
  );
});

test('a server that ignores SIGTERM is SIGKILLed after the grace period', async () => {
  const { tag, finished } = startRun('ignore-sigterm', '300ms');
  const outcome = await finished;
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.ok(
    await eventually(() => taggedProcesses(tag).length === 0, 2000),
    `left: ${taggedProcesses(tag).join(', ')}`,
  );
});

/**
 * SIGKILLs wsbench once the fixture in `mode` runs with its worker; every process it started must go.
 * Below a subreaper that reaps at once, as many CI inits do: here PID 1 leaves orphans as zombies,
 * and a zombie server would hide a watchdog that gives up once the server is gone.
 */
async function killWsbenchMidCell(mode: string): Promise<void> {
  let reaperPid = 0;
  const { tag, finished } = startRun(mode, '30s', (pid) => (reaperPid = pid), true);
  // The subreaper's child that runs wsbench's bin: node, not the copy of the subreaper it is for a moment
  // after its fork (the same command line, wsbench.js and the tag in it).
  const wsbench = (): number | undefined =>
    taggedProcesses(tag).find(
      (pid) =>
        parentOf(pid) === reaperPid &&
        commandOf(pid).startsWith(`${process.execPath} `) &&
        commandOf(pid).includes('wsbench.js'),
    );
  // The subreaper's and wsbench's command lines hold the tag too (wsbench.js in both): the server and its
  // worker are the tagged processes without it. Counting wsbench's transient copies as them once let the
  // test kill a process that was already gone (ESRCH, beside two busy loops).
  const serverAndWorker = (): number[] =>
    taggedProcesses(tag).filter((pid) => pid !== reaperPid && !commandOf(pid).includes('wsbench.js'));
  let found: number | undefined;
  assert.ok(
    await eventually(() => (found = wsbench()) !== undefined && serverAndWorker().length >= 2, 15_000),
    'server and worker started',
  );
  process.kill(found!, 'SIGKILL');
  await finished;
  assert.ok(
    await eventually(() => taggedProcesses(tag).length === 0, 5000),
    `left: ${taggedProcesses(tag).join(', ')}`,
  );
}

test("wsbench SIGKILLed mid-cell: the watchdog kills the server's whole group", () => killWsbenchMidCell('fork'));

test('wsbench SIGKILLed mid-cell, the server dying on its own first: the watchdog still kills its worker', () =>
  killWsbenchMidCell('fork-die-with-parent'));

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { alive, childrenOf, commandOf, runCli, tempDir, runArgs } from './support.js';
import { startCli, untilReceived } from './live-cli.js';
import { isMeasured, type BenchResult } from '../src/parent/index.js';

/** Collects every child the CLI forks while it runs. */
function watchChildren(): { onSpawn: (pid: number) => void; seen: Set<number>; stop: () => void } {
  const seen = new Set<number>();
  let timer: NodeJS.Timeout | null = null;
  return {
    seen,
    onSpawn(pid) {
      timer = setInterval(
        () =>
          childrenOf(pid).forEach((c) => {
            seen.add(c);
          }),
        50,
      );
    },
    stop: () => timer && clearInterval(timer),
  };
}

test('after a normal run no child process remains', async () => {
  const watch = watchChildren();
  const outcome = await runCli(
    runArgs(
      'echo',
      'uws',
      'ws,undici',
      '--duration',
      '500ms',
      '--client-procs',
      '2',
      '--out',
      join(tempDir(), 'r.json'),
    ),
    { onSpawn: watch.onSpawn },
  );
  watch.stop();
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.ok(watch.seen.size >= 3, `expected server + 2 clients to be seen, saw ${watch.seen.size}`);
  assert.deepEqual([...watch.seen].filter(alive), []);
});

test('SIGINT ends the run, writes what was measured, marks the cut cell interrupted, and leaves no child', async () => {
  const out = join(tempDir(), 'r.json');
  const watch = watchChildren();
  const cli = startCli(
    runArgs('echo', 'ws', 'ws,undici', '--duration', '30s', '--metrics-listen', '127.0.0.1:0', '--out', out),
    { ownProcessGroup: true },
  );
  watch.onSpawn(cli.pid);
  // Until the window has measured replies, as /metrics tells: a fixed 1.5 s was too short on a busy machine.
  await untilReceived(cli, 90_000);
  // Like Ctrl+C in a terminal: the whole process group gets SIGINT, children included.
  process.kill(-cli.pid, 'SIGINT');
  const outcome = { code: (await cli.finished).code, stderr: cli.stderr() };
  watch.stop();
  assert.equal(outcome.code, 130, outcome.stderr);
  assert.ok(existsSync(out), 'the result file was written');
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  assert.equal(result.interrupted, true);
  const [cut, never] = result.cells;
  assert.ok(cut?.status === 'failed' && isMeasured(cut), 'the cut cell failed and kept its numbers');
  assert.equal(cut.reason, 'interrupted');
  assert.ok((cut.metrics.received ?? 0) > 0, 'the interrupted cell keeps its measurements');
  assert.equal(never?.status, 'skipped');
  assert.equal(never.reason, 'interrupted before it started');
  assert.deepEqual([...watch.seen].filter(alive), []);
});

test('SIGINT while connections are still opening ends the cell as interrupted and leaves no child', async () => {
  const out = join(tempDir(), 'r.json');
  const watch = watchChildren();
  let cliPid = 0;
  // 2000 connections at 100/s: the connect phase would take 20 s.
  const finished = runCli(
    [
      'run',
      'fanout',
      '--connections',
      '2000',
      '--connect-rate',
      '100',
      '--servers',
      'uws',
      '--clients',
      'ws',
      '--out',
      out,
    ],
    {
      ownProcessGroup: true,
      onSpawn(pid) {
        cliPid = pid;
        watch.onSpawn(pid);
      },
    },
  );
  // Until the client process runs: wsbench's first children are the bun and deno version probes, which ended a wait
  // for any two children before wsbench, still loading, handled SIGINT (it then died of it, code null).
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !childrenOf(cliPid).some((pid) => commandOf(pid).includes('client-process')))
    await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 1000));
  process.kill(-cliPid, 'SIGINT');
  const outcome = await finished;
  watch.stop();
  assert.equal(outcome.code, 130, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const [cell] = result.cells;
  assert.equal(cell?.status, 'failed');
  assert.equal(cell.reason, 'interrupted');
  assert.deepEqual([...watch.seen].filter(alive), []);
});

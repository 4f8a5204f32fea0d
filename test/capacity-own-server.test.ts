/**
 * `wsbench capacity` of servers wsbench did not build, with the flags of
 * `run`: a --server-cmd server starts afresh for every step (or once, with
 * --keep-server, and is gone afterwards), a --target is kept and measured as it
 * runs; each says which in the result and the table.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CapacityResult } from '../src/parent/index.js';
import { readResultFile } from '../src/parent/results/result-file.js';
import { ECHO_FIXTURE, eventually, newTag, startPrintingServer, taggedProcesses } from './foreign-processes.js';
import { runCli, tempDir } from './support.js';

const started: ChildProcess[] = [];
after(() =>
  started.forEach((child) => {
    child.kill('SIGKILL');
  }),
);

/** Two steps (1 and 2 connections) that hold any sane SLO. */
const TWO_STEPS = ['--slo', 'p99<5s,errors=0', '--start', '1', '--max', '2', '--duration', '300ms'];

/** A command that appends a line to `log` each time it starts, then becomes the fixture echo server. */
function countedServer(log: string, tag: string): string {
  return `mine=echo started >> ${log} && exec ${process.execPath} ${ECHO_FIXTURE} --port {port} --tag ${tag}`;
}

test('--server-cmd: a fresh server for every step by default; --keep-server starts it once and stops it at the end', {
  timeout: 120_000,
}, async (t) => {
  const dir = tempDir();
  for (const keep of [false, true]) {
    const log = join(dir, `starts-${keep}.log`);
    const tag = newTag();
    const out = join(dir, `cap-${keep}.json`);
    const outcome = await runCli([
      'capacity',
      'echo',
      ...TWO_STEPS,
      '--server-cmd',
      countedServer(log, tag),
      ...(keep ? ['--keep-server'] : []),
      '--out',
      out,
    ]);
    assert.equal(outcome.code, 0, outcome.stderr);
    const result = readResultFile(out) as CapacityResult;
    const [mine] = result.capacity.servers;
    assert.deepEqual([mine?.server, mine?.status], ['mine', 'measured'], outcome.stdout);
    assert.equal(mine?.serverPerStep, keep ? 'kept' : 'fresh');
    assert.equal(result.capacity.settings.keepServer, keep);
    assert.ok(
      result.cells.every((c) => c.server === 'mine' && c.status === 'ok' && c.resources.server !== null),
      'the server process was sampled at every step',
    );
    // On a crowded machine a step's ping-pong client can be judged saturated and the step run again
    // with another client process: each run of a step is a step of its own, and a fresh server's.
    const steps = mine!.steps.length;
    const started = readFileSync(log, 'utf8').trim().split('\n').length;
    assert.equal(started, keep ? 1 : steps, `${steps} steps, ${started} server starts`);
    if (mine!.steps.every((step) => step.outcome !== 'invalid')) {
      assert.deepEqual([mine!.capacity, mine!.end, steps], [2, 'max', 2], outcome.stdout);
      assert.deepEqual(
        result.cells.map((c) => c.params.connections),
        [1, 2],
      );
      assert.match(outcome.stdout, new RegExp(`\\nmine\\s+ws\\s+>= 2\\s+-\\s+2\\s+1\\s+${keep ? 'kept' : 'fresh'}\\s`));
    } else t.diagnostic(`a load generator judged saturated: ${mine!.cannotTell ?? 'a step measured again'}`);
    assert.ok(await eventually(() => taggedProcesses(tag).length === 0, 5000), 'no server outlives the search');
  }
});

test('--target: the running server is kept for every step and said to be; --keep-server without --server-cmd is refused', {
  timeout: 120_000,
}, async () => {
  const { child, printed } = startPrintingServer(
    [process.execPath, ECHO_FIXTURE, '--port', '0', '--tag', newTag()],
    /:(\d+)/,
  );
  started.push(child);
  const port = Number((await printed)[1]);
  const dir = tempDir();
  const out = join(dir, 'cap.json');
  const outcome = await runCli([
    'capacity',
    'echo',
    ...TWO_STEPS,
    '--target',
    `ws://127.0.0.1:${port}/`,
    '--target-pid',
    String(child.pid),
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = readResultFile(out) as CapacityResult;
  const [target] = result.capacity.servers;
  assert.deepEqual([target?.server, target?.client, target?.serverPerStep], [`127.0.0.1:${port}`, 'ws', 'kept']);
  // A step judged load-generator saturated on a crowded machine is measured again and does not count (see above).
  if (target!.steps.every((step) => step.outcome !== 'invalid')) assert.equal(target!.capacity, 2, outcome.stdout);
  assert.deepEqual(
    result.environment.foreignServers?.map((s) => [s.kind, s.pid]),
    [['target', child.pid]],
  );
  assert.match(outcome.stdout, /server per step "kept" \(127\.0\.0\.1:\d+\): one server served every step/);
  assert.equal(process.kill(child.pid!, 0), true, "a target is not wsbench's to stop");

  const refused = await runCli([
    'capacity',
    'echo',
    ...TWO_STEPS,
    '--target',
    `ws://127.0.0.1:${port}/`,
    '--keep-server',
    '--out',
    join(dir, 'x.json'),
  ]);
  assert.equal(refused.code, 2);
  assert.equal(refused.stderr, 'wsbench: --keep-server: it keeps --server-cmd servers, and none is given\n');
});

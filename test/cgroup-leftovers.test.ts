/**
 * No cgroup wsbench made outlives it. After SIGKILL of wsbench its watchdog
 * empties the server's cgroup and removes it, trying again until it can (here:
 * while a cgroup below it, made by the test, keeps it busy for a few seconds);
 * and a run removes the empty `wsbench-<pid>-N` cgroups of runs whose process
 * is gone, leaving those of live processes alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ServerCgroup } from '../src/parent/server-lifecycles/server-cgroup.js';
import { cgroupsHere, cgroupsOf } from './server-cgroups.js';
import { runCli, tempDir } from './support.js';
import { startCli, untilReceived } from './live-cli.js';
import { eventually, fixtureCommand, newTag, taggedProcesses } from './foreign-processes.js';

const skip = cgroupsHere() ? false : 'no cgroup v2 can be made here';

test('wsbench SIGKILLed: its watchdog removes the server cgroup, retrying while something keeps it busy', {
  timeout: 120_000,
  skip,
}, async () => {
  const tag = newTag();
  const cli = startCli([
    'run',
    'echo',
    '--clients',
    'ws',
    '--duration',
    '60s',
    '--metrics-listen',
    '127.0.0.1:0',
    '--out',
    join(tempDir(), 'r.json'),
    '--server-cmd',
    `srv=${fixtureCommand('echo', tag)}`,
  ]);
  await untilReceived(cli, 90_000);
  const [cgroup] = cgroupsOf(cli.pid);
  assert.ok(cgroup, 'the server runs in a cgroup of its own');
  // A cgroup below it: removing it fails (EBUSY) until this one goes.
  const below = join(cgroup, 'held-by-the-test');
  mkdirSync(below);
  try {
    process.kill(cli.pid, 'SIGKILL');
    await cli.finished;
    assert.ok(
      await eventually(() => taggedProcesses(tag).length === 0, 15_000),
      `left: ${taggedProcesses(tag).join(', ')}`,
    );
    // Long enough for the watchdog to have tried (and failed) at least once.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    assert.equal(existsSync(cgroup), true, 'removed while a cgroup below it was there');
  } finally {
    rmdirSync(below);
  }
  assert.ok(await eventually(() => !existsSync(cgroup), 15_000), `left: ${cgroup}`);
});

test('a run removes the empty cgroups of wsbench runs whose process is gone, not those of live ones', {
  timeout: 120_000,
  skip,
}, async () => {
  const made = ServerCgroup.create();
  assert.ok(!('unavailable' in made));
  const parent = dirname(made.path);
  assert.ok(await made.remove());
  // A pid no process holds: one that ran and was reaped.
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  }).stdout;
  assert.equal(existsSync(`/proc/${gone}`), false);
  const leftover = join(parent, `wsbench-${gone}-1`);
  const live = join(parent, `wsbench-${process.pid}-99`);
  mkdirSync(leftover);
  mkdirSync(live);
  try {
    const outcome = await runCli([
      'run',
      'echo',
      '--clients',
      'ws',
      '--duration',
      '300ms',
      '--out',
      join(tempDir(), 'r.json'),
      '--server-cmd',
      `srv=${fixtureCommand('echo', newTag())}`,
    ]);
    assert.equal(outcome.code, 0, outcome.stderr);
    assert.equal(existsSync(leftover), false, `${leftover} is left`);
    assert.equal(existsSync(live), true, 'the cgroup of a live process was removed');
  } finally {
    for (const dir of [leftover, live]) if (existsSync(dir)) rmdirSync(dir);
  }
});

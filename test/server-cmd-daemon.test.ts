/**
 * Nothing a --server-cmd starts outlives its cell, even a process that leaves
 * the command's process group (setsid, a double fork) or outlives the command
 * itself: a cgroup holds it where the machine allows one, else it is found by
 * the port it listens on. Either way it is sampled (or the note says why not),
 * and it goes when wsbench does, SIGKILL included.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMeasured, type BenchResult } from '../src/parent/index.js';
import { cgroupsHere, cgroupsOf } from './server-cgroups.js';
import { runCli, tempDir } from './support.js';
import { startCli, untilReceived } from './live-cli.js';
import { eventually, fixtureCommand, newTag, taggedProcesses } from './foreign-processes.js';

for (const cgroup of [true, false]) {
  const how = cgroup ? 'in its cgroup' : 'by its port (WSBENCH_CGROUP=off)';
  test(`a daemon that leaves the group, and one that outlives its command, are sampled and stopped ${how}`, {
    timeout: 120_000,
    skip: cgroup && !cgroupsHere() ? 'no cgroup v2 can be made here' : false,
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
        `stays=${fixtureCommand('setsid', tag)}`,
        '--server-cmd',
        `leaves=${fixtureCommand('setsid-exit', tag)}`,
      ],
      { env: cgroup ? {} : { WSBENCH_CGROUP: 'off' } },
    );
    assert.equal(outcome.code, 0, outcome.stderr);
    const cells = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
    for (const cell of cells) {
      assert.ok(isMeasured(cell) && cell.status === 'ok', JSON.stringify(cell));
      assert.ok(cell.resources.server !== null, `${cell.server}: the daemon is sampled`);
    }
    const notes = (name: string): string =>
      cells
        .filter(isMeasured)
        .find((c) => c.server === name)!
        .notes.join('\n');
    if (cgroup) {
      assert.match(
        notes('stays'),
        /^stays: process \d+ left the command's process group \(setsid or a double fork\); its cgroup holds it: sampled and stopped with the rest$/m,
      );
      assert.match(
        notes('leaves'),
        /^leaves: its command exited with code 0 and left 1 process\(es\) running \(setsid or a double fork\): those are the server, sampled and stopped through its cgroup$/m,
      );
    } else {
      assert.match(
        notes('stays'),
        /^stays: process \d+ left the command's process group \(setsid or a double fork\) but not its tree: sampled and stopped with it \(no cgroup here: WSBENCH_CGROUP=off\)$/m,
      );
      assert.match(
        notes('leaves'),
        /^leaves: process \d+ listening on port \d+ left the command's process \(which exited with code 0\) \(setsid or a double fork\); found by its port, sampled and stopped that way \(no cgroup here: WSBENCH_CGROUP=off\)$/m,
      );
    }
    assert.ok(
      await eventually(() => taggedProcesses(tag).length === 0, 5000),
      `left: ${taggedProcesses(tag).join(', ')}`,
    );
    assert.deepEqual(cgroupsOf(outcome.pid), []);
  });

  test(`wsbench SIGKILLed mid-cell: the daemon goes too (${how})`, {
    timeout: 120_000,
    skip: cgroup && !cgroupsHere() ? 'no cgroup v2 can be made here' : false,
  }, async () => {
    const tag = newTag();
    const cli = startCli(
      [
        'run',
        'echo',
        '--clients',
        'ws',
        '--duration',
        '30s',
        '--metrics-listen',
        '127.0.0.1:0',
        '--out',
        join(tempDir(), 'r.json'),
        '--server-cmd',
        `leaves=${fixtureCommand('setsid-exit', tag)}`,
      ],
      {
        env: cgroup ? {} : { WSBENCH_CGROUP: 'off' },
      },
    );
    const pid = cli.pid;
    // The daemon listens, and the window is on (its replies counted on /metrics; a fixed 3 s was too short on a busy machine).
    await untilReceived(cli, 60_000);
    process.kill(pid, 'SIGKILL');
    await cli.finished;
    assert.ok(
      await eventually(() => taggedProcesses(tag).length === 0, 10_000),
      `left: ${taggedProcesses(tag).join(', ')}`,
    );
    // The watchdog removes the cgroup once the killed daemon has left it. On a loaded machine that takes a while: its
    // last threads can keep the cgroup busy after cgroup.procs reads empty, so the watchdog retries for 20 s (it once tried once).
    assert.ok(
      await eventually(() => cgroupsOf(pid).length === 0, 25_000),
      `cgroups left: ${cgroupsOf(pid).join(', ')}`,
    );
  });
}

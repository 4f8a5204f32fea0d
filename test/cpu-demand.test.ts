/**
 * A process that wants a whole core reads as saturated even when it shares its
 * core and gets half of it: wsbench reads its demand (time on a CPU plus time
 * waiting on a run queue, of its main thread: /proc/<pid>/schedstat), and the one
 * saturation judgement uses it. A sleeping process wants next to nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ProcSampler } from '../src/parent/measure/proc-sampler.js';
import { busyEvidence, isSaturated, SATURATED_CPU_PERCENT } from '../src/parent/measure/saturation.js';

const HAS_SCHEDSTAT = existsSync('/proc/self/schedstat');

async function sampled(child: ChildProcess, ms: number) {
  const sampler = new ProcSampler(child.pid!);
  sampler.start();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return sampler.stop();
}

test('a spinning process that shares its core with another still wants a whole core: saturated, on its demand', {
  skip: HAS_SCHEDSTAT ? false : 'no /proc schedstat here',
}, async () => {
  // Both on core 0: each gets about half of it, and each wants all of it.
  const rival = spawn('taskset', ['-c', '0', 'yes'], { stdio: 'ignore' });
  const spinner = spawn('taskset', ['-c', '0', process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stats = await sampled(spinner, 1500);
    assert.ok(stats?.cpuDemandPercent, `demand read: ${JSON.stringify(stats)}`);
    assert.ok(
      stats.cpuDemandPercent.mean >= SATURATED_CPU_PERCENT,
      `demand ${stats.cpuDemandPercent.mean}% (CPU ${stats.cpuPercent.mean}%)`,
    );
    assert.ok(isSaturated(stats), 'judged saturated');
    assert.match(
      busyEvidence(stats),
      /^CPU demand \d+% of a core \(peak \d+%; on CPU \d+%, the rest waiting for a core\)$/,
    );
  } finally {
    spinner.kill('SIGKILL');
    rival.kill('SIGKILL');
  }
});

test('a sleeping process wants next to nothing: not saturated', {
  skip: HAS_SCHEDSTAT ? false : 'no /proc schedstat here',
}, async () => {
  const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    const stats = await sampled(sleeper, 1000);
    assert.ok(stats?.cpuDemandPercent, `demand read: ${JSON.stringify(stats)}`);
    assert.ok(stats.cpuDemandPercent.mean < SATURATED_CPU_PERCENT, `demand ${stats.cpuDemandPercent.mean}%`);
    assert.equal(isSaturated(stats), false);
  } finally {
    sleeper.kill('SIGKILL');
  }
});

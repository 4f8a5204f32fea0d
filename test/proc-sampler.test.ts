/** wsbench reads CPU and memory from /proc for every process; for a Node child it agrees with what the child measures itself. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ProcSampler, processTree, readProcess } from '../src/parent/measure/proc-sampler.js';

const BURNER = fileURLToPath(new URL('./fixtures/cpu-burner.js', import.meta.url));

test('outside (/proc) and inside (process.cpuUsage, rss) readings of a Node process agree', async () => {
  const child = fork(BURNER, [], { serialization: 'json' });
  try {
    await once(child, 'message');
    const sampler = new ProcSampler(child.pid!);
    child.send('start');
    sampler.start();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const outside = sampler.stop();
    child.send('stop');
    const [inside] = (await once(child, 'message')) as [{ cpuPercent: number; rssBytes: number }];
    assert.ok(outside, 'the sampler read the process');
    assert.ok(outside.samples >= 6, `samples: ${outside.samples}`);
    assert.ok(
      Math.abs(outside.cpuPercent.mean - inside.cpuPercent) < 5,
      `CPU: /proc ${outside.cpuPercent.mean}% vs own ${inside.cpuPercent.toFixed(1)}%`,
    );
    assert.ok(
      Math.abs(outside.rssBytes.max - inside.rssBytes) / inside.rssBytes < 0.05,
      `RSS: /proc ${outside.rssBytes.max} vs own ${inside.rssBytes}`,
    );
  } finally {
    child.kill('SIGKILL');
  }
});

test('a process tree: the parent and the children it forked are found and summed', async () => {
  // A shell that starts two sleeps: three processes, one tree.
  const shell = spawn('/bin/sh', ['-c', 'sleep 5 & sleep 5 & wait'], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const tree = processTree(shell.pid!);
    assert.equal(tree.length, 3, `tree: ${tree.join(' ')}`);
    assert.equal(readProcess(2 ** 22 + 12345), null, 'a pid that does not exist reads as null');
  } finally {
    for (const pid of processTree(shell.pid!).reverse()) process.kill(pid, 'SIGKILL');
  }
});

test('a window shorter than one sampling interval still reads CPU and RSS at its start and its end', async () => {
  const child = spawn('sleep', ['5'], { stdio: 'ignore' });
  try {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const sampler = new ProcSampler(child.pid!);
    sampler.start();
    // Far less than the 250 ms between samples, and than the 50 ms a sample needs on its own.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const stats = sampler.stop();
    assert.ok(stats, 'a window of a few ms has its readings');
    assert.equal(stats.samples, 2, 'one as it opened, one as it closed');
    assert.ok(stats.rssBytes.max > 0 && stats.rssBytes.mean > 0, `RSS ${stats.rssBytes.max}`);
    assert.equal(stats.cpuPercent.mean, 0, 'a sleeping process used no CPU');
    assert.equal(stats.cpuPercent.max, 0);
  } finally {
    child.kill('SIGKILL');
  }
});

test('a process gone before the window closed has no statistics from its one reading', async () => {
  const child = spawn('sleep', ['5'], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 100));
  const sampler = new ProcSampler(child.pid!);
  sampler.start();
  child.kill('SIGKILL');
  await once(child, 'exit');
  assert.equal(sampler.stop(), null);
});

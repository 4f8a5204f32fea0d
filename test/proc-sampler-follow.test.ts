/**
 * A restarted server is other processes: the /proc sampler follows the new
 * pid, so the window's CPU and RSS include the new life, and the old
 * process's CPU up to its kill still counts.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ProcSampler } from '../src/parent/measure/proc-sampler.js';

const MIB = 1024 * 1024;
const started: ChildProcess[] = [];
after(() => {
  for (const child of started) child.kill('SIGKILL');
});

function node(code: string): ChildProcess {
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(child);
  return child;
}

test('after follow(), samples come from the new process (its 80 MiB show) and CPU time adds up over both', async () => {
  const small = node('process.stdout.write("up\\n"); setInterval(() => {}, 1000)');
  const large = node(
    'globalThis.keep = Buffer.alloc(80 * 1024 * 1024, 1); process.stdout.write("up\\n"); setInterval(() => {}, 1000)',
  );
  await Promise.all([once(small.stdout!, 'data'), once(large.stdout!, 'data')]);
  const sampler = new ProcSampler(small.pid!);
  sampler.start();
  await new Promise((resolve) => setTimeout(resolve, 600));
  sampler.sampleNow();
  small.kill('SIGKILL');
  await once(small, 'exit');
  sampler.follow([large.pid!]);
  await new Promise((resolve) => setTimeout(resolve, 600));
  const stats = sampler.stop();
  assert.ok(stats, 'samples were taken');
  assert.ok(
    stats.rssBytes.max > 80 * MIB,
    `the new process was sampled: RSS max ${Math.round(stats.rssBytes.max / MIB)} MiB`,
  );
  // The new process's start (filling 80 MiB) counts: its CPU time since birth adds to the old one's.
  assert.ok(stats.cpuPercent.mean > 0, `mean CPU ${stats.cpuPercent.mean}`);
});

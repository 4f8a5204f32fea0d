/**
 * For the broker tests: whether a broker is installed here, and the processes a
 * test's broker started, found in /proc by a tag in their environment (a
 * broker's command line is its own: nats-server replaces the script that starts
 * it, and RabbitMQ's Erlang processes name themselves).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The environment variable every process of a test's broker inherits. */
export const TAG_VARIABLE = 'WSBENCH_TEST_BROKER_TAG';

export function newBrokerTag(): string {
  return `broker-${randomBytes(6).toString('hex')}`;
}

/** For `test(name, { skip: NO_NATS_SERVER }, ...)`: why a nats-server test cannot run here, or false. */
export const NO_NATS_SERVER: string | false = missingBroker('nats-server', 'nats-server') ?? false;

/** Null when `program` is on PATH, else why the test cannot run. */
export function missingBroker(program: string, debianPackage: string): string | null {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return null;
  } catch {
    return `${program} is not installed (Debian: apt-get install ${debianPackage}; .ci/run installs it)`;
  }
}

/**
 * Live (not zombie) processes whose environment holds `${TAG_VARIABLE}=tag`, with their command
 * names; wsbench's own watchdog loops (which inherit the environment too, and end by themselves
 * once what they watch is gone) are not the broker's.
 */
export function taggedBrokerProcesses(tag: string): Array<{ pid: number; name: string }> {
  const found: Array<{ pid: number; name: string }> = [];
  const needle = `${TAG_VARIABLE}=${tag}`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0').includes(needle)) continue;
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const parent = /^PPid:\s+(\d+)$/m.exec(status)?.[1];
      if (isWatchdog(entry) || (parent !== undefined && isWatchdog(parent))) continue; // the loop, or its sleep
      if (/^State:\s+Z/m.test(status)) continue;
      found.push({ pid: Number(entry), name: /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '' });
    } catch {
      // ended while we looked, or not ours to read
    }
  }
  return found;
}

function isWatchdog(pid: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('wsbench-watchdog');
  } catch {
    return false;
  }
}

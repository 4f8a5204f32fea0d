/**
 * Full load, for the echo cost comparison, means each client's core is busy every
 * moment: then CPU per message is the sum of what the client does per message
 * (extra work per message adds its own time, no more). Unpinned, on two cores
 * shared by a server and two clients, neither client is saturated: each sleeps
 * between bursts, and a client's CPU per message then depends on how often it is
 * woken, which moves with its share of the server. So the server gets one core
 * and both clients share the other (each at half of it, always with work), with
 * taskset, where the machine has two cores to give and taskset exists.
 */
import { execFileSync } from 'node:child_process';

export interface Pinning {
  serverCpu: number;
  clientCpu: number;
  /** Puts the bench process back on the CPUs it had. */
  release(): void;
}

/** The CPUs a process may run on, as taskset lists them ("0,1" or "0-3"); null without taskset. */
function affinityList(pid: number): string | null {
  try {
    const out = execFileSync('taskset', ['-p', '-c', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.slice(out.lastIndexOf(':') + 1).trim();
  } catch {
    return null;
  }
}

function expand(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [from, to] = part.split('-').map(Number);
    if (from === undefined || !Number.isInteger(from)) return [];
    return to === undefined ? [from] : Array.from({ length: to - from + 1 }, (_, i) => from + i);
  });
}

export function pinToCpu(pid: number, cpu: number | string): boolean {
  try {
    execFileSync('taskset', ['-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Moves this process (and so every child it forks from now on) to the second of its
 * CPUs, keeping the first for the server; a string says why it could not.
 */
export function pinForFullLoad(): Pinning | string {
  const original = affinityList(process.pid);
  if (original === null) return 'taskset is not available';
  const cpus = expand(original);
  if (cpus.length < 2) return `this process may use ${cpus.length} CPU (${original}), two are needed`;
  const [serverCpu, clientCpu] = cpus as [number, number];
  if (!pinToCpu(process.pid, clientCpu)) return `taskset could not move this process to CPU ${clientCpu}`;
  return { serverCpu, clientCpu, release: () => void pinToCpu(process.pid, original) };
}

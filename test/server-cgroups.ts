/** For the tests of servers started by command: whether wsbench can make cgroups here, and those a wsbench process made. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServerCgroup } from '../src/parent/server-lifecycles/server-cgroup.js';

/** Whether this machine lets wsbench make a cgroup (root, cgroup v2 mounted and writable). */
export function cgroupsHere(): boolean {
  const made = ServerCgroup.create();
  if ('unavailable' in made) return false;
  void made.remove();
  return true;
}

/** The cgroups a wsbench process `pid` made, if any are left (under any cgroup v2 directory). */
export function cgroupsOf(pid: number): string[] {
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter((l) => l.split(' - ')[1]?.startsWith('cgroup2 '))
    .map((l) => l.split(' ')[4]!);
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      if (entry.name.startsWith(`wsbench-${pid}-`)) found.push(join(dir, entry.name));
      else if (depth < 4) walk(join(dir, entry.name), depth + 1);
    }
  };
  for (const mount of mounts) walk(mount, 0);
  return found;
}

/**
 * A cgroup (v2) per server started by command: a process can leave its
 * process group and session (setsid, a double fork) but never its cgroup, so
 * everything the command starts is found, sampled and stopped through it.
 * Made as a child of wsbench's own cgroup (its accounting stays wsbench's),
 * where the machine allows it: cgroup v2 mounted and writable (root, or a
 * delegated subtree). Elsewhere (a container with a read-only /sys/fs/cgroup)
 * the caller falls back to finding the server's listener by its port.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
  accessSync,
  constants,
} from 'node:fs';
import { join } from 'node:path';
import { readProcess, type ProcReading } from '../measure/proc-sampler.js';

let sequence = 0;
/** Whether this process has looked for cgroups that runs before it left behind. */
let swept = false;
/** The cgroups wsbench makes: wsbench-<its pid>-<n>. */
const NAME = /^wsbench-(\d+)-\d+$/;

export class ServerCgroup {
  private constructor(readonly path: string) {}

  /** A fresh cgroup for one server, or why there can be none here (WSBENCH_CGROUP=off: never one). */
  static create(): ServerCgroup | { unavailable: string } {
    if (process.env.WSBENCH_CGROUP === 'off') return { unavailable: 'WSBENCH_CGROUP=off' };
    const parent = ownCgroupDirectory();
    if ('unavailable' in parent) return parent;
    if (!swept) {
      swept = true;
      removeLeftovers(parent.path);
    }
    const path = join(parent.path, `wsbench-${process.pid}-${++sequence}`);
    try {
      mkdirSync(path);
      accessSync(join(path, 'cgroup.procs'), constants.W_OK);
    } catch (error) {
      try {
        rmdirSync(path);
      } catch {
        // never made
      }
      return {
        unavailable: `cannot make a cgroup in ${parent.path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      };
    }
    return new ServerCgroup(path);
  }

  /**
   * The command line that joins this cgroup, then becomes `argv`: the shell writes its own
   * pid into cgroup.procs and execs, so the command and all it starts are inside from the first instruction.
   */
  wrap(argv: string[]): string[] {
    return ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" || exit 126; exec "$@"', this.path, ...argv];
  }

  /** The processes in it now. */
  members(): number[] {
    try {
      return readFileSync(join(this.path, 'cgroup.procs'), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map(Number);
    } catch {
      return [];
    }
  }

  /** CPU time of every process that ever ran in it (exited ones too), in clock ticks, and the RSS of those alive. */
  read(clockTicks: number): ProcReading | null {
    let usageUs: number;
    try {
      const line = readFileSync(join(this.path, 'cpu.stat'), 'utf8')
        .split('\n')
        .find((l) => l.startsWith('usage_usec '));
      if (!line) return null;
      usageUs = Number(line.split(' ')[1]);
    } catch {
      return null;
    }
    const rssBytes = this.members().reduce((sum, pid) => sum + (readProcess(pid)?.rssBytes ?? 0), 0);
    return { cpuTicks: (usageUs / 1e6) * clockTicks, rssBytes };
  }

  /** SIGKILL to every process in it (cgroup.kill, Linux 5.14+; else one by one). */
  kill(): void {
    try {
      writeFileSync(join(this.path, 'cgroup.kill'), '1');
      return;
    } catch {
      // an older kernel: one by one
    }
    for (const pid of this.members()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }

  /** Kills what is left, waits (at most `waitMs`) for it to empty, and removes it; true when it is gone. */
  async remove(waitMs = 2000): Promise<boolean> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      if (this.members().length > 0) this.kill();
      try {
        rmdirSync(this.path);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
        if (Date.now() >= deadline) return false;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/**
 * Removes the empty cgroups of wsbench runs whose process is gone (one killed with -9 whose
 * watchdog could not finish): only empty ones, since rmdir refuses any other, and only those whose
 * pid no process holds. A cgroup still holding processes is left to whoever started them.
 */
function removeLeftovers(directory: string): string[] {
  const removed: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch {
    return removed;
  }
  for (const name of entries) {
    const pid = NAME.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || existsSync(`/proc/${pid}`)) continue;
    try {
      rmdirSync(join(directory, name));
      removed.push(name);
    } catch {
      // not empty, or gone already
    }
  }
  return removed;
}

/** Where cgroup v2 is mounted, from /proc/self/mountinfo; null when it is not. */
function cgroup2Mount(): string | null {
  try {
    for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
      const [left, right] = line.split(' - ');
      if (right?.split(' ')[0] === 'cgroup2') return left!.split(' ')[4]!;
    }
  } catch {
    // not Linux
  }
  return null;
}

/** wsbench's own cgroup v2 directory ("0::/path" in /proc/self/cgroup, under the mount). */
function ownCgroupDirectory(): { path: string } | { unavailable: string } {
  const mount = cgroup2Mount();
  if (mount === null) return { unavailable: 'no cgroup v2 is mounted' };
  let own = '/';
  try {
    own =
      readFileSync('/proc/self/cgroup', 'utf8')
        .split('\n')
        .find((l) => l.startsWith('0::'))
        ?.slice(3) ?? '/';
  } catch {
    // read as the root
  }
  const path = join(mount, own);
  if (!existsSync(path)) return { unavailable: `wsbench's cgroup ${own} is not visible under ${mount}` };
  return { path };
}

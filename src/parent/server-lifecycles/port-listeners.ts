/**
 * Which processes listen on a TCP port, from /proc: the LISTEN sockets of
 * /proc/net/tcp and tcp6 on that port, then the processes whose open files
 * include one of them. Where no cgroup can hold a server started by command,
 * this finds the process that left its group (setsid, a double fork) by the
 * port wsbench gave it, so it can be sampled and stopped.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

const LISTEN = '0A';

/** Pids with a listening socket on `port` (any local address). */
export function listenersOn(port: number): number[] {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] !== LISTEN) continue;
      if (parseInt(fields[1]?.split(':')[1] ?? '', 16) === port) inodes.add(fields[9]!);
    }
  }
  if (inodes.size === 0) return [];
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${entry}/fd/${fd}`))?.[1];
        if (inode && inodes.has(inode)) {
          pids.push(Number(entry));
          break;
        }
      } catch {
        // closed while we looked
      }
    }
  }
  return pids;
}

/** When a process started, in clock ticks after boot (field 22 of /proc/PID/stat); null when it is gone. */
export function startTicks(pid: number): number | null {
  return statField(pid, 22);
}

/** A process's process group (field 5 of /proc/PID/stat); null when it is gone. */
export function groupOf(pid: number): number | null {
  return statField(pid, 5);
}

/** Field `field` (counted from 1, pid and command name included) of /proc/PID/stat. */
function statField(pid: number, field: number): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after its closing one.
    return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[field - 3]);
  } catch {
    return null;
  }
}

/**
 * Whether a process holds an established TCP connection, read from /proc: its
 * socket inodes against the kernel's TCP tables. Tests and
 * scripts/fault-injection.mjs (from the build) wait on it for a client to connect.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** True once `pid` holds an established TCP connection (a client that connected: its window opens right after). */
export function hasEstablishedConnection(pid: number): boolean {
  let inodes: Set<string>;
  try {
    inodes = new Set(
      readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
        try {
          return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? ''].filter(Boolean);
        } catch {
          return [];
        }
      }),
    );
  } catch {
    return false;
  }
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    try {
      for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
        const fields = line.trim().split(/\s+/);
        if (fields[3] === '01' && inodes.has(fields[9]!)) return true;
      }
    } catch {
      // no IPv6 table
    }
  }
  return false;
}

/**
 * A child dies with wsbench even when its own event loop is stuck: a tiny shell
 * loop beside it watches the child's parent pid in /proc and SIGKILLs the child
 * once wsbench is gone (the child is then re-parented). The IPC 'disconnect'
 * event alone needs a free event loop, which a child in a busy loop never has.
 *
 * A separate process rather than a worker thread: a thread's isolate would add
 * ~10 MB to the child's RSS, and RSS is what wsbench measures; runtimes without
 * worker threads (Bun, Deno, foreign servers) can use the same loop. It compares
 * the child's start time too, so a recycled pid is never killed.
 */
import { spawn } from 'node:child_process';

const WATCHDOG = `
parent=$1; child=$2; target=\${3:-$2}
start=$(cut -d' ' -f22 /proc/$child/stat 2>/dev/null) || exit 0
while sleep 0.5; do
  now=$(cut -d' ' -f4,22 /proc/$child/stat 2>/dev/null) || exit 0
  [ "$now" = "$parent $start" ] && continue
  [ "\${now#* }" = "$start" ] && kill -9 "$target" 2>/dev/null
  exit 0
done
`;

/**
 * Starts the watchdog of process `child` (default: this one), whose parent is `parent`.
 * `group`: kill the child's whole process group (a server started by command leads its own).
 */
export function watchParent(child = process.pid, parent = process.ppid, group = false): void {
  const args = [String(parent), String(child), ...(group ? [`-${child}`] : [])];
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG, 'wsbench-watchdog', ...args], { stdio: 'ignore' });
  watchdog.on('error', () => undefined); // no /bin/sh: the IPC disconnect still ends a healthy child
  // It must never be the reason a child stays alive.
  watchdog.unref();
}

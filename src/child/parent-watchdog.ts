/**
 * A child dies with wsbench even when its own event loop is stuck: a tiny shell
 * loop beside it watches the child's parent pid in /proc and SIGKILLs the child
 * once wsbench is gone (the child is then re-parented). The IPC 'disconnect'
 * event alone needs a free event loop, which a child in a busy loop never has.
 *
 * A separate process rather than a worker thread: a thread's isolate would add
 * ~10 MB to the child's RSS, and RSS is what wsbench measures; runtimes without
 * worker threads (Bun, Deno, foreign servers) can use the same loop. It compares
 * the child's start time too, so a recycled pid is never killed. For a server
 * started by command it watches the whole process group: once the server itself
 * is gone (reaped at once by an init that reaps orphans), its workers may still be
 * there, and they go when wsbench does.
 */
import { spawn } from 'node:child_process';

/** How many times a watchdog tries to empty and remove a cgroup once wsbench is gone, and how far apart: at least 20 s in all. */
const CGROUP_REMOVE_TRIES = 100;
const CGROUP_RETRY_S = 0.2;

// `stat_of PID` sets state, ppid and start from /proc/PID/stat, read after the last ')' so a
// command name with spaces or parentheses cannot shift the fields. Builtins only: the loop
// forks nothing but its sleep, so it costs the cores under measurement next to nothing.
// SIGHUP is ignored: a closed terminal hangs up wsbench's whole process group, and the watchdog
// must outlive wsbench to do its job (wsbench itself answers the hangup and stops its children).
const WATCHDOG = `
trap '' HUP
parent=$1; child=$2; group=$3; cg=$4
stat_of() { read -r s 2>/dev/null < /proc/$1/stat || return 1; set -- \${s##*) }; state=$1; ppid=$2; start=\${20}; }
# A cgroup holds whatever left the group (setsid, a double fork): kill what is in it and remove it,
# again and again until it is gone (a killed process leaves it only once it has exited, which a
# loaded machine can take seconds to get to), for at most ${CGROUP_REMOVE_TRIES} tries ${CGROUP_RETRY_S} s apart.
kill_cgroup() {
  [ -n "$cg" ] || return 0
  i=0
  while [ -d "$cg" ] && [ $i -lt ${CGROUP_REMOVE_TRIES} ]; do
    if read -r p 2>/dev/null < "$cg/cgroup.procs"; then
      echo 1 2>/dev/null > "$cg/cgroup.kill" || while read -r p; do kill -s KILL "$p"; done 2>/dev/null < "$cg/cgroup.procs"
    fi
    rmdir "$cg" 2>/dev/null && return 0
    sleep ${CGROUP_RETRY_S}; i=$((i+1))
  done
}
kill_child() { if [ "$group" = group ]; then kill -s KILL -- "-$child"; else kill -s KILL -- "$child"; fi 2>/dev/null; kill_cgroup; exit 0; }
cgroup_alive() { [ -n "$cg" ] && read -r p 2>/dev/null < "$cg/cgroup.procs"; }
parent_gone() { ! stat_of $parent || [ "$state" = Z ] || [ "$start" != "$pstart" ]; }
# wsbench already gone (a loaded machine started this loop late): its cgroup goes now.
stat_of $parent || { kill_cgroup; exit 0; }; pstart=$start
# The child already gone (a launcher that exited at once): its cgroup and group are still watched below.
if stat_of $child; then cstart=$start; else cstart=gone; fi
while sleep 0.5; do
  if [ "$cstart" != gone ] && stat_of $child && [ "$start" = "$cstart" ]; then
    # A stray (a daemon that left a server's group) has another parent anyway: only wsbench's going counts.
    if [ "$group" = stray ]; then parent_gone && kill_child; continue; fi
    # Alive: re-parented means its parent is gone.
    [ "$ppid" = "$parent" ] || kill_child
    continue
  fi
  # The child is gone. Processes it started may still hold its group or its cgroup (a server that
  # died of a broken pipe once wsbench was gone leaves its workers; a daemon outlives its launcher):
  # watch them until wsbench goes.
  if { [ "$group" = group ] && kill -s 0 -- "-$child" 2>/dev/null; } || cgroup_alive; then
    parent_gone && kill_child
    continue
  fi
  # Nothing of it is left: an empty cgroup is wsbench's to remove, or this loop's once wsbench is gone.
  [ -n "$cg" ] && [ -d "$cg" ] || exit 0
  parent_gone && { kill_cgroup; exit 0; }
done
`;

/**
 * Starts the watchdog of process `child` (default: this one), whose parent is `parent`.
 * `what`: 'group' kills the child's whole process group (a server started by command leads its own);
 * 'stray' watches a process that `parent` did not start itself (a daemon found by its port);
 * `cgroup`: the cgroup directory holding all it started, emptied and removed too.
 */
export function watchParent(
  child = process.pid,
  parent = process.ppid,
  what: 'process' | 'group' | 'stray' = 'process',
  cgroup?: string,
): void {
  const args = [String(parent), String(child), what === 'process' ? '' : what, cgroup ?? ''];
  const watchdog = spawn('/bin/sh', ['-c', WATCHDOG, 'wsbench-watchdog', ...args], { stdio: 'ignore' });
  watchdog.on('error', () => undefined); // no /bin/sh: the IPC disconnect still ends a healthy child
  // It must never be the reason a child stays alive.
  watchdog.unref();
}

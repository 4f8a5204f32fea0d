/**
 * How to start a child process under a runtime: the binary, the arguments that
 * come before the entry module, and the environment it needs. Node children run
 * this Node with its flags; client processes add the load generator's.
 */
import type { Runtime } from '../../shared/types/result-types.js';
import { RUNTIME_CHILD_ENV, locateRuntime } from '../../child/runtimes/locate.js';
import { loadGeneratorExecArgv } from './load-generator-flags.js';

interface ChildLaunch {
  runtime: Runtime;
  /** Undefined for Node: fork() uses the running Node. */
  execPath?: string;
  /** Undefined: fork()'s default, this process's own flags. */
  execArgv?: string[];
  env: Readonly<Record<string, string>>;
}

/**
 * Deno runs the entry with every permission (the scenario code reads files,
 * opens sockets, spawns the watchdog and reads the monotonic clock through FFI),
 * without writing a lock file into the user's directory, and never fetching a
 * module: everything comes from node_modules. `--unstable-net` only unlocks
 * Deno.serve's reusePort, which a server of several processes needs to share its port.
 */
const DENO_ARGS = ['run', '-A', '--no-lock', '--cached-only', '--unstable-net'];

/**
 * Throws with the reason when the runtime is missing (its cells are skipped before this is reached).
 * `kind`: a Node client process gets load-generator-flags.ts's V8 settings; a server runs as Node runs it by default.
 */
export function childLaunch(runtime: Runtime, kind: 'server' | 'client'): ChildLaunch {
  if (runtime === 'node')
    return kind === 'client' ? { runtime, execArgv: loadGeneratorExecArgv(), env: {} } : { runtime, env: {} };
  const info = locateRuntime(runtime);
  if (!info.available || !info.path) throw new Error(`${runtime} unavailable: ${info.reason ?? 'not found'}`);
  return { runtime, execPath: info.path, execArgv: runtime === 'deno' ? DENO_ARGS : [], env: RUNTIME_CHILD_ENV };
}

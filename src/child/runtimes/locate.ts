/**
 * Finds the Bun and Deno binaries a stack's child runs under: the build named
 * by an environment variable (WSBENCH_BUN, WSBENCH_DENO) first, else the one in
 * the pinned npm package (an optional dependency, so `npm ci` brings it and
 * downloads nothing else), else the first `bun` or `deno` on PATH, so that an
 * install without optional dependencies still runs them where the system has
 * them. Each is asked for its version once per process; the result records
 * which binary ran and where it came from.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import type { Runtime, RuntimeInfo } from '../../shared/types/result-types.js';

const require = createRequire(import.meta.url);
const VERSION_TIMEOUT_MS = 15_000;

type ForeignRuntime = Exclude<Runtime, 'node'>;

interface Source {
  /** Environment variable naming another build. */
  envVar: string;
  /** The npm package that carries the binary for linux x64 (glibc). */
  packageName: string;
  /** The binary's path inside that package. */
  binaryInPackage: string;
  /** The version out of `<binary> --version`. */
  parseVersion(output: string): string | null;
}

const SOURCES: Record<ForeignRuntime, Source> = {
  bun: {
    envVar: 'WSBENCH_BUN',
    packageName: '@oven/bun-linux-x64',
    binaryInPackage: 'bin/bun',
    parseVersion: (output) => /^(\d+\.\d+\.\d+\S*)/.exec(output.trim())?.[1] ?? null,
  },
  deno: {
    envVar: 'WSBENCH_DENO',
    packageName: '@deno/linux-x64-glibc',
    binaryInPackage: 'deno',
    parseVersion: (output) => /^deno (\d+\.\d+\.\d+\S*)/.exec(output.trim())?.[1] ?? null,
  },
};

/**
 * What a Bun or Deno child needs in its environment: no update check or
 * telemetry (nothing may leave the machine), no colour in the stderr a failure
 * reason is read from.
 */
export const RUNTIME_CHILD_ENV: Readonly<Record<string, string>> = {
  DENO_NO_UPDATE_CHECK: '1',
  DENO_NO_PROMPT: '1',
  DO_NOT_TRACK: '1',
  NO_COLOR: '1',
};

const cache = new Map<Runtime, RuntimeInfo>();

/** The runtime `name` as this machine has it; cached for the life of the process. */
export function locateRuntime(name: Runtime): RuntimeInfo {
  let info = cache.get(name);
  if (!info) {
    info = name === 'node' ? thisNode() : locate(name, SOURCES[name]);
    cache.set(name, info);
  }
  return info;
}

/** Every runtime, for `wsbench list` and the result's environment. */
export function locateRuntimes(): RuntimeInfo[] {
  return (['node', 'bun', 'deno'] as const).map(locateRuntime);
}

function thisNode(): RuntimeInfo {
  return {
    name: 'node',
    available: true,
    version: process.version.replace(/^v/, ''),
    path: process.execPath,
    source: 'the Node running wsbench',
  };
}

function locate(name: ForeignRuntime, source: Source): RuntimeInfo {
  const fromEnv = process.env[source.envVar];
  if (fromEnv !== undefined && fromEnv !== '') return probeBinary(name, fromEnv, `${source.envVar}=${fromEnv}`, source);
  let packageJson: string;
  try {
    packageJson = require.resolve(`${source.packageName}/package.json`);
  } catch {
    const onPath = findOnPath(name);
    if (onPath) return probeBinary(name, onPath, `${name} on PATH`, source);
    const why =
      process.platform === 'linux' && process.arch === 'x64'
        ? `${source.packageName} is not installed (an optional dependency: npm installs it unless optional dependencies are omitted)`
        : `${source.packageName} is pinned for linux x64 only`;
    return unavailable(
      name,
      null,
      source.packageName,
      `${why} and no ${name} is on PATH; or set ${source.envVar} to a ${name} binary`,
    );
  }
  return probeBinary(name, join(dirname(packageJson), source.binaryInPackage), `${source.packageName} (npm)`, source);
}

/** The first executable file called `command` in a PATH directory, as a shell would find it; null when none. */
function findOnPath(command: string): string | null {
  // Relative PATH entries would resolve against wherever wsbench happens to run: skipped.
  for (const directory of (process.env.PATH ?? '').split(delimiter).filter(isAbsolute)) {
    const candidate = join(directory, command);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not there, or not executable: the next directory
    }
  }
  return null;
}

function probeBinary(name: ForeignRuntime, path: string, from: string, source: Source): RuntimeInfo {
  if (!existsSync(path)) return unavailable(name, path, from, `${path} does not exist`);
  let output: string;
  try {
    output = execFileSync(path, ['--version'], {
      encoding: 'utf8',
      timeout: VERSION_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...RUNTIME_CHILD_ENV },
    });
  } catch (error) {
    return unavailable(name, path, from, `${path} --version failed: ${(error as Error).message.split('\n')[0]}`);
  }
  const version = source.parseVersion(output);
  if (!version)
    return unavailable(
      name,
      path,
      from,
      `${path} --version printed "${output.trim().split('\n')[0]}", not a ${name} version`,
    );
  return { name, available: true, version, path, source: from };
}

function unavailable(name: Runtime, path: string | null, from: string, reason: string): RuntimeInfo {
  return { name, available: false, version: null, path, source: from, reason };
}

/** Shared by the tests: runs the real bin in a child process and reads what it printed. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
export { hasEstablishedConnection } from './established-connection.js';

export const BIN = fileURLToPath(new URL('../../bin/wsbench.js', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SUBREAPER = join(REPO_ROOT, 'test', 'fixtures', 'subreaper.py');

export interface CliOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  pid: number;
}

/**
 * Runs `wsbench ...args` to completion (or until `timeoutMs`, then SIGKILL).
 * `command` runs another wsbench than this checkout's bin (`['npx', 'wsbench']`
 * in an installed project).
 */
export function runCli(
  args: string[],
  options: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    timeoutMs?: number;
    onSpawn?: (pid: number) => void;
    ownProcessGroup?: boolean;
    underSubreaper?: boolean;
    command?: string[];
  } = {},
): Promise<CliOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    options.onSpawn?.(child.pid!);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, pid: child.pid! });
    });
  });
}

/**
 * Starts `command args` (default: node bin/wsbench.js args) with stdout and
 * stderr piped. `ownProcessGroup` puts it in a group of its own, so that a test
 * can signal the group the way a terminal's Ctrl+C does; `underSubreaper` runs
 * it below test/fixtures/subreaper.py, whose pid the child then is.
 */
export function spawnCli(
  args: string[],
  options: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    command?: string[];
    ownProcessGroup?: boolean;
    underSubreaper?: boolean;
  },
): ChildProcessByStdio<null, Readable, Readable> {
  const [file, ...pre] = options.command ?? [process.execPath, BIN];
  const [command, argv] = options.underSubreaper
    ? ['python3', [SUBREAPER, file!, ...pre, ...args]]
    : [file!, [...pre, ...args]];
  return spawn(command, argv, {
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.ownProcessGroup ?? false,
  });
}

/** The one line a refused input prints: asserts exit 2, nothing on stdout and exactly one line on stderr. */
export function usageErrorLine(outcome: CliOutcome): string {
  assert.equal(outcome.code, 2, outcome.stderr);
  assert.equal(outcome.stdout, '');
  const lines = outcome.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, got: ${outcome.stderr}`);
  return lines[0]!;
}

/** A fresh temp directory for result files. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'wsbench-test-'));
}

/** Pids whose parent is `pid`, read from /proc. */
export function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (new RegExp(`^PPid:\\s+${pid}$`, 'm').test(readFileSync(`/proc/${entry}/status`, 'utf8')))
        found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** A pid's command line, words joined by spaces ('' when gone). */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** True while `pid` runs (a zombie waiting to be reaped counts as gone). */
export function alive(pid: number): boolean {
  try {
    return /^State:\s+[^Z]/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** The child of `pid` whose WSBENCH_ROLE is `role` (`server`, `client`, `client 1`), if one runs. */
export function childWithRole(pid: number, role: string): number | undefined {
  return childrenOf(pid).find((child) => {
    try {
      return readFileSync(`/proc/${child}/environ`, 'utf8').split('\0').includes(`WSBENCH_ROLE=${role}`);
    } catch {
      return false;
    }
  });
}

/**
 * Waits (up to `ms`) until the journal beside `out` records an event of `type`,
 * e.g. 'window-open': a signal sent after it finds something measured, however
 * slowly a loaded machine started the run. True when it did.
 */
export async function untilJournalSays(out: string, type: string, ms = 90_000): Promise<boolean> {
  const says = (): boolean => {
    try {
      return readFileSync(`${out}.journal`, 'utf8').includes(`"type":"${type}"`);
    } catch {
      return false;
    }
  };
  for (const until = Date.now() + ms; Date.now() < until && !says(); ) await new Promise((r) => setTimeout(r, 50));
  return says();
}

/**
 * `run SCENARIO --servers SERVERS --clients CLIENTS` and then `flags`: the
 * matrix most CLI tests start from, so that each call shows only the flags it is about.
 */
export function runArgs(scenario: string, servers: string, clients: string, ...flags: string[]): string[] {
  return ['run', scenario, '--servers', servers, '--clients', clients, ...flags];
}

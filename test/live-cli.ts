/**
 * The real bin, started and watched while it runs: a test can wait for a line
 * on stderr (the progress lines of a non-TTY run say when a cell started)
 * before it injects a fault, instead of guessing with sleeps.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { spawnCli } from './support.js';

export interface LiveCli {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves when stderr has matched `pattern` (rejects after `timeoutMs` or when the process ends first). */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<void>;
  finished: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `command args` (default: node bin/wsbench.js args). `ownProcessGroup`
 * puts it in a group of its own, so that a test can signal the group.
 */
export function startCli(
  args: string[],
  options: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    command?: string[];
    ownProcessGroup?: boolean;
    timeoutMs?: number;
  } = {},
): LiveCli {
  const child = spawnCli(args, options);
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const listener of [...listeners]) listener();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
  // 'close': the pipes are drained too (a grandchild holding them keeps it open, which is itself a finding).
  const finished = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      for (const listener of [...listeners]) listener();
      resolve({ code, signal });
    });
  });
  let ended = false;
  void finished.then(() => (ended = true));
  return {
    child,
    pid: child.pid!,
    stdout: () => stdout,
    stderr: () => stderr,
    finished,
    waitForStderr(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => done(new Error(`no ${pattern} on stderr within ${timeoutMs} ms:\n${stderr}`)),
          timeoutMs,
        );
        const check = (): void => {
          if (pattern.test(stderr)) done(null);
          else if (ended || child.exitCode !== null) done(new Error(`ended before ${pattern} on stderr:\n${stderr}`));
        };
        const done = (error: Error | null): void => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Live processes of process group `pgid` (children and watchdogs stay in their parent's group), from /proc. */
export function processGroupMembers(pgid: number): Array<{ pid: number; command: string }> {
  const members: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name: state ppid pgrp ...
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) !== pgid || state === 'Z') continue;
      members.push({
        pid: Number(entry),
        command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim(),
      });
    } catch {
      // It ended while we looked.
    }
  }
  return members;
}

/** Waits until group `pgid` is empty, up to `timeoutMs`; returns who is left. */
export async function groupEmpties(pgid: number, timeoutMs: number): Promise<Array<{ pid: number; command: string }>> {
  const deadline = Date.now() + timeoutMs;
  let left = processGroupMembers(pgid);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = processGroupMembers(pgid);
  }
  return left;
}

/**
 * Resolves once the run started with `--metrics-listen 127.0.0.1:0` shows, on its /metrics, a client
 * counter named received above 0: its window is open and has measured replies. Rejects after `timeoutMs`.
 */
export async function untilReceived(cli: LiveCli, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await cli.waitForStderr(/metrics: http\S+/, timeoutMs);
  const url = /metrics: (http\S+)/.exec(cli.stderr())![1]!;
  while (Date.now() < deadline) {
    const text = await fetch(url).then(
      (response) => response.text(),
      () => '',
    );
    if (/counter="received"\} [1-9]/.test(text)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no received counter above 0 on ${url} within ${timeoutMs} ms`);
}

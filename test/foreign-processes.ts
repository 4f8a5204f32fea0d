/** For the foreign-server tests: the processes a test's server started, found in /proc by a tag in their command line. */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The tiny echo server run as a command (built from test/fixtures/foreign-echo-server.ts). */
export const ECHO_FIXTURE = fileURLToPath(new URL('./fixtures/foreign-echo-server.js', import.meta.url));

export function newTag(): string {
  return `wsbench-test-${randomBytes(6).toString('hex')}`;
}

/** The command that starts the fixture in `mode`, every process of it carrying `tag`. */
export function fixtureCommand(mode: string, tag: string, port = '{port}'): string {
  return `${process.execPath} ${ECHO_FIXTURE} --port ${port} --mode ${mode} --tag ${tag}`;
}

/** Live (not zombie) processes whose command line holds `tag`. */
export function taggedProcesses(tag: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(tag)) continue;
      if (/^State:\s+Z/m.test(readFileSync(`/proc/${entry}/status`, 'utf8'))) continue;
      found.push(Number(entry));
    } catch {
      // ended while we looked
    }
  }
  return found;
}

/** Parent pid of a process, from /proc (0 when it is gone). */
export function parentOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/** RSS of a process in bytes, from /proc (0 when it is gone). */
export function rssOf(pid: number): number {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return pages * 4096;
  } catch {
    return 0;
  }
}

/** Waits until `condition` holds, checking every 50 ms; false after `timeoutMs`. */
export async function eventually(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return condition();
}

/**
 * Starts a server the way a user starts their own (`argv`, its stderr shown) and resolves with the first match of
 * `printed` in what it prints on stdout (where it listens); rejects when it exits first. The caller kills `child`.
 */
export function startPrintingServer(
  argv: string[],
  printed: RegExp,
): { child: ChildProcess; printed: Promise<RegExpExecArray> } {
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ['ignore', 'pipe', 'inherit'] });
  const found = new Promise<RegExpExecArray>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = printed.exec(text);
      if (match) resolve(match);
    });
    child.once('exit', (code) =>
      reject(new Error(`${argv.join(' ')} exited (code ${code}) before printing ${printed}`)),
    );
  });
  // Awaited later, perhaps after other work: an early exit must not count as an unhandled rejection meanwhile.
  found.catch(() => undefined);
  return { child, printed: found };
}

/** Shared by the browser client's tests: whether they can run here, and the Chromium processes a run started. */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { probeChromium } from '../src/child/runtimes/browser/chromium-binary.js';

const chromium = await probeChromium();

/** False where a Chromium is installed; else why the browser tests cannot run (.ci/run installs Debian's). */
export const NO_CHROMIUM: string | false = chromium.available ? false : `no Chromium here: ${chromium.reason}`;

/** The version `chromium --version` says, as the result must record it. */
export const CHROMIUM_VERSION = chromium.available ? chromium.version : null;

/**
 * Live processes of the browsers client process `clientPid` started: each runs with a profile named
 * after that process (src/child/runtimes/browser/browser-process.ts), whatever group it leads.
 */
export function browserProcessesOf(clientPid: number): Array<{ pid: number; command: string }> {
  const profile = `--user-data-dir=${join(tmpdir(), `wsbench-browser-${clientPid}-`)}`;
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (command.includes(profile)) found.push({ pid: Number(entry), command: command.slice(0, 200) });
    } catch {
      // It ended while we looked.
    }
  }
  return found;
}

/** The client processes (client-process.js) among `members`. */
export function clientPids(members: Array<{ pid: number; command: string }>): number[] {
  return members.filter((m) => m.command.includes('client-process.js')).map((m) => m.pid);
}

/** Waits until `check` returns an empty list, up to `timeoutMs`; returns what is left. */
export async function untilNone<T>(check: () => T[], timeoutMs: number): Promise<T[]> {
  const deadline = Date.now() + timeoutMs;
  let left = check();
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = check();
  }
  return left;
}

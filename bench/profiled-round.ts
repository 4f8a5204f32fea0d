/**
 * One round of a client-cost comparison with every child under --cpu-prof, placed
 * as the measured rounds are, and where each client's time went (profile-summary.ts).
 * Node refuses --cpu-prof in NODE_OPTIONS, but forked children inherit the parent's
 * execArgv: the bench re-runs itself with the flag, and wsbench's children follow.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pinForFullLoad } from './cpu-pinning.js';
import { summarizeProfile } from './profile-summary.js';

/** A process to summarise: the module or function only it ran, and a line saying what it did. */
export interface ProfiledClient {
  marker: string;
  label: string;
  /** A function that runs only while the compared work does: the summary counts samples from its first to its last. */
  window?: string;
}

/**
 * Runs `round` (given the server's CPU, or null unpinned) in a copy of `self` started
 * with --cpu-prof, then prints each client's profile summary.
 */
export async function profiledRound(
  self: string,
  dir: string,
  round: (serverCpu: number | null) => Promise<ProfiledClient[]>,
): Promise<void> {
  const target = resolve(dir);
  mkdirSync(target, { recursive: true });
  if (!process.execArgv.some((arg) => arg.startsWith('--cpu-prof'))) {
    const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${target}`, self, ...process.argv.slice(2)], {
      stdio: 'inherit',
    });
    const code = await new Promise<number | null>((done) => child.on('exit', done));
    process.exitCode = code ?? 1;
    return;
  }
  const before = new Set(readdirSync(target));
  const pinning = pinForFullLoad();
  let clients: ProfiledClient[];
  try {
    clients = await round(typeof pinning === 'string' ? null : pinning.serverCpu);
  } finally {
    if (typeof pinning !== 'string') pinning.release();
  }
  process.stdout.write(
    typeof pinning === 'string'
      ? `not pinned: ${pinning}\n`
      : `server on CPU ${pinning.serverCpu}, clients on CPU ${pinning.clientCpu}\n`,
  );
  // Children write their profile as they exit.
  await new Promise((done) => setTimeout(done, 1000));
  const profiles = readdirSync(target)
    .filter((f) => f.endsWith('.cpuprofile') && !before.has(f))
    .map((f) => join(target, f));
  for (const { marker, label, window } of clients) {
    process.stdout.write(`${label}\n${summarizeProfile(profiles, marker, marker, window)}\n\n`);
  }
}

/**
 * Which Chromium the browser client runs, and with which flags. The binary is
 * the one WSBENCH_CHROMIUM names, else Debian's /usr/bin/chromium, else the
 * first `chromium` or `chromium-browser` on PATH: the system's browser, never
 * one downloaded. Its version comes from `<binary> --version`, once per process
 * (version-output.ts: in a process group of its own, all of which goes when it is done).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { versionOutput } from '../version-output.js';

const CHROMIUM_ENV = 'WSBENCH_CHROMIUM';
const DEFAULT_PATH = '/usr/bin/chromium';
const NAMES_ON_PATH = ['chromium', 'chromium-browser'];
const VERSION_TIMEOUT_MS = 15_000;

/**
 * Headless, no GPU, and none of the browser's own traffic: no background networking, component
 * updates, sync, QUIC or proxy lookups, and no host name resolves (only IP literals and localhost
 * resolves, and no address but those the cell names is reached (see resolverRules). Timers of a page
 * that is not in front are not slowed. --no-sandbox: Chromium's sandbox refuses to start as root.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--disable-breakpad',
  '--metrics-recording-only',
  '--no-proxy-server',
  '--password-store=basic',
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

/**
 * Every host the browser may reach, and no other: Chromium maps all the rest, IP literals included,
 * to "not found", so not even a DNS query leaves (the pages' server and the cell's server are all it needs).
 */
export function resolverRules(hosts: readonly string[]): string {
  return `--host-resolver-rules=${['MAP * ~NOTFOUND', ...[...new Set(hosts)].map((host) => `EXCLUDE ${host}`)].join(', ')}`;
}

interface ChromiumBinary {
  path: string;
  /** Where it was found: `WSBENCH_CHROMIUM=...`, the Debian path, or PATH. */
  source: string;
}

type ChromiumProbe =
  | { available: true; binary: ChromiumBinary; version: string }
  | { available: false; version: null; reason: string };

let cached: Promise<ChromiumProbe> | null = null;

/**
 * The Chromium to run and its version, or why there is none; cached for the life of the process.
 * Asynchronous: `--version` starts the browser binary (half a second here), while the other stacks probe.
 */
export function probeChromium(): Promise<ChromiumProbe> {
  cached ??= probe();
  return cached;
}

async function probe(): Promise<ChromiumProbe> {
  const binary = locateChromium();
  if ('reason' in binary) return { available: false, version: null, reason: binary.reason };
  let output: string;
  try {
    output = await versionOutput(binary.path, VERSION_TIMEOUT_MS);
  } catch (error) {
    return {
      available: false,
      version: null,
      reason: `${binary.path} --version failed (${binary.source}): ${(error as Error).message.split('\n')[0]}`,
    };
  }
  // "Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)", "Google Chrome 131.0.6778.85"
  const version = /(\d+\.\d+\.\d+\.\d+)/.exec(output)?.[1];
  if (!version)
    return {
      available: false,
      version: null,
      reason: `${binary.path} --version printed "${output.trim().split('\n')[0]}", not a Chromium version`,
    };
  return { available: true, binary, version };
}

/** The binary to run, or why there is none (its version is probeChromium()'s). */
export function locateChromium(): ChromiumBinary | { reason: string } {
  const fromEnv = process.env[CHROMIUM_ENV];
  if (fromEnv)
    return isExecutable(fromEnv)
      ? { path: fromEnv, source: `${CHROMIUM_ENV}=${fromEnv}` }
      : { reason: `${CHROMIUM_ENV}=${fromEnv} is not an executable file` };
  if (isExecutable(DEFAULT_PATH)) return { path: DEFAULT_PATH, source: DEFAULT_PATH };
  for (const directory of (process.env.PATH ?? '').split(delimiter).filter(isAbsolute)) {
    for (const name of NAMES_ON_PATH) {
      const candidate = join(directory, name);
      if (isExecutable(candidate)) return { path: candidate, source: `${name} on PATH` };
    }
  }
  return {
    reason: `no Chromium found (${DEFAULT_PATH}, chromium on PATH; apt-get install chromium, or set ${CHROMIUM_ENV} to a Chromium binary)`,
  };
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

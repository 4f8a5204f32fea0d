/**
 * The long run docs/long-runs.md quotes: firehose at the seed's rate (its
 * `seed` preset: 490 msg/s, 8 KiB fragments) for an hour on one stack pair,
 * with the journal on (and kept, to read the children's RSS from it) and the
 * dashboard open in headless Chromium the whole time. Every 10 s this reads,
 * from /proc, the RSS of wsbench itself and of each of its Node children, and
 * the load average (the machine is shared: its load is stated beside the
 * curve). Memory growth is the finding here, not throughput.
 *
 *   node dist/bench/soak-memory.js [--duration 1h] [--dir DIR] [--server ws] [--client ws]
 *     [--no-dashboard] [--no-journal] [--heap-probe]
 *
 * --no-dashboard and --no-journal leave one suspect out (the live views, the
 * journal writer) so that each one's share of wsbench's growth shows.
 * --heap-probe runs wsbench under --expose-gc with bench/soak-heap-probe.ts,
 * which writes DIR/heap.jsonl: process.memoryUsage() after a forced full
 * collection every 10 s (and SIGUSR2 writes a heap snapshot into DIR).
 *
 * Writes DIR/soak-samples.json (rewritten at each sample, so a cut run keeps
 * what it read), DIR/soak.json and DIR/soak.json.journal; bench/soak-chart.ts
 * draws the curve from them.
 */
import { spawn } from 'node:child_process';
import { binNodeFlags } from './bin-node-flags.js';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const BIN = fileURLToPath(new URL('../../bin/wsbench.js', import.meta.url));
const CHROMIUM = process.env.WSBENCH_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SAMPLE_MS = 10_000;
const PAGE_BYTES = 4096;

export interface SoakSample {
  /** Seconds since wsbench started. */
  tS: number;
  /** RSS by process: `wsbench`, and each Node child by its role (`server`, `client`). */
  rssBytes: Record<string, number>;
  /** The machine's 1-minute load average. */
  load1: number;
}

export interface SoakSamples {
  command: string[];
  startedAt: string;
  samples: SoakSample[];
  /** What the dashboard page showed at the end (its run status), when it could be read. */
  pageStatus: string | null;
}

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '1h' },
    dir: { type: 'string' },
    server: { type: 'string', default: 'ws' },
    client: { type: 'string', default: 'ws' },
    'no-dashboard': { type: 'boolean', default: false },
    'no-journal': { type: 'boolean', default: false },
    'heap-probe': { type: 'boolean', default: false },
  },
});
const dashboard = !values['no-dashboard'];
const dir = resolve(values.dir ?? join(tmpdir(), `wsbench-soak-${Date.now()}`));
mkdirSync(dir, { recursive: true });
const out = join(dir, 'soak.json');
const command = [
  ...[
    'run',
    'firehose',
    '--preset',
    'seed',
    '--duration',
    values.duration!,
    '--servers',
    values.server!,
    '--clients',
    values.client!,
  ],
  ...(dashboard ? ['--dashboard'] : []),
  ...(values['no-journal'] ? ['--no-journal'] : ['--keep-journal']),
  ...['--out', out],
];
const PROBE = fileURLToPath(new URL('./soak-heap-probe.js', import.meta.url));
const nodeArgs = values['heap-probe']
  ? ['--expose-gc', `--heapsnapshot-signal=SIGUSR2`, `--diagnostic-dir=${dir}`, '--import', PROBE]
  : [];
const record: SoakSamples = { command, startedAt: new Date().toISOString(), samples: [], pageStatus: null };
const startedMs = Date.now();

// The orchestrator runs with the bin's own Node flags, as `npx wsbench` runs it.
const wsbench = spawn(process.execPath, [...binNodeFlags(BIN), ...nodeArgs, BIN, ...command], {
  stdio: ['ignore', 'inherit', 'pipe'],
  env: { ...process.env, ...(values['heap-probe'] ? { WSBENCH_HEAP_PROBE: join(dir, 'heap.jsonl') } : {}) },
});
let stderr = '';
wsbench.stderr!.on('data', (chunk: Buffer) => {
  stderr += chunk.toString();
  process.stderr.write(chunk);
});
const ended = new Promise<number | null>((done) => wsbench.on('close', (code) => done(code)));

const browser = dashboard
  ? await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS })
  : null;
const page = browser ? await browser.newPage({ viewport: { width: 1400, height: 1000 } }) : null;
if (page) await page.goto(await waitFor(() => /dashboard: (http:\S+)/.exec(stderr)?.[1] ?? null, 120_000));
process.stderr.write(
  `soak: ${page ? 'the dashboard is open in Chromium' : 'no dashboard'}; samples every ${SAMPLE_MS / 1000} s in ${dir}\n`,
);

const timer = setInterval(sample, SAMPLE_MS);
sample();
const code = await ended;
clearInterval(timer);
record.pageStatus =
  (await page
    ?.locator('#run-status')
    .textContent({ timeout: 5000 })
    .catch(() => null)) ?? null;
await browser?.close();
writeFileSync(join(dir, 'soak-samples.json'), `${JSON.stringify(record, null, 1)}\n`);
process.stderr.write(
  `soak: wsbench exited with ${code}; page said "${record.pageStatus}"; ${record.samples.length} samples in ${join(dir, 'soak-samples.json')}\n`,
);

function sample(): void {
  const pid = wsbench.pid!;
  const rssBytes: Record<string, number> = {};
  const own = rssOf(pid);
  if (own === null) return;
  rssBytes.wsbench = own;
  for (const child of childrenOf(pid)) {
    const role = roleOf(child);
    const rss = role ? rssOf(child) : null;
    if (role && rss !== null) rssBytes[role] = (rssBytes[role] ?? 0) + rss;
  }
  record.samples.push({ tS: Math.round((Date.now() - startedMs) / 1000), rssBytes, load1: loadavg()[0]! });
  writeFileSync(join(dir, 'soak-samples.json'), `${JSON.stringify(record, null, 1)}\n`);
}

function rssOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[21]) * PAGE_BYTES;
  } catch {
    return null;
  }
}

function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((child) => {
      try {
        const stat = readFileSync(`/proc/${child}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    });
}

/** `server` or `client` for wsbench's Node children (the watchdog shells beside them are not measured). */
function roleOf(pid: number): string | null {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('server-process.js') ? 'server' : cmdline.includes('client-process.js') ? 'client' : null;
  } catch {
    return null;
  }
}

async function waitFor<T>(probe: () => T | null, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== null) return value;
    if (Date.now() > deadline || wsbench.exitCode !== null)
      throw new Error(`soak: no dashboard URL from wsbench:\n${stderr}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

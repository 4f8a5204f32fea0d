/**
 * Where a process's CPU time went, from a V8 .cpuprofile (node --cpu-prof):
 * self time grouped by what wsbench's cost is made of (histogram records,
 * timers, the WebSocket library, wsbench's own code, the scenario, GC), then
 * the heaviest functions. Picks, among several profiles, the one whose process
 * ran a given module (e.g. client-process.js).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Buckets, first match wins; the order matters (hdr inside node_modules before the rest). */
const CATEGORIES: Array<[string, (frame: ProfileNode['callFrame']) => boolean]> = [
  ['(idle: waiting for I/O)', (f) => f.functionName === '(idle)'],
  ['(garbage collector)', (f) => f.functionName === '(garbage collector)'],
  ['(program: V8 and native code outside JS)', (f) => f.functionName === '(program)'],
  ['histograms (hdr-histogram-js, the bucket tally and its encoding)', (f) => f.url.includes('hdr-histogram-js') || /\/src\/core\/(bucket-tally|histogram-codec)\.js/.test(f.url)],
  ['ws library (frames, masking, events)', (f) => f.url.includes('/node_modules/ws/')],
  ['wsbench metrics (src/measure/metrics.js)', (f) => f.url.includes('/src/measure/metrics.js')],
  ['wsbench client process, IPC, progress ticks', (f) => /\/src\/core\/(client-process|ipc|time-series|resources|clock)\.js/.test(f.url)],
  ['wsbench ws adapter (src/clients/ws.js)', (f) => f.url.includes('/src/clients/')],
  ['scenario code (echo.js closures)', (f) => f.url.includes('/scenarios/')],
  ['timers (node:internal/timers)', (f) => f.url.includes('internal/timers') || /^(processTimers|listOnTimeout)$/.test(f.functionName)],
  ['node net, streams, sockets', (f) => /node:(net|internal\/stream|internal\/streams|stream|internal\/net|internal\/stream_base_commons)/.test(f.url)],
  ['node events, buffers, other internals', (f) => f.url.startsWith('node:')],
  ['native (no script)', (f) => f.url === ''],
];

/**
 * A readable summary of the profile among `paths` whose process ran `marker`: a module
 * (its URL ends so) or a function (its name); says so when none did.
 */
export function summarizeProfile(paths: string[], marker: string, label = 'client'): string {
  const profiles = paths.map((path) => ({ path, profile: JSON.parse(readFileSync(path, 'utf8')) as CpuProfile }));
  const ran = (n: ProfileNode): boolean => n.callFrame.url.endsWith(marker) || n.callFrame.functionName === marker;
  const chosen = profiles.find(({ profile }) => profile.nodes.some(ran));
  if (!chosen) return `no profile among ${paths.length} ran ${marker}`;
  const self = selfTimesUs(chosen.profile);
  const byNode = new Map(chosen.profile.nodes.map((n) => [n.id, n]));
  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  for (const [id, us] of self) {
    const frame = byNode.get(id)!.callFrame;
    const category = CATEGORIES.find(([, match]) => match(frame))?.[0] ?? 'other JavaScript';
    categories.set(category, (categories.get(category) ?? 0) + us);
    totalUs += us;
    if (frame.functionName === '(idle)') idleUs += us;
    const where = frame.url ? `${frame.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${frame.lineNumber + 1}` : '';
    const name = `${frame.functionName || '(anonymous)'} ${where}`.trim();
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const busyUs = totalUs - idleUs;
  const share = (us: number): string => `${((us / busyUs) * 100).toFixed(1).padStart(5)} %`;
  const lines = [
    `${label} profile ${chosen.path}: ${(totalUs / 1e6).toFixed(1)} s sampled, ${(busyUs / 1e6).toFixed(1)} s busy; shares of the busy time:`,
    ...[...categories].filter(([name]) => !name.startsWith('(idle')).sort((a, b) => b[1] - a[1]).map(([name, us]) => `  ${share(us)}  ${name}`),
    'heaviest functions (self time):',
    ...[...functions].filter(([name]) => !name.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, 20).map(([name, us]) => `  ${share(us)}  ${name}`),
  ];
  return lines.join('\n');
}

/** Self time per node id: each sample charges the time delta that follows it. */
function selfTimesUs(profile: CpuProfile): Map<number, number> {
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    self.set(id, (self.get(id) ?? 0) + Math.max(0, delta));
  }
  return self;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [module, ...paths] = process.argv.slice(2);
  if (!module || paths.length === 0) {
    process.stderr.write('usage: node dist/bench/profile-summary.js <module, e.g. client-process.js> <file.cpuprofile>...\n');
    process.exit(2);
  }
  process.stdout.write(`${summarizeProfile(paths, module)}\n`);
}

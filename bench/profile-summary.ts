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
  [
    'histograms (hdr-histogram-js, the bucket tally and its encoding)',
    (f) =>
      f.url.includes('hdr-histogram-js') || /\/src\/shared\/measure\/(bucket-tally|histogram-codec)\.js/.test(f.url),
  ],
  ['ws library (frames, masking, events)', (f) => f.url.includes('/node_modules/ws/')],
  ['wsbench metrics (src/shared/measure/metrics.js)', (f) => f.url.includes('/src/shared/measure/metrics.js')],
  [
    'wsbench client process, IPC, progress ticks',
    (f) => /\/src\/child\/(?!clients\/)|\/src\/shared\/measure\/(time-series|clock)\.js/.test(f.url),
  ],
  ['wsbench ws adapter (src/child/clients/ws.js)', (f) => f.url.includes('/src/child/clients/')],
  ['the scenario kit (src/shared/scenario-kit/)', (f) => f.url.includes('/src/shared/scenario-kit/')],
  ['scenario code (scenarios/)', (f) => f.url.includes('/scenarios/')],
  [
    'timers (node:internal/timers)',
    (f) => f.url.includes('internal/timers') || /^(processTimers|listOnTimeout)$/.test(f.functionName),
  ],
  [
    'node net, streams, sockets',
    (f) =>
      /node:(net|internal\/stream|internal\/streams|stream|internal\/net|internal\/stream_base_commons)/.test(f.url),
  ],
  ['node events, buffers, other internals', (f) => f.url.startsWith('node:')],
  ['native (no script)', (f) => f.url === ''],
];

/**
 * A readable summary of the profile among `paths` whose process ran `marker`: a module
 * (its URL ends so) or a function (its name); says so when none did. With `window` (a
 * function's name, e.g. ws's `receiverOnMessage`), only the samples from the first to
 * the last that ran it count: the streaming, without the process's start and connects.
 */
export function summarizeProfile(paths: string[], marker: string, label = 'client', window?: string): string {
  const profiles = paths.map((path) => ({ path, profile: JSON.parse(readFileSync(path, 'utf8')) as CpuProfile }));
  const ran = (n: ProfileNode): boolean => n.callFrame.url.endsWith(marker) || n.callFrame.functionName === marker;
  const chosen = profiles.find(({ profile }) => profile.nodes.some(ran));
  if (!chosen) return `no profile among ${paths.length} ran ${marker}`;
  const span = window === undefined ? null : samplesRunning(chosen.profile, window);
  if (window !== undefined && span === null) return `${label} profile ${chosen.path}: no sample ran ${window}`;
  const self = selfTimesUs(chosen.profile, span ?? undefined);
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
    `${label} profile ${chosen.path}${window === undefined ? '' : ` (from the first to the last sample in ${window})`}: ${(totalUs / 1e6).toFixed(1)} s sampled, ${(busyUs / 1e6).toFixed(1)} s busy; shares of the busy time:`,
    ...[...categories]
      .filter(([name]) => !name.startsWith('(idle'))
      .sort((a, b) => b[1] - a[1])
      .map(([name, us]) => `  ${share(us)}  ${name}`),
    'heaviest functions (self time):',
    ...[...functions]
      .filter(([name]) => !name.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([name, us]) => `  ${share(us)}  ${name}`),
  ];
  return lines.join('\n');
}

/** The first and last sample whose stack holds the function `name`; null when none does. */
function samplesRunning(profile: CpuProfile, name: string): { first: number; last: number } | null {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inside = new Map<number, boolean>();
  const runs = (id: number): boolean => {
    let known = inside.get(id);
    if (known === undefined) {
      const up = parent.get(id);
      known = byId.get(id)!.callFrame.functionName === name || (up !== undefined && runs(up));
      inside.set(id, known);
    }
    return known;
  };
  let first = -1;
  let last = -1;
  profile.samples.forEach((id, i) => {
    if (!runs(id)) return;
    if (first < 0) first = i;
    last = i;
  });
  return first < 0 ? null : { first, last };
}

/** Self time per node id: each sample charges the time delta that follows it (only samples first..last, when given). */
function selfTimesUs(
  profile: CpuProfile,
  span: { first: number; last: number } = { first: 0, last: profile.samples.length - 1 },
): Map<number, number> {
  const self = new Map<number, number>();
  for (let i = span.first; i <= span.last; i++) {
    const id = profile.samples[i]!;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    self.set(id, (self.get(id) ?? 0) + Math.max(0, delta));
  }
  return self;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [module, ...paths] = process.argv.slice(2);
  if (!module || paths.length === 0) {
    process.stderr.write(
      'usage: node dist/bench/profile-summary.js <module, e.g. client-process.js> <file.cpuprofile>...\n',
    );
    process.exit(2);
  }
  process.stdout.write(`${summarizeProfile(paths, module)}\n`);
}

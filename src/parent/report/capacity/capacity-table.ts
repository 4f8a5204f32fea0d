/**
 * A capacity result as tables: one row per server stack (the summary), each
 * server's steps in the order run, and the notes on how saturation was decided.
 * The terminal prints them (renderCapacityTable); report.html shows the same
 * rows. Pure functions of the result JSON.
 */
import type {
  CapacitySection,
  CapacityStep,
  CountTries,
  ServerCapacity,
} from '../../../shared/types/capacity-types.js';
import type { CapacityResult } from '../../../shared/types/result-types.js';
import { formatNumber } from '../run/table.js';
import { clientSaturationEvidence, saturationEvidence } from '../../capacity/judge.js';

/** An interrupted step's outcome, in the table and the progress lines alike. */
export const INTERRUPTED_STEP = 'interrupted: the search stopped during this step; it neither held nor broke the SLO';

/** Header and rows of a table; the columns listed in `text` are text (left-aligned), the others numbers; the last runs free. */
interface TextTable {
  header: string[];
  rows: string[][];
  text: number[];
}

/** One line saying what the search looked for and how. */
export function capacityTitle(result: CapacityResult): string {
  const s = result.capacity.settings;
  return (
    `${result.scenarios[0]?.name ?? 'capacity'} capacity within ${result.capacity.slo.text}: the most ${s.vary} each server holds ` +
    `(ramp x2 from ${s.start} up to ${s.max}, then bisect to ${Math.round(s.resolution * 100)} %)`
  );
}

/** One row per server: its capacity, where and what broke. */
export function capacitySummary(section: CapacitySection): TextTable {
  return {
    header: ['server', 'client', 'capacity', 'broke at', 'steps', 'cli procs', 'server per step', 'what broke'],
    rows: section.servers.map(summaryRow),
    text: [0, 1, 6, 7],
  };
}

/** One server's steps in the order run. */
export function capacitySteps(result: CapacityResult, server: ServerCapacity): TextTable {
  const key = result.capacity.latencyMetric;
  const latency = key === null ? undefined : result.scenarios[0]?.metrics[key];
  return {
    header: [
      result.capacity.settings.vary,
      'phase',
      'procs',
      latency?.header ?? 'latency',
      'errors',
      'srv CPU%',
      'srv demand%',
      'srv loop%',
      'srv RSS MB',
      'cli CPU%',
      'outcome',
    ],
    rows: server.steps.map(stepRow),
    text: [1, 10],
  };
}

/** How saturation, starvation and invalid steps were decided, and what a kept server means. */
export function capacityNotes(result: CapacityResult): string[] {
  const { settings: s } = result.capacity;
  const t = s.thresholds;
  const kept = result.capacity.servers
    .filter((server) => server.serverPerStep === 'kept')
    .map((server) => server.server);
  return [
    `server CPU saturated: its CPU demand mean (srv demand%: on a CPU plus waiting for one, where /proc gives it; its CPU otherwise) reached ${t.serverCpuPercent} % of one core` +
      ' (a single-threaded server can use no more); on a crowded machine the demand is above the CPU it got (srv CPU%).',
    `starved: the event loop was busy >= ${Math.round(t.starvedEventLoop * 100)} % of the window but the process was on CPU much less:` +
      ' it waited for a core other processes held, so the machine, not the server, was full at that step.',
    `invalid: a client process used more than ${t.clientCpuPercent} % of a core, so the load generator, not the server, may have set the numbers;` +
      ` the step is measured again with one more client process (up to ${s.maxClientProcesses}) and does not count.`,
    ...(kept.length > 0
      ? [
          `server per step "kept" (${kept.join(', ')}): one server served every step, so what a step left in it (memory, caches, connections still closing) carried into the next.`,
        ]
      : []),
    ...(result.interrupted ? ['interrupted: the search stopped early; capacities are what was shown so far.'] : []),
    ...bracketNotes(result.capacity),
  ];
}

/** The terminal's view: title, summary, each server's steps, notes. */
export function renderCapacityTable(result: CapacityResult): string {
  const curves = result.capacity.servers
    .filter((server) => server.steps.length > 0)
    .map(
      (server) =>
        `${server.server} x ${server.client}, steps in the order run:\n${align(capacitySteps(result, server), '  ')}`,
    );
  return [
    capacityTitle(result),
    '',
    align(capacitySummary(result.capacity)),
    ...curves.flatMap((c) => ['', c]),
    '',
    'notes:',
    ...capacityNotes(result).map((n) => `  ${n}`),
  ].join('\n');
}

function summaryRow(server: ServerCapacity): string[] {
  const front = [server.server, server.client];
  if (server.status !== 'measured')
    return [
      ...front,
      '-',
      '-',
      '0',
      '-',
      server.serverPerStep,
      `${searchStatusWords(server.status)}: ${server.reason}`,
    ];
  const capacity =
    (server.end === 'max' ? `>= ${server.capacity}` : String(server.capacity)) + triesText(server.bracket?.held);
  const what =
    server.cannotTell ??
    server.broke ??
    (server.end === 'max' ? 'nothing up to the maximum' : server.end === 'interrupted' ? 'interrupted' : '-');
  const prefix = server.cannotTell && server.broke === null ? 'cannot tell: ' : '';
  return [
    ...front,
    capacity,
    server.brokeAt === null ? '-' : `${server.brokeAt}${triesText(server.bracket?.broke)}`,
    String(server.steps.length),
    String(server.clientProcesses),
    server.serverPerStep,
    prefix + what,
  ];
}

/** " (held 2 of 3)": how often an end of the bracket held, once it was tried more than once. */
function triesText(tries: CountTries | null | undefined): string {
  return tries && tries.tries > 1 ? ` (held ${tries.held} of ${tries.tries})` : '';
}

/** What the bracket and its tries mean, and where the curve was not monotonic, one line per server that needs one. */
function bracketNotes(section: CapacitySection): string[] {
  const confirm = section.settings.confirm ?? 0;
  const lines = section.servers.flatMap((server) =>
    (server.nonMonotonic ?? []).length > 0
      ? [
          `${server.server}: not monotonic: it held more often at ${server.nonMonotonic!.map((n) => `${n.held} than at ${n.brokeBelow}`).join(', ')}; near its limit one try decides nothing, and the bracket is only as firm as its tries say`,
        ]
      : [],
  );
  return [
    ...(confirm > 0
      ? [
          `bracket: the highest count that held and the lowest that broke, each tried ${confirm} more time${confirm === 1 ? '' : 's'} once found; "held 2 of 3" means the limit lies about there, not at one number.`,
        ]
      : []),
    ...lines,
  ];
}

/** A search's status as the tables print it: `not-reached` reads "not reached". */
function searchStatusWords(status: ServerCapacity['status']): string {
  return status.replace('-', ' ');
}

function stepRow(step: CapacityStep): string[] {
  const pct = (v: number | null): string => (v === null ? '-' : v.toFixed(0));
  const outcome =
    step.outcome === 'within'
      ? 'within'
      : step.outcome === 'invalid'
        ? `invalid: load generator saturated (${clientSaturationEvidence(step)})`
        : step.outcome === 'interrupted'
          ? INTERRUPTED_STEP
          : `${step.outcome}: ${step.breaches.join('; ')}${step.serverSaturated ? `; server CPU saturated (${saturationEvidence(step)})` : ''}${step.serverStarved ? `; server starved (${saturationEvidence(step)})` : ''}`;
  return [
    String(step.count),
    step.phase,
    String(step.clientProcesses),
    formatNumber(step.latencyMs),
    step.errors === null ? '-' : String(step.errors),
    pct(step.serverCpuPercent),
    pct(step.serverCpuDemandPercent ?? null),
    step.serverEventLoop === null ? '-' : (step.serverEventLoop * 100).toFixed(0),
    step.serverRssBytes === null ? '-' : (step.serverRssBytes / 1e6).toFixed(0),
    step.clientCpuPercent.length === 0 ? '-' : step.clientCpuPercent.map((c) => c.toFixed(0)).join('+'),
    outcome,
  ];
}

/** Left-aligns the text columns, right-aligns the numbers; the last column runs free. */
function align(table: TextTable, indent = ''): string {
  const { header, rows, text } = table;
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (row: string[]): string =>
    indent +
    row
      .map((v, i) => (i === row.length - 1 ? v : text.includes(i) ? v.padEnd(widths[i]!) : v.padStart(widths[i]!)))
      .join('  ');
  return [header, ...rows].map(line).join('\n');
}

/**
 * The capacity result for the terminal: one line per server stack, then each
 * server's curve step by step, then how saturation was decided. A pure
 * function of the capacity JSON; the CLI prints it.
 */
import { formatNumber } from '../report/table.js';
import type { CapacityStep } from './judge.js';
import type { CapacityResult, ServerCapacity } from './types.js';

export function renderCapacityTable(result: CapacityResult): string {
  const { settings: s, scenario } = result;
  const title = `${scenario.name} capacity within ${result.slo.text}: the most ${s.vary} each server holds `
    + `(ramp x2 from ${s.start} up to ${s.max}, then bisect to ${Math.round(s.resolution * 100)} %)`;
  const summary = align(
    ['server', 'client', 'capacity', 'broke at', 'steps', 'cli procs', 'what broke'],
    result.servers.map(summaryRow),
    [0, 1],
  );
  const curves = result.servers.filter((server) => server.steps.length > 0).map((server) => curve(result, server));
  const t = s.thresholds;
  const notes = [
    'notes:',
    `  server CPU saturated: its CPU mean reached ${t.serverCpuPercent} % of one core (a single-threaded server can use no more).`,
    `  starved: the event loop was busy >= ${Math.round(t.starvedEventLoop * 100)} % of the window but the process was on CPU much less:`,
    '  it waited for a core other processes held, so the machine, not the server, was full at that step.',
    `  invalid: a client process used more than ${t.clientCpuPercent} % of a core, so the load generator, not the server, may have set the numbers;`,
    `  the step is measured again with one more client process (up to ${s.maxClientProcesses}) and does not count.`,
    ...(result.interrupted ? ['  interrupted: the search stopped early; capacities are what was shown so far.'] : []),
  ];
  return [title, '', summary, ...curves.flatMap((c) => ['', c]), '', ...notes].join('\n');
}

function summaryRow(server: ServerCapacity): string[] {
  if (server.status === 'skipped') return [server.server, server.client, '-', '-', '0', '-', `skipped: ${server.reason}`];
  const capacity = server.end === 'max' ? `>= ${server.capacity}` : String(server.capacity);
  const what = server.cannotTell ?? server.broke ?? (server.end === 'max' ? 'nothing up to the maximum' : server.end === 'interrupted' ? 'interrupted' : '-');
  const prefix = server.cannotTell && server.broke === null ? 'cannot tell: ' : '';
  return [server.server, server.client, capacity, server.brokeAt === null ? '-' : String(server.brokeAt), String(server.steps.length), String(server.clientProcesses), prefix + what];
}

function curve(result: CapacityResult, server: ServerCapacity): string {
  const latency = result.latencyMetric === null ? null : result.scenario.metrics[result.latencyMetric];
  const latencyHeader = latency ? `${latency.header}` : 'latency';
  const rows = server.steps.map((step) => stepRow(step));
  return `${server.server} x ${server.client}, steps in the order run:\n` + align(
    [result.settings.vary, 'phase', 'procs', latencyHeader, 'errors', 'srv CPU%', 'srv loop%', 'srv RSS MB', 'cli CPU%', 'outcome'],
    rows,
    [1],
    '  ',
  );
}

function stepRow(step: CapacityStep): string[] {
  const pct = (v: number | null): string => (v === null ? '-' : v.toFixed(0));
  const outcome = step.outcome === 'within' ? 'within'
    : step.outcome === 'invalid' ? 'invalid: load generator saturated'
      : `${step.outcome}: ${step.breaches.join('; ')}${step.serverSaturated ? '; server CPU saturated' : ''}${step.serverStarved ? '; server starved' : ''}`;
  return [
    String(step.count),
    step.phase,
    String(step.clientProcesses),
    formatNumber(step.latencyMs),
    step.errors === null ? '-' : String(step.errors),
    pct(step.serverCpuPercent),
    step.serverEventLoop === null ? '-' : (step.serverEventLoop * 100).toFixed(0),
    step.serverRssBytes === null ? '-' : (step.serverRssBytes / 1e6).toFixed(0),
    step.clientCpuPercent.length === 0 ? '-' : step.clientCpuPercent.map((c) => c.toFixed(0)).join('+'),
    outcome,
  ];
}

/** Left-aligns the `text` columns, right-aligns the numbers; the last column runs free. */
function align(header: string[], rows: string[][], text: number[], indent = ''): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (row: string[]): string =>
    indent + row.map((v, i) => (i === row.length - 1 ? v : text.includes(i) ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [header, ...rows].map(line).join('\n');
}

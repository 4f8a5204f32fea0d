/**
 * The terminal view: one row per measured cell with the scenario's chosen
 * metrics and the server's cost; skipped pairs folded into a footer, one line
 * per reason. A pure function of the result JSON; the CLI prints it.
 */
import type { BenchResult, CellResult } from '../result-types.js';
import type { ColumnSpec } from '../types.js';

export function renderTable(result: BenchResult): string {
  const repeated = (result.repeat ?? 1) > 1 ? `\n\neach row: medians of ${result.repeat} interleaved rounds per cell (every round is in the JSON)` : '';
  return (
    result.scenarios
      .map((scenario) => {
        const cells = result.cells.filter((c) => c.scenario === scenario.name);
        return `${scenario.name}: ${scenario.description}\n${renderCells(cells, scenario.columns)}`;
      })
      .join('\n\n') + repeated
  );
}

function renderCells(cells: CellResult[], columns: ColumnSpec[]): string {
  const shown = cells.filter((c) => c.status !== 'skipped');
  const swept = sweptParams(cells);
  const header = [...swept, 'server', 'client', 'status', ...columns.map((c) => c.header), 'srv CPU%', 'srv RSS MB'];
  const rows = shown.map((cell) => {
    const front = [...swept.map((p) => String(cell.params[p])), cell.server, cell.client, cell.status];
    if (!cell.metrics) return [...front, cell.reason ?? ''];
    const server = cell.resources?.server;
    return [
      ...front,
      ...columns.map((c) => formatNumber(cell.metrics![c.key])),
      server ? server.cpuPercent.mean.toFixed(0) : '-',
      server ? (server.rssBytes.max / 1024 / 1024).toFixed(0) : '-',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r.length === header.length ? (r[i] ?? '').length : 0))));
  const line = (row: string[]): string =>
    row.length < header.length
      ? [...row.slice(0, -1).map((v, i) => v.padEnd(widths[i]!)), row.at(-1)].join('  ')
      : row.map((v, i) => (i < swept.length + 3 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  const failed = shown.filter((c) => c.metrics && c.status !== 'ok').map((c) => `  ${c.server} x ${c.client}: ${c.reason}`);
  return [
    ...(rows.length ? [line(header), ...rows.map(line)] : []),
    ...(failed.length ? ['', 'failed cells (their numbers cover what was measured):', ...failed] : []),
    ...skippedFooter(cells),
  ].join('\n').trimEnd();
}

/** n/a pairs, one line per reason: `skipped: ws x socketio, uws x socketio: <reason>`. */
function skippedFooter(cells: CellResult[]): string[] {
  const pairsByReason = new Map<string, Set<string>>();
  for (const cell of cells.filter((c) => c.status === 'skipped')) {
    const reason = cell.reason ?? 'skipped';
    pairsByReason.set(reason, (pairsByReason.get(reason) ?? new Set()).add(`${cell.server} x ${cell.client}`));
  }
  if (pairsByReason.size === 0) return [];
  return ['', ...[...pairsByReason].map(([reason, pairs]) => `n/a  ${[...pairs].join(', ')}: ${reason}`)];
}

/** Parameters that differ between cells deserve a column; the rest is noise. */
function sweptParams(cells: CellResult[]): string[] {
  const first = cells[0]?.params ?? {};
  return Object.keys(first).filter((key) => cells.some((c) => c.params[key] !== first[key]));
}

export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'n/a';
  if (Number.isInteger(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

/**
 * The terminal view: one row per cell with the metrics its scenario put in
 * `table` (headers and units from the declarations) and the server's cost;
 * failed cells, missing values and skipped pairs folded into a footer.
 * `cellTable` builds the rows once, so the HTML shows exactly these strings.
 * A pure function of the result JSON; the CLI prints it.
 */
import type { MetricUnit, ParameterInfo } from '../declaration-types.js';
import { isMeasured, type BenchResult, type CellResult, type ScenarioInfo } from '../result-types.js';
import { NO_SAMPLES } from '../core/metric-values.js';
import { formatValue } from '../parsing/parameter-values.js';

/** The table of one scenario's cells, as text cells: what the terminal and the HTML both show. */
export interface CellTable {
  /** Swept parameters, server, client, status, the declared metrics' headers, srv CPU%, srv RSS MB. */
  header: string[];
  /** The leading columns that hold text (left-aligned); the rest hold numbers. */
  textColumns: number;
  rows: CellTableRow[];
  /** Lines under the table: failed cells, values that are n/a and why, skipped pairs. */
  footer: string[];
}

export interface CellTableRow {
  cell: CellResult;
  /** One string per header column; a cell that measured nothing has its reason after the status instead. */
  values: string[];
}

/** Shown in place of a number whose histogram held no sample in the window. */
export const NO_SAMPLES_TEXT = 'no samples';

export function renderTable(result: BenchResult): string {
  const repeat = result.repeat ?? 1;
  const pooled =
    repeat > 1
      ? `\n\nevery number pools all ${repeat} interleaved rounds of its cell` +
        ' (histograms merged, counters and windows added; each round is in the JSON)'
      : '';
  const sections = result.scenarios.map((scenario) => {
    const table = cellTable(scenario, result.cells.filter((c) => c.scenario === scenario.name));
    return `${scenario.name}: ${scenario.description}\n${renderCellTable(table)}`;
  });
  return sections.join('\n\n') + pooled;
}

export function cellTable(scenario: ScenarioInfo, cells: CellResult[]): CellTable {
  const shown = cells.filter((c) => c.status !== 'skipped');
  const swept = sweptParams(cells);
  const metrics = scenario.table.map((key) => ({ key, info: scenario.metrics[key] }));
  const header = [...swept, 'server', 'client', 'status', ...metrics.map((m) => m.info?.header ?? m.key), 'srv CPU%', 'srv RSS MB'];
  const rows = shown.map((cell): CellTableRow => {
    // A saturated server is a finding about the server: the row says so, the footer gives the evidence.
    const status = isMeasured(cell) && cell.saturation ? `${cell.status}, saturated` : cell.status;
    const front = [...swept.map((p) => formatParam(scenario.parameters[p], cell.params[p])), cell.server, cell.client, status];
    if (!isMeasured(cell)) return { cell, values: [...front, cell.reason] };
    const server = cell.resources.server;
    const numbers = metrics.map(({ key, info }) => {
      const value = cell.metrics[key];
      if (typeof value === 'number') return formatMetric(value, info?.unit ?? 'count');
      return cell.missing[key] === NO_SAMPLES ? NO_SAMPLES_TEXT : 'n/a';
    });
    const cost = server ? [server.cpuPercent.mean.toFixed(0), (server.rssBytes.max / 1024 / 1024).toFixed(0)] : ['-', '-'];
    return { cell, values: [...front, ...numbers, ...cost] };
  });
  const pair = (cell: CellResult): string =>
    [...swept.map((p) => formatParam(scenario.parameters[p], cell.params[p])), `${cell.server} x ${cell.client}`].join(' ');
  const failed = shown.filter((c) => isMeasured(c) && c.status === 'failed').map((c) => `  ${pair(c)}: ${c.status === 'failed' ? c.reason : ''}`);
  const saturated = shown.flatMap((c) => (isMeasured(c) && c.saturation ? [`  ${pair(c)}: ${c.saturation}`] : []));
  return {
    header,
    textColumns: swept.length + 3,
    rows,
    footer: [
      ...(failed.length ? ['', 'failed cells (their numbers cover what was measured):', ...failed] : []),
      ...(saturated.length ? ['', 'saturated servers:', ...saturated] : []),
      ...missingFooter(scenario, shown, pair),
      ...skippedFooter(cells),
    ],
  };
}

function renderCellTable(table: CellTable): string {
  const { header, rows } = table;
  const full = (values: string[]): boolean => values.length === header.length;
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (full(r.values) ? (r.values[i] ?? '').length : 0))));
  const line = (row: string[]): string =>
    full(row)
      ? row.map((v, i) => (i < table.textColumns ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ')
      : [...row.slice(0, -1).map((v, i) => v.padEnd(widths[i]!)), row.at(-1)].join('  ');
  return [...(rows.length ? [line(header), ...rows.map((r) => line(r.values))] : []), ...table.footer].join('\n').trimEnd();
}

/**
 * Table values that are n/a, one line per reason and set of columns:
 * `n/a  srv p50 ms of ws x ws, uws x ws: the server did not report it`.
 * "no samples" is said in the cell itself and needs no line.
 */
function missingFooter(scenario: ScenarioInfo, cells: CellResult[], pair: (cell: CellResult) => string): string[] {
  const pairsByGroup = new Map<string, { headers: string; reason: string; pairs: string[] }>();
  for (const cell of cells) {
    if (!isMeasured(cell)) continue;
    const headersByReason = new Map<string, string[]>();
    for (const key of scenario.table) {
      if (typeof cell.metrics[key] === 'number') continue;
      const reason = cell.missing[key];
      if (reason === undefined || reason === NO_SAMPLES) continue;
      headersByReason.set(reason, [...(headersByReason.get(reason) ?? []), scenario.metrics[key]?.header ?? key]);
    }
    for (const [reason, headers] of headersByReason) {
      const group = `${headers.join(', ')}\n${reason}`;
      const entry = pairsByGroup.get(group) ?? { headers: headers.join(', '), reason, pairs: [] };
      entry.pairs.push(pair(cell));
      pairsByGroup.set(group, entry);
    }
  }
  if (pairsByGroup.size === 0) return [];
  return ['', ...[...pairsByGroup.values()].map((g) => `n/a  ${g.headers} of ${g.pairs.join(', ')}: ${g.reason}`)];
}

/** Skipped pairs, one line per reason: `n/a  ws x socketio, uws x socketio: <reason>`. */
function skippedFooter(cells: CellResult[]): string[] {
  const pairsByReason = new Map<string, Set<string>>();
  for (const cell of cells) {
    if (cell.status !== 'skipped') continue;
    pairsByReason.set(cell.reason, (pairsByReason.get(cell.reason) ?? new Set()).add(`${cell.server} x ${cell.client}`));
  }
  if (pairsByReason.size === 0) return [];
  return ['', ...[...pairsByReason].map(([reason, pairs]) => `n/a  ${[...pairs].join(', ')}: ${reason}`)];
}

/** Parameters that differ between cells deserve a column; the rest is noise. */
export function sweptParams(cells: CellResult[]): string[] {
  const first = cells[0]?.params ?? {};
  return Object.keys(first).filter((key) => cells.some((c) => c.params[key] !== first[key]));
}

/** A parameter value with its unit when the declaration gives one: 10ms, 32B, 5s. */
export function formatParam(info: ParameterInfo | undefined, value: number | boolean | string | undefined): string {
  if (value === undefined) return '';
  return info ? formatValue(info.kind, value) : String(value);
}

/**
 * A metric's value for the table; the header carries the unit. Counts and
 * bytes (possibly averages, like bytes per message) print whole from 10 up;
 * every other unit keeps three decimals below 1, two below 100 and none above.
 */
export function formatMetric(value: number | null | undefined, unit: MetricUnit): string {
  if (value === null || value === undefined) return 'n/a';
  if ((unit === 'count' || unit === 'bytes') && Math.abs(value) >= 10) return value.toFixed(0);
  return formatNumber(value);
}

export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'n/a';
  if (Number.isInteger(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (Math.abs(value) >= 1) return value.toFixed(2);
  return value.toFixed(3);
}

/**
 * The terminal view: one row per cell with the metrics its scenario put in
 * `table` (headers and units from the declarations) and the server's cost,
 * under a line naming the parameters every cell shares; failed cells,
 * missing values, skipped pairs and what each status means folded into a
 * footer. `cellTable` builds the rows once, so the HTML shows exactly these
 * strings. A pure function of the result JSON; the CLI prints it.
 */
import type { MetricUnit } from '../../../shared/types/declaration-types.js';
import {
  isMeasured,
  type BenchResult,
  type CellResult,
  type ScenarioInfo,
} from '../../../shared/types/result-types.js';
import { NO_SAMPLES, NOT_RECORDED } from '../../measure/metric-values.js';
import { cellLabel, formatParameterValue, sharedByEveryCell, variedParameters } from '../../parameter-labels.js';
import { tableFootnotes, SERVER_COST_HEADERS } from './table-notes.js';
import { terminalText } from '../../escape/terminal.js';
import { statisticsFootnotes } from './table-stats-notes.js';
import { withInterval } from '../interval-text.js';
import { pickFootnotes } from './pick-text.js';
import { controlLines } from './control-text.js';
import { summaryFirstLines } from './noise-first.js';
import { loadModelNotes } from './load-notes.js';
import { stageTables } from './stage-table.js';
import { belowOffered, deliveredMetric } from '../../measure/offered-load.js';

/** The table of one scenario's cells, as text cells: what the terminal and the HTML both show. */
export interface CellTable {
  /** `every cell: payload=32B duration=5s ...`: the parameters no column shows; '' when every one varies. */
  fixed: string;
  /** Swept parameters, server, client, status, the declared metrics' headers, srv CPU%, srv RSS MB. */
  header: string[];
  /** The leading columns that hold text (left-aligned); the rest hold numbers. */
  textColumns: number;
  rows: CellTableRow[];
  /** Lines under the table: failed cells, values that are n/a or `-` and why, skipped pairs, what each status means. */
  footer: string[];
}

interface CellTableRow {
  cell: CellResult;
  /** One string per header column; a cell that measured nothing has its reason after the status instead. */
  values: string[];
}

/** Shown in place of a number whose histogram held no sample in the window. */
const NO_SAMPLES_TEXT = 'no samples';
const NOT_RECORDED_TEXT = 'not recorded';
/** Shown for the server's CPU and RSS when the result holds no sample of the server process; a footnote says why. */
const NOT_SAMPLED_TEXT = '-';

/** A result as the terminal's table (what `wsbench run` prints), as text. */
export function renderTable(result: BenchResult): string {
  const repeat = result.repeat ?? 1;
  const pooled =
    repeat > 1
      ? `\n\nevery number pools all ${repeat} interleaved rounds of its cell` +
        ' (histograms merged, counters and windows added; each round is in the JSON)'
      : '';
  const sections = result.scenarios.map((scenario) => {
    const cells = result.cells.filter((c) => c.scenario === scenario.name);
    const table = cellTable(scenario, cells);
    const swept = variedParameters(cells);
    return [
      terminalText(`${scenario.name}: ${scenario.description}`),
      ...(table.fixed ? [terminalText(table.fixed)] : []),
      renderCellTable(table),
      ...stageTables(scenario, cells, (cell) => cellLabel(cell, swept, scenario.parameters), formatMetric).map(
        terminalText,
      ),
      ...pickFootnotes(scenario, cells).map(terminalText),
    ].join('\n');
  });
  const warnings = (result.warnings ?? []).map((w) => `warning: ${terminalText(w)}`);
  const control = controlLines(result).map(terminalText);
  const first = summaryFirstLines(result).map(terminalText);
  return (
    (first.length ? `${first.join('\n')}\n\n` : '') +
    sections.join('\n\n') +
    (control.length ? `\n${control.join('\n')}` : '') +
    pooled +
    (warnings.length ? `\n\n${warnings.join('\n')}` : '')
  );
}

export function cellTable(scenario: ScenarioInfo, cells: CellResult[]): CellTable {
  const shown = cells.filter((c) => c.status !== 'skipped');
  const swept = variedParameters(cells);
  const metrics = scenario.table.map((key) => ({ key, info: scenario.metrics[key] }));
  // An SLO column when the run was judged against one (`run --slo`).
  const judged = cells.some((c) => isMeasured(c) && c.slo);
  const delivered = deliveredMetric(scenario.metrics);
  // How each cell offered its load, in a column where the cells differ (else on the `every cell` line).
  const loads = new Set(shown.map((c) => c.load?.text ?? ''));
  const loadColumn = loads.size > 1;
  const header = [
    ...swept,
    'server',
    'client',
    'status',
    ...(loadColumn ? ['load'] : []),
    ...(judged ? ['slo'] : []),
    ...metrics.map((m) => m.info?.header ?? m.key),
    ...SERVER_COST_HEADERS,
  ];
  const rows = shown.map((cell): CellTableRow => {
    const status = statusText(cell, delivered);
    const front = [
      ...swept.map((p) => formatParameterValue(scenario.parameters[p], cell.params[p])),
      cell.server,
      cell.client,
      status,
    ];
    if (!isMeasured(cell)) return { cell, values: [...front, cell.reason] };
    if (loadColumn) front.push(cell.load?.text ?? '-');
    if (judged) front.push(cell.slo?.verdict ?? 'n/a');
    const server = cell.resources.server;
    const numbers = metrics.map(({ key, info }) => {
      const value = cell.metrics[key];
      if (typeof value === 'number')
        return withInterval(formatMetric(value, info?.unit ?? 'count'), value, cell.intervals?.[key]);
      // Below its resolution: the most it can be, never the estimate (which may be below 0).
      const measured = cell.resolution?.[key];
      if (measured && !measured.resolved) return `< ${formatMetric(measured.atMost, info?.unit ?? 'count')}`;
      return cell.missing[key] === NO_SAMPLES
        ? NO_SAMPLES_TEXT
        : cell.missing[key] === NOT_RECORDED
          ? NOT_RECORDED_TEXT
          : 'n/a';
    });
    const cost = server
      ? [server.cpuPercent.mean.toFixed(0), (server.rssBytes.max / 1024 / 1024).toFixed(0)]
      : [NOT_SAMPLED_TEXT, NOT_SAMPLED_TEXT];
    return { cell, values: [...front, ...numbers, ...cost] };
  });
  const fixed = sharedByEveryCell(cells, scenario.parameters);
  return {
    fixed: fixed ? `every cell: ${fixed}` : '',
    header,
    textColumns: swept.length + 3 + (loadColumn ? 1 : 0) + (judged ? 1 : 0),
    rows,
    footer: [
      ...tableFootnotes(
        scenario,
        cells,
        rows.map((r) => r.values[swept.length + 2]!),
        (cell) => cellLabel(cell, swept, scenario.parameters),
      ),
      ...statisticsFootnotes(scenario, cells, (cell) => cellLabel(cell, swept, scenario.parameters)),
      ...loadModelNotes(scenario, shown, (cell) => cellLabel(cell, swept, scenario.parameters)),
    ],
  };
}

/** The table as terminal text: every string a user's declarations, names or values put in it is shown, never obeyed. */
function renderCellTable(table: CellTable): string {
  const header = table.header.map(terminalText);
  const rows = table.rows.map((row) => ({ values: row.values.map(terminalText) }));
  const full = (values: string[]): boolean => values.length === header.length;
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => (full(r.values) ? (r.values[i] ?? '').length : 0))),
  );
  const line = (row: string[]): string =>
    full(row)
      ? row.map((v, i) => (i < table.textColumns ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ')
      : [...row.slice(0, -1).map((v, i) => v.padEnd(widths[i]!)), row.at(-1)].join('  ');
  return [...(rows.length ? [line(header), ...rows.map((r) => line(r.values))] : []), ...table.footer.map(terminalText)]
    .join('\n')
    .trimEnd();
}

/**
 * The status column: the status, then what else the reader must know before trusting the row:
 * a saturated server (a finding about the server) and a saturated or starved load generator
 * (its latencies include its own queueing). The footer gives the evidence.
 */
export function statusText(cell: CellResult, deliveredKey: string | null = null): string {
  if (!isMeasured(cell)) return cell.status;
  const load = cell.loadSaturation;
  return [
    cell.status,
    ...(cell.saturation ? ['saturated'] : []),
    ...(load && (load.saturated.length > 0 || load.starved.length > 0)
      ? [load.saturated.length > 0 ? 'client saturated' : 'client starved']
      : []),
    ...(load?.behindSchedule ? ['client behind'] : []),
    ...(cell.unstable ? ['unstable'] : []),
    ...(belowOffered(cell, deliveredKey) ? ['below offered'] : []),
  ].join(', ');
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

/**
 * A run's cells as CSV (RFC 4180), one row per cell, for a spreadsheet or a CI
 * job's artifacts: the cell (scenario, server, client, each parameter in the
 * JSON's units: ms and bytes), its status and reason, the SLO verdict when the
 * run was judged, every metric its scenario declares, by key, each key number
 * followed by its interval's bounds (`KEY.low`, `KEY.high`, 95 %) where the
 * result has one, then the server's CPU (mean % of one core) and RSS (max
 * bytes). An empty field is a value the cell does not have (the JSON says why).
 * Every text goes through csvText; numbers are written in full.
 */
import { isMeasured, type BenchResult, type CellResult } from '../../shared/types/result-types.js';
import type { OutputFormat } from './format-types.js';
import { csvNumber, csvRecord, csvText } from '../escape/csv.js';

interface Column {
  header: string;
  value: (cell: CellResult) => string;
}

export const csvFormat: OutputFormat = {
  description:
    'one row per cell: its parameters, status, every declared metric with its interval bounds, the server cost (RFC 4180)',
  forPeople: false,
  render: { run: renderCsv },
};

function renderCsv(result: BenchResult): string {
  const columns = csvColumns(result);
  return [
    csvRecord(columns.map((c) => csvText(c.header))),
    ...result.cells.map((cell) => csvRecord(columns.map((c) => c.value(cell)))),
  ].join('');
}

function csvColumns(result: BenchResult): Column[] {
  const parameters = [...new Set(result.cells.flatMap((c) => Object.keys(c.params)))];
  const metrics = [...new Set(result.scenarios.flatMap((s) => Object.keys(s.metrics)))];
  const withInterval = new Set(result.cells.flatMap((c) => (isMeasured(c) ? Object.keys(c.intervals ?? {}) : [])));
  const judged = result.cells.some((c) => isMeasured(c) && c.slo);
  const measured = (value: (cell: Extract<CellResult, { measurements: object }>) => string) => (cell: CellResult) =>
    isMeasured(cell) ? value(cell) : '';
  const columns: Column[] = [
    { header: 'scenario', value: (cell) => csvText(cell.scenario) },
    { header: 'server', value: (cell) => csvText(cell.server) },
    { header: 'client', value: (cell) => csvText(cell.client) },
    ...parameters.map((name): Column => ({ header: name, value: (cell) => paramField(cell.params[name]) })),
    { header: 'status', value: (cell) => cell.status },
    {
      header: 'reason',
      value: (cell) => ('reason' in cell && typeof cell.reason === 'string' ? csvText(cell.reason) : ''),
    },
    ...(judged ? [{ header: 'slo', value: measured((cell) => cell.slo?.verdict ?? '') }] : []),
    ...metrics.flatMap((key): Column[] => [
      { header: key, value: measured((cell) => csvNumber(cell.metrics[key])) },
      ...(withInterval.has(key)
        ? [
            { header: `${key}.low`, value: measured((cell) => csvNumber(cell.intervals?.[key]?.low)) },
            { header: `${key}.high`, value: measured((cell) => csvNumber(cell.intervals?.[key]?.high)) },
          ]
        : []),
    ]),
    { header: 'serverCpuPercentMean', value: measured((cell) => csvNumber(cell.resources.server?.cpuPercent.mean)) },
    { header: 'serverRssBytesMax', value: measured((cell) => csvNumber(cell.resources.server?.rssBytes.max)) },
  ];
  return uniqueHeaders(columns);
}

/** A parameter's value as the JSON holds it: numbers in ms and bytes, text and booleans as written. */
function paramField(value: number | boolean | string | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'number' ? csvNumber(value) : csvText(String(value));
}

/** A parameter and a metric may share a name (or a metric be called `status`): the later column gets `#2`. */
function uniqueHeaders(columns: Column[]): Column[] {
  const seen = new Map<string, number>();
  return columns.map((column) => {
    const count = (seen.get(column.header) ?? 0) + 1;
    seen.set(column.header, count);
    return count === 1 ? column : { ...column, header: `${column.header}#${count}` };
  });
}

/**
 * The lines under a scenario's table, so that it explains itself: cells that
 * did not end ok and why, saturated servers, values shown as n/a or `-` and
 * the reason the result records for each, skipped pairs, and what every
 * status that appears means.
 */
import {
  isMeasured,
  type CellResult,
  type MeasuredCell,
  type ScenarioInfo,
} from '../../../shared/types/result-types.js';
import { NO_SAMPLES, NOT_RECORDED } from '../../measure/metric-values.js';
import { pairLabel } from '../../parameter-labels.js';

/** The server-cost columns every table ends with. */
export const SERVER_COST_HEADERS = ['srv CPU%', 'srv RSS MB'] as const;

/** What each status but ok means, for the legend under a table that shows it (ok's words depend on its rows: okMeaning). */
const STATUS_MEANINGS: Record<string, string> = {
  errors:
    'measured to the end of the window, but connections were lost or could not open; its numbers cover the connections that ran, and its reason is listed above',
  failed:
    'a process or the server died, every connection was lost, or the cell never started; its numbers cover only what was measured (rates over the time the traffic ran), and its reason is on its row or listed above',
  skipped: 'the pair could not run here and measured nothing; why is on its n/a line',
};
/** Said of a status this version has no words for (a newer wsbench wrote the file). */
const OTHER_STATUS_MEANING = 'not ok; the reason of each such cell is listed above';
const SATURATED_MEANING =
  "the server used a whole core and fell behind: the clients' numbers are complete, its own are n/a (evidence above)";
const CLIENT_SATURATED_MEANING =
  "a load-generating process used a whole core (saturated), waited for one (starved), or could not send on its schedule (behind): its latencies include its own queueing, not only the server's, and a generator behind offered less than asked (evidence above)";
const UNSTABLE_MEANING =
  "the cell's rounds disagree far beyond each round's own spread (the machine changed speed between them): a rerun may read as far apart (rounds above)";
/** How a cell with no server samples records why: the engine's note starts with this. */
const NOT_SAMPLED_NOTE = /^server resources not measured\b/;
const NO_REASON = 'the result holds no sample of the server process and records no reason';

/** The footer of one scenario's table; `label` names a cell as its row would (pair and varied parameters). */
export function tableFootnotes(
  scenario: ScenarioInfo,
  cells: CellResult[],
  statuses: string[],
  label: (cell: CellResult) => string,
): string[] {
  const shown = cells.filter((c) => c.status !== 'skipped');
  return [
    ...notOkSections(shown, label),
    ...saturatedSection(shown, label),
    ...loadSaturatedSection(shown, label),
    ...missingLines(scenario, shown, label),
    ...notSampledLines(shown, label),
    ...tlsLines(shown, label),
    ...skippedLines(cells),
    ...statusLegend(scenario, cells, statuses),
  ];
}

/** Measured cells that did not end ok, one section per status: `failed cells (...)`, then a line per cell. */
function notOkSections(cells: CellResult[], label: (cell: CellResult) => string): string[] {
  const byStatus = new Map<string, string[]>();
  for (const cell of cells) {
    if (!isMeasured(cell) || cell.status === 'ok') continue;
    byStatus.set(cell.status, [...(byStatus.get(cell.status) ?? []), `  ${label(cell)}: ${reasonOf(cell)}`]);
  }
  return [...byStatus].flatMap(([status, lines]) => [
    '',
    `${status} cells (their numbers cover what was measured):`,
    ...lines,
  ]);
}

function saturatedSection(cells: CellResult[], label: (cell: CellResult) => string): string[] {
  const lines = cells.flatMap((c) => (isMeasured(c) && c.saturation ? [`  ${label(c)}: ${c.saturation}`] : []));
  return lines.length ? ['', 'saturated servers:', ...lines] : [];
}

function loadSaturatedSection(cells: CellResult[], label: (cell: CellResult) => string): string[] {
  const lines = cells.flatMap((c) =>
    isMeasured(c) && c.loadSaturation ? [`  ${label(c)}: ${c.loadSaturation.evidence}`] : [],
  );
  return lines.length ? ['', 'load generators that could not keep up:', ...lines] : [];
}

/**
 * Table values that are n/a, one line per reason and set of columns:
 * `n/a  srv p50 ms of ws x ws, uws x ws: the server did not report it`.
 * "no samples" and "not recorded" are said in the cell itself and need no line.
 */
function missingLines(scenario: ScenarioInfo, cells: CellResult[], label: (cell: CellResult) => string): string[] {
  const groups = new Map<string, { headers: string; reason: string; pairs: string[] }>();
  // Values below their resolution show `< most`: their line says why, marked as the cell is.
  const below = new Map<string, { headers: string; reason: string; pairs: string[] }>();
  for (const cell of cells) {
    if (!isMeasured(cell)) continue;
    const headersByReason = new Map<string, { headers: string[]; below: boolean }>();
    for (const key of scenario.table) {
      if (typeof cell.metrics[key] === 'number') continue;
      const reason = cell.missing[key];
      if (reason === undefined || reason === NO_SAMPLES || reason === NOT_RECORDED) continue;
      const entry = headersByReason.get(reason) ?? { headers: [], below: cell.resolution?.[key]?.resolved === false };
      entry.headers.push(scenario.metrics[key]?.header ?? key);
      headersByReason.set(reason, entry);
    }
    for (const [reason, entry] of headersByReason)
      addToGroup(entry.below ? below : groups, entry.headers.join(', '), reason, label(cell));
  }
  return [...groupLines(groups, 'n/a '), ...groupLines(below, '<   ')];
}

/** `-` for the server's cost, with the reason the cell's notes give, or that none is recorded. */
function notSampledLines(cells: CellResult[], label: (cell: CellResult) => string): string[] {
  const groups = new Map<string, { headers: string; reason: string; pairs: string[] }>();
  for (const cell of cells) {
    if (!isMeasured(cell) || cell.resources.server !== null) continue;
    addToGroup(
      groups,
      SERVER_COST_HEADERS.join(', '),
      cell.notes.find((n) => NOT_SAMPLED_NOTE.test(n)) ?? NO_REASON,
      label(cell),
    );
  }
  return groupLines(groups, '-   ');
}

function addToGroup(
  groups: Map<string, { headers: string; reason: string; pairs: string[] }>,
  headers: string,
  reason: string,
  pair: string,
): void {
  const key = `${headers}\n${reason}`;
  const entry = groups.get(key) ?? { headers, reason, pairs: [] };
  entry.pairs.push(pair);
  groups.set(key, entry);
}

function groupLines(groups: Map<string, { headers: string; reason: string; pairs: string[] }>, mark: string): string[] {
  if (groups.size === 0) return [];
  return ['', ...[...groups.values()].map((g) => `${mark} ${g.headers} of ${g.pairs.join(', ')}: ${g.reason}`)];
}

/**
 * What the TLS handshakes negotiated, one line per outcome, said of the client stacks when every
 * TLS cell of those clients had it (the client decides what it can report): `tls  ws and undici
 * clients: TLSv1.3 TLS_AES_256_GCM_SHA384`; else of the cells themselves.
 */
function tlsLines(cells: CellResult[], label: (cell: CellResult) => string): string[] {
  const byOutcome = new Map<string, MeasuredCell[]>();
  const tlsCells = cells.filter((c): c is MeasuredCell => isMeasured(c) && (c.tls?.length ?? 0) > 0);
  for (const cell of tlsCells) {
    for (const outcome of cell.tls!) {
      const text =
        outcome.protocol !== null
          ? `${outcome.protocol} ${outcome.cipher}`
          : `version and cipher not known: ${outcome.reason ?? 'no reason recorded'}`;
      byOutcome.set(text, [...(byOutcome.get(text) ?? []), cell]);
    }
  }
  if (byOutcome.size === 0) return [];
  const lines = [...byOutcome].map(([text, withIt]) => {
    if (withIt.length === tlsCells.length) return `tls  every TLS cell: ${text}`;
    const clients = [...new Set(withIt.map((c) => c.client))];
    const byClient = tlsCells.filter((c) => clients.includes(c.client)).length === withIt.length;
    const which = byClient
      ? `${andList(clients)} client${clients.length > 1 ? 's' : ''}`
      : withIt.map(label).join(', ');
    return `tls  ${which}: ${text}`;
  });
  return ['', ...lines];
}

/** `a`, `a and b`, `a, b and c`. */
function andList(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Skipped pairs, one line per reason: `n/a  ws x socketio, uws x socketio: <reason>`. */
function skippedLines(cells: CellResult[]): string[] {
  const pairsByReason = new Map<string, Set<string>>();
  for (const cell of cells) {
    if (cell.status !== 'skipped') continue;
    pairsByReason.set(cell.reason, (pairsByReason.get(cell.reason) ?? new Set()).add(pairLabel(cell)));
  }
  if (pairsByReason.size === 0) return [];
  return ['', ...[...pairsByReason].map(([reason, pairs]) => `n/a  ${[...pairs].join(', ')}: ${reason}`)];
}

/**
 * What ok means beside these rows: each thing an ok cell can promise, said only when every ok row keeps it,
 * else in the weaker words that are true of all of them. A saturated server did not report; values shown n/a
 * or `-` are missing; a scenario that measures its connection faults may lose connections in an ok cell.
 */
function okMeaning(scenario: ScenarioInfo, cells: CellResult[]): string {
  const ok = cells.filter((c): c is MeasuredCell => isMeasured(c) && c.status === 'ok');
  const serverSilent = ok.some((c) => c.saturation !== undefined);
  const incomplete =
    serverSilent ||
    ok.some(
      (c) =>
        c.resources.server === null ||
        scenario.table.some(
          (key) =>
            typeof c.metrics[key] !== 'number' && c.missing[key] !== NO_SAMPLES && c.missing[key] !== NOT_RECORDED,
        ),
    );
  return [
    serverSilent
      ? 'every client process reported to the end of the window (a saturated server did not: its own numbers are n/a)'
      : 'every process reported to the end of the window',
    scenario.connectionFaults === 'measured'
      ? `no fault was counted (connections that could not open or were lost are what ${scenario.name} measures: its columns count them, and none of its errors columns is above 0)`
      : 'no connection was lost or refused',
    incomplete
      ? 'the numbers are complete but for the values shown n/a or - (why is listed above)'
      : 'the numbers are complete',
  ].join('; ');
}

/** `status ok: ...`, one line per status the table shows (rows, and skipped pairs on their n/a lines). */
function statusLegend(scenario: ScenarioInfo, cells: CellResult[], shownStatuses: string[]): string[] {
  const statuses = [...new Set([...cells.map((c) => c.status as string)])];
  const saturated = shownStatuses.some((s) => s.split(', ').includes('saturated'));
  const clientSaturated = shownStatuses.some((s) => /, client (saturated|starved|behind)(,|$)/.test(s));
  const unstable = shownStatuses.some((s) => s.split(', ').includes('unstable'));
  if (statuses.length === 0) return [];
  return [
    '',
    ...statuses.map(
      (status) =>
        `status ${status}: ${status === 'ok' ? okMeaning(scenario, cells) : (STATUS_MEANINGS[status] ?? OTHER_STATUS_MEANING)}`,
    ),
    ...(saturated ? [`status ..., saturated: ${SATURATED_MEANING}`] : []),
    ...(clientSaturated ? [`status ..., client saturated / starved / behind: ${CLIENT_SATURATED_MEANING}`] : []),
    ...(unstable ? [`status ..., unstable: ${UNSTABLE_MEANING}`] : []),
  ];
}

function reasonOf(cell: MeasuredCell): string {
  return 'reason' in cell && typeof cell.reason === 'string' ? cell.reason : 'no reason recorded';
}

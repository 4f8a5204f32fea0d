/**
 * report.html: one self-contained page (inline SVG, inline CSS, no script, no
 * font, no link to anything) that opens offline and can be mailed around.
 * A pure function of the result and the rendered charts.
 */
import {
  isMeasured,
  type BenchResult,
  type CellResult,
  type Environment,
  type ScenarioInfo,
} from '../../../shared/types/result-types.js';
import { cellTable, type CellTable } from '../run/table.js';
import { figureHtml, type RenderedChart } from './html-parts.js';
import { escapeHtml } from '../../escape/html.js';
import { capacitySectionHtml } from './capacity-html.js';
import { picksHtml } from './html-picks.js';
import { controlLines } from '../run/control-text.js';
import { summaryFirstLines } from '../run/noise-first.js';

export interface RenderedScenario {
  scenario: string;
  /** The capacity search's charts (a capacity result only). */
  capacity?: RenderedChart[];
  charts: RenderedChart[];
  /** Chart requests, or parts of them, not drawn and why, by their key path in the result file. */
  notDrawn?: string[];
}

const STYLE = `
body { font: 14px/1.45 Helvetica, Arial, "DejaVu Sans", sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
div.cells { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { padding: 0.2em 0.7em; border-bottom: 1px solid #e4e4e4; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; }
td.text, th.text { text-align: left; }
td.failed { color: #b00; }
td.warn { color: #8a5a00; }
dl.env { display: grid; grid-template-columns: max-content 1fr; gap: 0.15em 1em; }
dl.env dt { font-weight: bold; }
dl.env dd { margin: 0; }
figure { margin: 1.5em 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: 0.92em; }
.note { color: #8a5a00; }
p.fixed { font-family: monospace; color: #444; }
pre.footer { font-size: 0.92em; color: #555; white-space: pre-wrap; }
ul.picks li { margin: 0.15em 0; }
`;

export function renderHtml(result: BenchResult, rendered: RenderedScenario[]): string {
  const title = `wsbench report: ${result.scenarios.map((s) => s.name).join(', ')}`;
  const sections = result.scenarios.map((scenario) =>
    scenarioSection(
      scenario,
      result.cells.filter((c) => c.scenario === scenario.name),
      rendered.find((r) => r.scenario === scenario.name) ?? { scenario: scenario.name, charts: [] },
    ),
  );
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p>Started ${escapeHtml(result.startedAt)}, took ${(result.elapsedMs / 1000).toFixed(1)} s, ${result.cells.length} cells.` +
      (result.interrupted
        ? ' <strong class="note">Interrupted: cells after the interruption are missing or partial.</strong>'
        : '') +
      ((result.repeat ?? 1) > 1
        ? ` Each cell ran in ${result.repeat} interleaved rounds; every number pools them (histograms merged, counters and windows added).`
        : '') +
      '</p>',
    ...summaryFirstLines(result).map((line) => `<p class="note">${escapeHtml(line)}</p>`),
    ...(result.warnings ?? []).map((warning) => `<p class="note"><strong>Warning:</strong> ${escapeHtml(warning)}</p>`),
    ...controlLines(result)
      .filter((line) => line !== '')
      .map((line) => `<p class="fixed">${escapeHtml(line)}</p>`),
    environmentBlock(result.environment, result.clientProcesses),
    ...(result.capacity
      ? [
          capacitySectionHtml(
            { ...result, capacity: result.capacity },
            rendered.flatMap((r) => r.capacity ?? []),
          ),
        ]
      : []),
    ...sections,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function environmentBlock(env: Environment, clientProcesses: number): string {
  const gib = (bytes: number): string => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
  const rows: Array<[string, string]> = [
    ['CPU', `${env.cpuModel} (${env.cpuCores} logical cores)`],
    ['Memory', gib(env.totalMemoryBytes)],
    ['OS', `${env.osName ?? env.platform} (${env.platform} ${env.osRelease}, ${env.arch})`],
    ['Node', `${env.node} (V8 ${env.v8})`],
    ['Open-file limit', env.openFileLimit === null ? 'unknown' : String(env.openFileLimit)],
    ['Client processes per cell', String(clientProcesses)],
    ['Clock', env.clock],
    ['Stacks', env.stacks.map(stackText).join('; ')],
    ...(env.foreignServers?.length
      ? [['Your servers', env.foreignServers.map(foreignText).join('; ')] as [string, string]]
      : []),
  ];
  return `<h2>Environment</h2>\n<dl class="env">\n${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}\n</dl>`;
}

/** A --target or --server-cmd server: how it was reached, and whether its CPU and RSS were sampled. */
function foreignText(server: NonNullable<Environment['foreignServers']>[number]): string {
  const how =
    server.kind === 'command' ? `started by \`${server.command ?? ''}\` at ${server.url}` : `running at ${server.url}`;
  const sampled =
    server.kind === 'command' || server.pid !== undefined ? '' : ', CPU and RSS not measured (no --target-pid)';
  return `${server.name} (${server.protocol}): ${how}${server.pid !== undefined ? `, pid ${server.pid}` : ''}${sampled}`;
}

function stackText(stack: Environment['stacks'][number]): string {
  const a = stack.availability;
  const version = a.version ?? 'not installed';
  const build = a.available && a.build ? ` [${a.build.packageName}, ${a.build.native ? 'native' : 'JS fallback'}]` : '';
  const missing = a.available ? '' : ` (unavailable: ${a.reason})`;
  return `${stack.role} ${stack.name} ${version}${build}${missing}`;
}

function scenarioSection(
  scenario: ScenarioInfo,
  cells: CellResult[],
  { charts, notDrawn = [] }: RenderedScenario,
): string {
  const table = cellTable(scenario, cells);
  const figures = charts.map(figureHtml);
  return [
    `<h2>${escapeHtml(scenario.name)}</h2>`,
    `<p>${escapeHtml(scenario.description)}</p>`,
    ...(table.fixed ? [`<p class="fixed">${escapeHtml(table.fixed)}</p>`] : []),
    tableHtml(table),
    picksHtml(scenario, cells),
    ...(charts.length === 0 && notDrawn.length === 0
      ? ['<p class="note">No chart: no cell of this scenario measured anything.</p>']
      : figures),
    ...notDrawn.map((line) => `<p class="note">${escapeHtml(line)}</p>`),
  ].join('\n');
}

/**
 * The terminal's table (same strings, from report/run/table.ts), with the reason of a failed cell or one
 * with errors, and the evidence of a saturated load generator, on rows of their own.
 */
function tableHtml(table: CellTable): string {
  const th = (h: string, i: number): string =>
    `<th${i < table.textColumns ? ' class="text"' : ''}>${escapeHtml(h)}</th>`;
  const statusColumn = table.header.indexOf('status');
  const td = (value: string, i: number, mark: string | null): string => {
    const classes = [...(i < table.textColumns ? ['text'] : []), ...(mark && i === statusColumn ? [mark] : [])];
    return `<td${classes.length ? ` class="${classes.join(' ')}"` : ''}>${escapeHtml(value)}</td>`;
  };
  const line = (text: string, mark: string): string =>
    `<tr><td class="text ${mark}" colspan="${table.header.length}">${escapeHtml(text)}</td></tr>`;
  const rows = table.rows.map(({ cell, values }) => {
    const notOk = cell.status === 'failed' || cell.status === 'errors';
    const loaded = isMeasured(cell) ? cell.loadSaturation : undefined;
    const mark = notOk ? 'failed' : loaded || (isMeasured(cell) && cell.saturation) ? 'warn' : null;
    if (values.length < table.header.length) {
      const front = values
        .slice(0, -1)
        .map((v, i) => td(v, i, mark))
        .join('');
      return `<tr>${front}<td class="text" colspan="${table.header.length - values.length + 1}">${escapeHtml(values.at(-1) ?? '')}</td></tr>`;
    }
    const reason = notOk && 'reason' in cell ? line(cell.reason, 'failed') : '';
    return `<tr>${values.map((v, i) => td(v, i, mark)).join('')}</tr>${reason}${loaded ? line(loaded.evidence, 'warn') : ''}`;
  });
  const footer = table.footer.join('\n').trim();
  return [
    `<div class="cells"><table>\n<thead><tr>${table.header.map(th).join('')}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table></div>`,
    ...(footer ? [`<pre class="footer">${escapeHtml(footer)}</pre>`] : []),
  ].join('\n');
}

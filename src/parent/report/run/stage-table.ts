/**
 * The stages of each cell that ran in stages, one row per stage under the main
 * table: the stage's span of the window and its target, the scenario's table
 * metrics over that stage alone, the CPU the client and server used while it
 * ran, and what went wrong in it (errors counted, a load generator that fell
 * behind or saturated). Server-side metrics are the whole window's only.
 */
import type { MetricUnit } from '../../../shared/types/declaration-types.js';
import {
  isMeasured,
  type CellResult,
  type ScenarioInfo,
  type StageResult,
} from '../../../shared/types/result-types.js';

type Format = (value: number | null | undefined, unit: MetricUnit) => string;

export function stageTables(
  scenario: ScenarioInfo,
  cells: readonly CellResult[],
  label: (cell: CellResult) => string,
  format: Format,
): string[] {
  const staged = cells.filter((c) => isMeasured(c) && c.stages && c.stages.length > 0);
  return staged.flatMap((cell) => {
    if (!isMeasured(cell) || !cell.stages) return [];
    const metrics = scenario.table.map((key) => ({ key, info: scenario.metrics[key] }));
    const header = [
      'stage',
      'window s',
      'target',
      ...metrics.map((m) => m.info?.header ?? m.key),
      'cli CPU%',
      'srv CPU%',
      'status',
    ];
    const rows = cell.stages.map((stage) => [
      String(stage.index + 1),
      `${seconds(stage.startMs)}-${seconds(stage.endMs)}`,
      format(stage.target, 'count'),
      ...metrics.map(({ key, info }) => format(stage.metrics[key], info?.unit ?? 'count')),
      cpu(stage.resources.clients.map((c) => c.cpuPercent.mean)),
      cpu(stage.resources.server ? [stage.resources.server.cpuPercent.mean] : []),
      statusOf(stage),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (row: string[]): string =>
      row
        .map((v, i) => (i === row.length - 1 ? v : i < 2 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!)))
        .join('  ')
        .trimEnd();
    const notes = cell.stages.flatMap((stage) =>
      stage.loadSaturation ? [`  stage ${stage.index + 1}: ${stage.loadSaturation.evidence}`] : [],
    );
    const load = cell.load ? ` (${cell.load.text})` : '';
    return ['', `stages of ${label(cell)}${load}:`, line(header), ...rows.map(line), ...notes];
  });
}

function statusOf(stage: StageResult): string {
  const load = stage.loadSaturation;
  return [
    stage.status === 'errors' ? `errors: ${stage.reason ?? ''}` : stage.status,
    ...(load && load.saturated.length > 0 ? ['client saturated'] : []),
    ...(load && load.saturated.length === 0 && load.starved.length > 0 ? ['client starved'] : []),
    ...(load?.behindSchedule ? ['client behind'] : []),
  ].join(', ');
}

function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(2)));
}

function cpu(percents: number[]): string {
  return percents.length === 0 ? '-' : percents.reduce((a, b) => a + b, 0).toFixed(0);
}

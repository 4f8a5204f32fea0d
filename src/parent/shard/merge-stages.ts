/**
 * The stages of a cell run in stages on several shards, put back together
 * stage by stage as the cell is: each stage's histograms added bucket by
 * bucket, counters summed, client processes side by side, its window the
 * longest of the shards' (they cut their stages at the same offsets into a
 * window opened together), and its metrics computed again from that.
 */
import type { MeasuredCell, StageResult } from '../../shared/types/result-types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import type { StageMeasured } from '../measure/stage-series.js';
import { assembleMeasurements, sideBySide } from '../measure/measurements.js';
import { stageResults } from '../engine/stage-results.js';

export function mergeStages(cells: readonly MeasuredCell[], scenario: AnyScenario): StageResult[] | undefined {
  const staged = cells.filter((cell) => cell.stages && cell.stages.length > 0);
  if (staged.length === 0) return undefined;
  const indexes = [...new Set(staged.flatMap((cell) => cell.stages!.map((s) => s.index)))].sort((a, b) => a - b);
  const measured = indexes.map((index): StageMeasured => {
    const parts = staged.flatMap((cell) => cell.stages!.filter((s) => s.index === index));
    const first = parts[0]!;
    return {
      index,
      startMs: first.startMs,
      endMs: first.endMs,
      target: first.target,
      measurements: assembleMeasurements(
        parts.map((p) => p.measurements),
        [],
        sideBySide,
      ),
      resources: {
        server: parts.map((p) => p.resources.server).find((s) => s !== null) ?? null,
        clients: parts.flatMap((p) => p.resources.clients),
      },
    };
  });
  const clientProcesses = staged.reduce((sum, cell) => sum + cell.resources.clients.length, 0);
  return stageResults(scenario, staged[0]!.params, clientProcesses, measured);
}

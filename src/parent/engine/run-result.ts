/**
 * A run's result from what its cells measured: each cell's rounds become its
 * CellResult (or the reason it has none), under the run's identity. The engine
 * builds its result here at the end of a run, and a journal's rebuild after
 * wsbench stopped builds it here too, so both come out of one rule.
 */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import { toolVersion } from '../../shared/package-version.js';
import {
  SCHEMA_VERSION,
  type BenchResult,
  type CellResult,
  type DecisionSection,
  type MachineLoad,
  type Environment,
  type ScenarioInfo,
} from '../../shared/types/result-types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import type { CellRun } from './cell.js';
import { cellResult } from './cell-result.js';
import { controlSection } from '../stats/control.js';

export interface RunRecord {
  info: ScenarioInfo;
  /** The scenario module's own object: its metrics are computed from the measurements. */
  scenario: AnyScenario;
  /** The plan's cells in order; null `skip` when the cell runs; `control` on the two cells of the noise control. */
  cells: ReadonlyArray<{ server: string; client: string; params: ParamValues; skip: string | null; control?: 1 | 2 }>;
  clientProcesses: number;
  repeat: number;
  environment: Environment;
  /** ISO time. */
  startedAt: string;
  elapsedMs: number;
  interrupted: boolean;
  /** Set when the windows could not be coordinated (a shard session that broke): every cell failed with it. */
  coordinationFailure: string | null;
  /** What the run did that its numbers do not show (the result's `warnings`). */
  warnings?: string[];
  /** The command line that asked for the run, when it came from one. */
  argv?: string[];
  /** The loopback address the servers bound. */
  host?: string;
  /** The level of every interval (default CONFIDENCE_LEVEL; run --until-decided: its last look's). */
  level?: number;
  /** run --until-decided: its looks. */
  decision?: DecisionSection;
  /** The machine's load average around the run. */
  machineLoad?: MachineLoad;
}

/** `runs[i]`: the rounds cell i ran, in order. */
export function runResult(record: RunRecord, runs: ReadonlyArray<CellRun[]>): BenchResult {
  const cells = record.cells.map((cell, i): CellResult => {
    const load = record.scenario.loadModel?.(cell.params);
    const identity = {
      scenario: record.info.name,
      server: cell.server,
      client: cell.client,
      params: cell.params,
      ...(load ? { load } : {}),
    };
    if (cell.skip !== null) return { ...identity, status: 'skipped', reason: cell.skip, elapsedMs: 0 };
    if (record.coordinationFailure)
      return { ...identity, status: 'failed', reason: record.coordinationFailure, elapsedMs: 0 };
    const rounds = runs[i] ?? [];
    if (rounds.length === 0)
      return { ...identity, status: 'skipped', reason: 'interrupted before it started', elapsedMs: 0 };
    return cellResult(identity, record.scenario, record.clientProcesses, rounds, record.level);
  });
  // The noise control's two cells leave the matrix for their own section.
  const controls = record.cells.flatMap((c, i) => (c.control ? [cells[i]!] : []));
  const matrix = cells.filter((_, i) => !record.cells[i]!.control);
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'wsbench', version: toolVersion() },
    ...(record.argv ? { argv: record.argv } : {}),
    ...(record.host !== undefined ? { host: record.host } : {}),
    startedAt: record.startedAt,
    elapsedMs: record.elapsedMs,
    interrupted: record.interrupted,
    environment: record.environment,
    clientProcesses: record.clientProcesses,
    repeat: record.repeat,
    scenarios: [record.info],
    cells: matrix,
    ...(controls.length === 2
      ? { control: controlSection(record.info.metrics, controls[0]!, controls[1]!, record.level) }
      : {}),
    ...(record.decision ? { decision: record.decision } : {}),
    ...(record.machineLoad ? { machineLoad: record.machineLoad } : {}),
    ...(record.warnings && record.warnings.length > 0 ? { warnings: record.warnings } : {}),
  };
}

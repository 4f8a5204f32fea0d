/**
 * Runs a plan: every cell that is not skipped, one at a time, round-robin over
 * the rounds, telling listeners what happens as events; then each cell's
 * rounds become its result. A coordinator, when given, lines the windows up
 * with other load machines.
 */
import { toolVersion } from '../package-version.js';
import { SCHEMA_VERSION, type BenchResult, type CellResult } from '../result-types.js';
import { runCell, type CellRun } from './cell.js';
import { cellResult } from './cell-result.js';
import type { OpenCoordinator } from './coordination.js';
import { describeEnvironment } from './environment.js';
import type { RunEvent } from './events.js';
import type { MatrixPlan } from './plan.js';
import { foreignServerInfo } from './servers/foreign-options.js';
import { cellWindow } from './window.js';

export interface ExecuteOptions {
  /** Aborting stops the current cell (marked `interrupted`) and skips the rest. */
  signal?: AbortSignal;
  /** Called for every engine event: run start, cell start, window open, tick, cell end. */
  onEvent?: (event: RunEvent) => void;
  /** Opened before the first cell: the windows open through its gates. */
  coordinate?: OpenCoordinator;
  /** The command line, recorded in the result (the CLI passes it). */
  argv?: string[];
  /** This machine's part when the run is one shard of several, for `run-start`. */
  shard?: { index: number; count: number; runId: string };
}

export async function executeMatrix(plan: MatrixPlan, options: ExecuteOptions = {}): Promise<BenchResult> {
  const startedAt = new Date();
  const signal = options.signal ?? new AbortController().signal;
  const emit = options.onEvent ?? (() => undefined);
  const cells = plan.cells;
  const runs: CellRun[][] = cells.map(() => []);
  const total = cells.length * plan.repeat;
  const cellPlan = cells.map((cell) => ({ server: cell.server, client: cell.client, params: cell.params, skip: cell.skip }));
  emit({ type: 'run-start', scenario: plan.info, cells: cells.length, repeat: plan.repeat, plan: cellPlan, ...(options.shard ? { shard: options.shard } : {}) });
  const coordinator = options.coordinate ? await options.coordinate(signal) : null;
  // Round-robin over the cells, so slow drift on the machine hits every pair alike.
  for (let round = 0; round < plan.repeat && !coordinator?.failure; round++) {
    for (const [i, cell] of cells.entries()) {
      if (cell.skip !== null && coordinator) coordinator.gate(i, round).withdraw(cell.skip);
      if (cell.skip !== null || signal.aborted) continue;
      const index = round * cells.length + i;
      const identity = { scenario: plan.info.name, server: cell.server, client: cell.client, params: cell.params };
      emit({ type: 'cell-start', index, total, round, ...identity, windowMs: cellWindow(plan.loaded.scenario, cell.params).fixedMs });
      const outcome = await runCell(cell, {
        host: plan.host,
        clientProcesses: plan.clientProcesses,
        signal,
        onWindowOpen: () => emit({ type: 'window-open', index }),
        onTick: (counters, progress) => emit({ type: 'tick', index, counters, progress }),
        onResourceSample: (role, process, sample) => emit({ type: 'resources', index, role, process, ...sample }),
        ...(coordinator ? { shard: { index: coordinator.index, count: coordinator.count, gate: coordinator.gate(i, round) } } : {}),
        tls: plan.tls,
      });
      runs[i]!.push(outcome);
      const status = outcome.failure !== null ? 'failed' : outcome.errors !== null ? 'errors' : 'ok';
      const findings = outcome.measured ? { notes: outcome.measured.notes, ...(outcome.measured.saturation ? { saturation: outcome.measured.saturation } : {}) } : {};
      emit({ type: 'cell-end', index, total, round, ...identity, status, reason: outcome.failure ?? outcome.errors, ...findings });
    }
  }
  // The certificate's files live as long as the cells that use them (an exit hook deletes them on any other way out).
  plan.tls.close();
  await coordinator?.close();
  emit({ type: 'run-end', interrupted: signal.aborted });
  const results = cells.map((cell, i): CellResult => {
    const identity = { scenario: plan.info.name, server: cell.server, client: cell.client, params: cell.params };
    if (cell.skip !== null) return { ...identity, status: 'skipped', reason: cell.skip, elapsedMs: 0 };
    if (coordinator?.failure) return { ...identity, status: 'failed', reason: coordinator.failure, elapsedMs: 0 };
    if (runs[i]!.length === 0) return { ...identity, status: 'skipped', reason: 'interrupted before it started', elapsedMs: 0 };
    return cellResult(identity, plan.loaded.scenario, plan.clientProcesses, runs[i]!);
  });
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'wsbench', version: toolVersion() },
    ...(options.argv ? { argv: options.argv } : {}),
    host: plan.host,
    startedAt: startedAt.toISOString(),
    elapsedMs: Date.now() - startedAt.getTime(),
    interrupted: signal.aborted,
    environment: {
      ...describeEnvironment(plan.stacks),
      ...(plan.foreign.length > 0 ? { foreignServers: plan.foreign.map(foreignServerInfo) } : {}),
    },
    clientProcesses: plan.clientProcesses,
    repeat: plan.repeat,
    scenarios: [plan.info],
    cells: results,
    ...(plan.warnings.length > 0 ? { warnings: plan.warnings } : {}),
  };
}

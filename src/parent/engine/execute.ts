/**
 * Runs a plan: every cell that is not skipped, one at a time, round-robin over
 * the rounds, telling listeners what happens as events; then each cell's
 * rounds become its result. A coordinator, when given, lines the windows up
 * with other load machines. Until decided (`untilDecided`), rounds are added
 * after the first ones while the looks of until-decided.ts ask for them.
 */
import { availableParallelism, loadavg } from 'node:os';
import type { BenchResult, DecisionSection } from '../../shared/types/result-types.js';
import { runCell, type CellRun } from './cell.js';
import { runResult, type RunRecord } from './run-result.js';
import { runUntilDecided } from './until-decided.js';
import { MIN_ROUNDS } from '../stats/round-spread.js';
import type { OpenCoordinator } from './coordination.js';
import { describeEnvironment } from './environment.js';
import type { RunEvent } from './events.js';
import type { MatrixPlan } from './plan.js';
import { foreignServerInfo } from '../server-lifecycles/foreign-options.js';
import { cellWindow } from './window.js';
import { redactUrlsIn } from '../redact/url-secrets.js';
import { withSloVerdicts } from '../slo/verdict.js';

interface ExecuteOptions {
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
  const loadAtStart = loadavg()[0]!;
  const signal = options.signal ?? new AbortController().signal;
  const emit = options.onEvent ?? (() => undefined);
  const cells = plan.cells;
  const runs: CellRun[][] = cells.map(() => []);
  // Until decided, the first look needs an interval from the rounds: at least MIN_ROUNDS of them.
  const firstRounds = plan.untilDecided ? Math.max(plan.repeat, MIN_ROUNDS) : plan.repeat;
  const cellPlan = cells.map((cell) => ({
    server: cell.server,
    client: cell.client,
    params: cell.params,
    skip: cell.skip,
    ...(cell.control ? { control: cell.control } : {}),
  }));
  const environment = {
    ...describeEnvironment(plan.stacks),
    ...(plan.foreign.length > 0 ? { foreignServers: plan.foreign.map(foreignServerInfo) } : {}),
  };
  const runIdentity = { startedAt: startedAt.toISOString(), environment, clientProcesses: plan.clientProcesses };
  emit({
    type: 'run-start',
    scenario: plan.info,
    cells: cells.length,
    repeat: firstRounds,
    plan: cellPlan,
    ...(options.shard ? { shard: options.shard } : {}),
    ...runIdentity,
    warnings: plan.warnings,
    host: plan.host,
  });
  const coordinator = options.coordinate ? await options.coordinate(signal) : null;
  let roundsRun = 0;
  /** Runs every cell round by round, round-robin, up to `rounds` in all: slow drift on the machine hits every pair alike. */
  const runRounds = async (rounds: number): Promise<number> => {
    for (; roundsRun < rounds && !coordinator?.failure && !signal.aborted; roundsRun++) {
      await runRound(roundsRun, rounds);
    }
    return roundsRun;
  };
  const runRound = async (round: number, rounds: number): Promise<void> => {
    const total = cells.length * rounds;
    for (const [i, cell] of cells.entries()) {
      if (cell.skip !== null && coordinator) coordinator.gate(i, round).withdraw(cell.skip);
      if (cell.skip !== null || signal.aborted) continue;
      const index = round * cells.length + i;
      const identity = { scenario: plan.info.name, server: cell.server, client: cell.client, params: cell.params };
      emit({
        type: 'cell-start',
        index,
        total,
        round,
        ...identity,
        windowMs: cellWindow(plan.loaded.scenario, cell.params).fixedMs,
      });
      const outcome = await runCell(cell, {
        host: plan.host,
        clientProcesses: plan.clientProcesses,
        signal,
        onWindowOpen: () => emit({ type: 'window-open', index }),
        onTick: (counters, progress) => emit({ type: 'tick', index, counters, progress }),
        onResourceSample: (role, process, sample) => emit({ type: 'resources', index, role, process, ...sample }),
        ...(coordinator
          ? { shard: { index: coordinator.index, count: coordinator.count, gate: coordinator.gate(i, round) } }
          : {}),
        tls: plan.tls,
      });
      runs[i]!.push(outcome);
      const status =
        outcome.unavailable !== undefined
          ? 'skipped'
          : outcome.failure !== null
            ? 'failed'
            : outcome.errors !== null
              ? 'errors'
              : 'ok';
      const findings = outcome.measured
        ? {
            notes: outcome.measured.notes,
            ...(outcome.measured.saturation ? { saturation: outcome.measured.saturation } : {}),
          }
        : {};
      emit({
        type: 'cell-end',
        index,
        total,
        round,
        ...identity,
        status,
        reason: outcome.unavailable ?? outcome.failure ?? outcome.errors,
        ...findings,
        outcome,
      });
    }
  };
  await runRounds(firstRounds);
  const record = (level?: number, decision?: DecisionSection): RunRecord => ({
    ...runIdentity,
    info: plan.info,
    scenario: plan.loaded.scenario,
    cells: cellPlan,
    // The rounds asked for (until decided, the looks may have asked for more); an interrupted run says so itself.
    repeat: Math.max(roundsRun, firstRounds),
    elapsedMs: Date.now() - startedAt.getTime(),
    interrupted: signal.aborted,
    coordinationFailure: coordinator?.failure ?? null,
    warnings: plan.warnings,
    ...(options.argv ? { argv: options.argv.map(redactUrlsIn) } : {}),
    host: plan.host,
    ...(level !== undefined ? { level } : {}),
    ...(decision ? { decision } : {}),
    machineLoad: { atStart: round2(loadAtStart), atEnd: round2(loadavg()[0]!), cores: availableParallelism() },
  });
  const decided =
    plan.untilDecided && !signal.aborted && !coordinator?.failure
      ? await runUntilDecided({
          budgetMs: plan.untilDecided.budgetMs,
          rounds: roundsRun,
          elapsedMs: () => Date.now() - startedAt.getTime(),
          runRounds,
          resultAt: (level) => runResult(record(level), runs),
          interrupted: () => signal.aborted,
          slo: plan.slo,
          emit,
        })
      : null;
  // The certificate's files live as long as the cells that use them (an exit hook deletes them on any other way out).
  plan.tls.close();
  await coordinator?.close();
  emit({ type: 'run-end', interrupted: signal.aborted });
  const result = runResult(record(decided?.level, decided?.decision), runs);
  return plan.slo ? withSloVerdicts(result, plan.slo) : result;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

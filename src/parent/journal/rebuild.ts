/**
 * A run's result, rebuilt from its journal's records: each cell round that
 * ended is taken as the run handed it in (its cell-end record holds it whole),
 * the round wsbench stopped in is rebuilt from its intervals (partial-cell.ts),
 * and the result is assembled by the engine's own rule (engine/run-result.ts),
 * with the scenario's metrics computed from the measurements as in a run.
 */
import type { BenchResult, RecoveryInfo, TestPlanInfo } from '../../shared/types/result-types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import type { CellRun } from '../engine/cell.js';
import { runResult } from '../engine/run-result.js';
import { progressIntervalMs } from '../../shared/measure/time-series.js';
import { cellWindow } from '../engine/window.js';
import { UsageError } from '../../shared/types/errors.js';
import { PartialCell } from './partial-cell.js';
import type { JournalRecord } from './records.js';
import type { TornLine } from './reader.js';

type RunStart = Extract<JournalRecord, { type: 'run-start' }>;

interface OpenRound {
  cell: number;
  round: number;
  label: string;
  partial: PartialCell;
}

export class JournalRebuild {
  private start: RunStart | null = null;
  private end: { atMs: number; interrupted: boolean } | null = null;
  private runs: CellRun[][] = [];
  private readonly open = new Map<number, OpenRound>();
  private lastAtMs = 0;

  /** `argv` and `plan`: the command line and test plan the journal's header recorded, which the result carries as a run's does. */
  constructor(
    private readonly path: string,
    private readonly scenario: AnyScenario,
    private readonly argv?: string[],
    private readonly plan?: TestPlanInfo,
  ) {}

  record(record: JournalRecord): void {
    if (record.type === 'end') return;
    this.lastAtMs = Math.max(this.lastAtMs, record.atMs);
    if (record.type === 'run-start') {
      this.start = record;
      this.runs = record.plan.map(() => []);
      return;
    }
    const start = this.start;
    if (!start)
      throw new UsageError(
        `${this.path}: a ${record.type} record comes before the run's start: not a journal as wsbench writes it`,
      );
    switch (record.type) {
      case 'cell-start': {
        const cell = record.index % start.plan.length;
        const window = cellWindow(this.scenario, record.params);
        const label = `${record.server} x ${record.client}${start.repeat > 1 ? ` (round ${record.round + 1})` : ''}`;
        this.open.set(record.index, {
          cell,
          round: record.round,
          label,
          partial: new PartialCell(progressIntervalMs(window.expectedMs), record.atMs),
        });
        return;
      }
      case 'window-open':
        return this.open.get(record.index)?.partial.windowOpened(record.atMs);
      case 'tick':
        return this.open.get(record.index)?.partial.ticks(record.process, record.ticks, record.atMs);
      case 'resources':
        return this.open.get(record.index)?.partial.sample(record.role, record.process, record, record.atMs);
      case 'cell-end': {
        const open = this.open.get(record.index);
        this.open.delete(record.index);
        this.runs[open?.cell ?? record.index % start.plan.length]?.push(record.outcome);
        return;
      }
      case 'run-end':
        this.end = { atMs: record.atMs, interrupted: record.interrupted };
        return;
    }
  }

  /** The result as far as the journal goes; `torn`: the last line, if it was ignored. */
  result(torn: TornLine | null): BenchResult {
    const start = this.start;
    if (!start) throw new UsageError(`${this.path} ends before its run started: nothing was measured`);
    const stoppedAt = new Date(this.lastAtMs).toISOString();
    const reason = this.end
      ? `recovered from journal: the run ended at ${new Date(this.end.atMs).toISOString()} and wsbench stopped before its result was written`
      : `recovered from journal after wsbench stopped at ${stoppedAt}`;
    const runs = this.runs.map((rounds) => [...rounds]);
    const notes: string[] = [];
    if (torn)
      notes.push(`line ${torn.line} of the journal (${torn.bytes} bytes) was torn by a write cut short and is ignored`);
    for (const [, open] of [...this.open].sort(([a], [b]) => a - b)) {
      const run = open.partial.run(reason);
      runs[open.cell]?.push(run);
      const windowS = run.measured ? run.measured.measurements.windowMs / 1000 : 0;
      notes.push(
        run.measured
          ? `${open.label} was cut short ${windowS.toFixed(1)} s into its window: its numbers stop at its last interval in the journal`
          : `${open.label} was cut short before any interval of it reached the journal`,
      );
    }
    const result = runResult(
      {
        info: start.scenario,
        scenario: this.scenario,
        cells: start.plan,
        clientProcesses: start.clientProcesses,
        repeat: start.repeat,
        environment: start.environment,
        startedAt: start.startedAt,
        elapsedMs: (this.end?.atMs ?? this.lastAtMs) - Date.parse(start.startedAt),
        interrupted: this.end ? this.end.interrupted : true,
        coordinationFailure: null,
        ...(start.warnings ? { warnings: start.warnings } : {}),
        ...(this.argv ? { argv: this.argv } : {}),
        ...(start.host !== undefined ? { host: start.host } : {}),
      },
      runs,
    );
    const recovered: RecoveryInfo = { journal: this.path, stoppedAt, reason, notes };
    return { ...result, ...(this.plan ? { plan: this.plan } : {}), recovered };
  }
}

/**
 * The journal's format: one JSON object per line, appended while a run goes
 * on, beside its result file (`<out>.journal`). A line is whole or it is the
 * torn tail of a write cut short (JSON.parse refuses a cut object), so only
 * the last line can be damaged and a reader knows it when it sees it.
 *
 * The first line says what the file is and how to load the scenario again; the
 * engine's events follow as they happen (run start with the plan and the
 * environment, cell start, window open, each client progress message with its
 * interval histograms, each /proc sample, cell end with what the round
 * measured, run end), each stamped with the orchestrator's clock; a last line
 * says the run wrote its result.
 */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { Environment, ScenarioInfo, TestPlanInfo } from '../../shared/types/result-types.js';
import type { CellRun } from '../engine/cell.js';
import type { ProgressTick } from '../../shared/measure/time-series.js';

/** Bumped on any change an older reader would misread. */
export const JOURNAL_VERSION = 1;

/** The journal of the result file at `resultPath`. */
export function journalPathOf(resultPath: string): string {
  return `${resultPath}.journal`;
}

/** The first line. Its first key is `type`, so a reader can tell a journal from a result file by its first bytes. */
export interface JournalHeader {
  type: 'journal';
  version: number;
  /** wsbench's version that wrote it. */
  tool: string;
  pid: number;
  /** The command line after `wsbench`, and where it ran. */
  argv: string[];
  cwd: string;
  /** The result file the run was to write (absolute). */
  out: string;
  /**
   * The scenario as the run was given it (a built-in's name, or a path, resolved against `cwd`), the
   * module it came from, and its name: a rebuild loads it again to compute the metrics.
   */
  scenario: { given: string; url: string; name: string };
  /** The test plan the run was given (--config), as it ran, which the rebuilt result carries as the run's would have. */
  plan?: TestPlanInfo;
}

/** Every record but the header carries the orchestrator's wall clock when it was written (epoch ms). */
interface Stamped {
  atMs: number;
}

export type JournalRecord =
  | (Stamped & {
      type: 'run-start';
      startedAt: string;
      scenario: ScenarioInfo;
      plan: Array<{ server: string; client: string; params: ParamValues; skip: string | null }>;
      repeat: number;
      clientProcesses: number;
      environment: Environment;
      shard?: { index: number; count: number; runId: string };
      /** The result's `warnings` and `host`; absent in journals of earlier versions (read alike: no warnings, host unknown). */
      warnings?: string[];
      host?: string;
    })
  | (Stamped & {
      type: 'cell-start';
      index: number;
      round: number;
      server: string;
      client: string;
      params: ParamValues;
      windowMs: number | null;
    })
  | (Stamped & { type: 'window-open'; index: number })
  /** One client process's progress message: its ticks, each with cumulative counters and that interval's histograms. */
  | (Stamped & { type: 'tick'; index: number; process: number; ticks: ProgressTick[] })
  | (Stamped & {
      type: 'resources';
      index: number;
      role: 'server' | 'client';
      process: number;
      cpuPercent: number;
      cpuSeconds: number;
      rssBytes: number;
    })
  /** `outcome`: what the round measured, exactly as the run's own result is assembled from it. */
  | (Stamped & {
      type: 'cell-end';
      index: number;
      round: number;
      status: 'ok' | 'errors' | 'failed' | 'skipped';
      reason: string | null;
      outcome: CellRun;
    })
  | (Stamped & { type: 'run-end'; interrupted: boolean })
  /** The run wrote its result (or `wsbench recover` did): nothing here waits for a rebuild. */
  | (Stamped & { type: 'end'; result: string | null; by: 'run' | 'recover' });

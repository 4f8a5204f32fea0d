/**
 * What run() tells its listeners while it works. Views (the progress line, CI
 * logs) subscribe to these instead of guessing from counters.
 */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { DecisionLook, Environment, ScenarioInfo } from '../../shared/types/result-types.js';
import type { ProgressTick } from '../../shared/measure/time-series.js';
import type { ResourceSample } from '../measure/proc-sampler.js';

interface CellEventBase {
  /** 0-based position among all cell runs (cells x rounds). */
  index: number;
  total: number;
  /** 0-based round of --repeat. */
  round: number;
  scenario: string;
  server: string;
  client: string;
  params: ParamValues;
}

/**
 * An event of run(), by `type`: run start, cell start, window open, tick, cell end, and the others `onEvent` receives.
 */
export type RunEvent =
  /**
   * Before the first cell: the scenario's declarations and how many cells it expands to; `plan` lists
   * them (cell run `index` is `round * cells + i`), each with why it is skipped (null: it runs).
   */
  | {
      type: 'run-start';
      scenario: ScenarioInfo;
      cells: number;
      repeat: number;
      plan?: Array<{ server: string; client: string; params: ParamValues; skip: string | null; control?: 1 | 2 }>;
      /** Set when this run is one shard of several. */
      shard?: { index: number; count: number; runId: string };
      /** ISO time the run started, as its result says (a journal rebuilds the result from these). */
      startedAt?: string;
      /** The machine and stacks, as the result's `environment`. */
      environment?: Environment;
      /** Load-generating processes per cell. */
      clientProcesses?: number;
      /** What the run does that its numbers will not show, as the result's `warnings`. */
      warnings?: string[];
      /** The loopback address the servers bind, as the result's `host`. */
      host?: string;
    }
  /** A cell round starts its processes; `windowMs` is undefined when the window ends with the clients. */
  | (CellEventBase & { type: 'cell-start'; windowMs: number | undefined })
  /** Every process is connected: the measurement window opened. */
  | { type: 'window-open'; index: number }
  /**
   * Once per progress message while the window is open: client counters summed over processes, cumulative;
   * `progress` is the message itself: which client process sent it and its ticks (interval histograms included).
   */
  | {
      type: 'tick';
      index: number;
      counters: Record<string, number>;
      progress?: { process: number; ticks: ProgressTick[] };
    }
  /** A /proc sample of one process of the cell while the window is open (server: all its processes as one). */
  | ({ type: 'resources'; index: number; role: 'server' | 'client'; process: number } & ResourceSample)
  /**
   * A cell round ended; its result is assembled when every round has run. `outcome` is what the round
   * measured, as the result is assembled from it (a journal keeps it, so a rebuilt cell is the run's own):
   * engine/cell.ts's CellRun, unknown here because cell.ts imports this file (the layers point down).
   */
  | (CellEventBase & {
      type: 'cell-end';
      status: 'ok' | 'errors' | 'failed' | 'skipped';
      reason: string | null;
      saturation?: string;
      notes?: string[];
      outcome?: unknown;
    })
  /**
   * run --until-decided: a look at the data after `look.rounds` rounds; `nextRounds` is where the next
   * look falls (the rounds to run up to), null when this look is the last.
   */
  | { type: 'look'; look: DecisionLook; nextRounds: number | null; plannedLooks: number[] }
  /** After the last cell: whether an interrupt cut the run short. */
  | { type: 'run-end'; interrupted: boolean };

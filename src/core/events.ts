/**
 * What run() tells its listeners while it works. Views (the progress line, CI
 * logs) subscribe to these instead of guessing from counters.
 */
import type { ParamValues } from '../declaration-types.js';
import type { ScenarioInfo } from '../result-types.js';

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

export type RunEvent =
  /** Before the first cell: the scenario's declarations and how many cells it expands to. */
  | { type: 'run-start'; scenario: ScenarioInfo; cells: number; repeat: number }
  /** A cell round starts its processes; `windowMs` is undefined when the window ends with the clients. */
  | (CellEventBase & { type: 'cell-start'; windowMs: number | undefined })
  /** Every process is connected: the measurement window opened. */
  | { type: 'window-open'; index: number }
  /** Once per progress interval while the window is open: client counters summed over processes, cumulative. */
  | { type: 'tick'; index: number; counters: Record<string, number> }
  /** A cell round ended; its result is assembled when every round has run. */
  | (CellEventBase & { type: 'cell-end'; status: 'ok' | 'errors' | 'failed'; reason: string | null });

export type RunEventType = RunEvent['type'];

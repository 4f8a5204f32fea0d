/**
 * The measurement window is the engine's: it lasts the cell's `duration`
 * parameter (or its stages' total, when it has stages), unless the scenario
 * says otherwise with `windowMs` (a window of
 * another length, or none: the clients end it with ctx.done()). Everything
 * that sizes itself to the window (how long the orchestrator waits, how often
 * progress is sampled, what the cell-start event announces) asks here.
 */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import { declaredStages, stagesTotalMs } from '../../shared/parsing/stages.js';

/** Scenarios that end by themselves get this ceiling beyond their duration. */
const OPEN_ENDED_WINDOW_MS = 30 * 60_000;

interface CellWindow {
  /** When the orchestrator closes the window, in ms after it opens; undefined when the clients end it. */
  fixedMs: number | undefined;
  /** About how long it lasts: the fixed window, else the duration. */
  expectedMs: number;
  /**
   * The longest the orchestrator keeps it open: the fixed window, or a ceiling that grows with
   * the duration, so a long run is never cut short while a hung client cannot hold a cell forever.
   */
  limitMs: number;
}

export function cellWindow(scenario: AnyScenario, params: ParamValues): CellWindow {
  const durationMs = typeof params.duration === 'number' ? params.duration : 0;
  // Stages fill the window: it lasts their total, whatever the duration says.
  const stages = declaredStages(scenario.parameters, params);
  const fixedMs =
    stages.length > 0 ? stagesTotalMs(stages) : scenario.windowMs ? scenario.windowMs(params) : durationMs;
  return fixedMs === undefined
    ? { fixedMs, expectedMs: durationMs, limitMs: OPEN_ENDED_WINDOW_MS + durationMs }
    : { fixedMs, expectedMs: fixedMs, limitMs: fixedMs };
}

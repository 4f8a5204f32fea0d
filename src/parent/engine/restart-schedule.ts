/**
 * When a scenario that declares `serverRestart` wants its server killed and
 * started again, for one parameter set: read once from the declaration and
 * checked before anything starts, so a restart that would fall outside the
 * window is bad input, not a cell that fails later.
 */
import { ParameterError } from '../../shared/types/errors.js';
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import { cellWindow } from './window.js';

export interface RestartSchedule {
  /** After the window opens, when the server is killed. */
  atMs: number;
  /** From the kill until the new server is started. */
  downtimeMs: number;
}

/** The restart these parameters ask for; null when the scenario asks for none. Throws a ParameterError when it cannot happen inside the window. */
export function restartSchedule(scenario: AnyScenario, params: ParamValues): RestartSchedule | null {
  const declared = scenario.serverRestart;
  if (!declared) return null;
  const atMs = declared.atMs(params);
  const downtimeMs = declared.downtimeMs(params);
  for (const [what, value] of [
    ['atMs', atMs],
    ['downtimeMs', downtimeMs],
  ] as const) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ParameterError(
        'duration',
        `${scenario.name}'s serverRestart.${what} gave ${String(value)}, not a time in ms`,
      );
    }
  }
  const windowMs = cellWindow(scenario, params).fixedMs;
  if (windowMs !== undefined && atMs + downtimeMs >= windowMs) {
    throw new ParameterError(
      'duration',
      `${windowMs}ms leaves no time after the server restart (killed at ${atMs}ms, down ${downtimeMs}ms): the window must outlast it`,
    );
  }
  return { atMs, downtimeMs };
}

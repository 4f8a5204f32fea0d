/**
 * How long a cell waits for its clients to connect and call ready(). A fixed
 * two minutes made a client that never calls ready() cost two minutes per cell,
 * whatever the window; a scenario whose connect phase is long says so itself.
 */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';

/** For scenarios that declare nothing: enough for thousands of loopback connections. */
export const DEFAULT_READY_TIMEOUT_MS = 15_000;
/** No declaration may keep a cell in its connect phase longer than this. */
export const MAX_READY_TIMEOUT_MS = 10 * 60_000;

/** The scenario's own ready timeout for these parameters, or the default; never above the cap. */
export function readyTimeoutMs(scenario: AnyScenario, params: ParamValues): number {
  const declared = scenario.readyTimeoutMs?.(params);
  if (declared === undefined || !Number.isFinite(declared) || declared <= 0) return DEFAULT_READY_TIMEOUT_MS;
  return Math.min(declared, MAX_READY_TIMEOUT_MS);
}

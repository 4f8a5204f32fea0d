/**
 * defineScenario(): the one way to make a scenario. It infers the parameter and
 * metric types from the object, checks that the declarations hang together
 * (table and chart requests name declared metrics, defaults are in range), and
 * records which module defined it, so child processes can import the same one.
 */
import type { ParameterDeclarations } from '../declaration-types.js';
import {
  SCENARIO_BRAND,
  type MetricDefinition,
  type Scenario,
  type ScenarioDefinition,
  type ScenarioParams,
} from '../scenario-types.js';
import { checkDeclarations } from './check-declarations.js';

export function defineScenario<
  const D extends ParameterDeclarations,
  const M extends Record<string, MetricDefinition<ScenarioParams<D>>>,
>(definition: ScenarioDefinition<D, M>): Scenario<D, M> {
  checkDeclarations(definition);
  return Object.freeze({ ...definition, [SCENARIO_BRAND]: true as const, moduleUrl: callerModuleUrl() });
}

const THIS_MODULE = import.meta.url;

/**
 * The file:// URL of the module that called defineScenario, read off the call
 * stack (ES modules name their URL in every frame); null when it was not a file.
 */
function callerModuleUrl(): string | null {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  for (const frame of frames) {
    const match = /(file:\/\/[^\s)]+?):\d+:\d+\)?\s*$/.exec(frame);
    if (match && match[1] !== THIS_MODULE) return match[1]!;
  }
  return null;
}

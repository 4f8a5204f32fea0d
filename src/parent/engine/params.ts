/**
 * Scenario parameters: typed values from code (numbers in ms and bytes, or text
 * with a unit for durations and sizes; arrays for sweeps) are checked against
 * their declarations and expanded into one parameter set per cell. Errors name
 * the parameter; the command line turns that name into its flag.
 */
import { ParameterError } from '../../shared/types/errors.js';
import { withCommonParameters } from '../../shared/types/common-parameters.js';
import type { ParameterInfo, ParameterSpec, ParamValues } from '../../shared/types/declaration-types.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import { boundOf, readValue, show } from '../../shared/parsing/parameter-values.js';
import { restartSchedule } from './restart-schedule.js';
import { declaredStages, stagesTotalMs } from '../../shared/parsing/stages.js';

type Value = number | boolean | string;

/** How many processes serve a cell (1 unless the serverProcesses parameter says more). */
export function serverProcessCount(params: ParamValues): number {
  return typeof params.serverProcesses === 'number' ? params.serverProcesses : 1;
}

/**
 * The count the client processes split among themselves (a parameter declared `spread: 'processes'`, such as
 * connections) in `params`; of several, the largest (a process with none of any has nothing to do). Null when the
 * scenario declares none.
 */
export function spreadCount(scenario: AnyScenario, params: ParamValues): { name: string; total: number } | null {
  const counts = Object.entries(allParameters(scenario)).flatMap(([name, spec]) =>
    spec.kind === 'integer' && spec.spread === 'processes' && typeof params[name] === 'number'
      ? [{ name, total: params[name] as number }]
      : [],
  );
  return counts.reduce<{ name: string; total: number } | null>(
    (a, b) => (a === null || b.total > a.total ? b : a),
    null,
  );
}

/** A scenario's own parameters followed by the common ones (see common-parameters.ts). */
export function allParameters(scenario: AnyScenario): Record<string, ParameterSpec> {
  return withCommonParameters(scenario.name, scenario.parameters as Record<string, ParameterSpec>, scenario.duration);
}

/** A declaration in the result JSON's terms: defaults and bounds in ms and bytes. */
export function parameterInfo(name: string, spec: ParameterSpec): ParameterInfo {
  const info: ParameterInfo = {
    kind: spec.kind,
    description: spec.description,
    default: readValue(name, spec, spec.default, false),
  };
  if ('min' in spec && spec.min !== undefined) info.min = boundOf(name, spec, spec.min);
  if ('max' in spec && spec.max !== undefined) info.max = boundOf(name, spec, spec.max);
  if (spec.kind === 'choice') info.choices = spec.choices;
  if (spec.sweepable) info.sweepable = true;
  return info;
}

/**
 * The parameter sets of a run: defaults, then the preset, then the given values;
 * an array on a sweepable parameter multiplies the sets. Each set then passes
 * the scenario's own validate(), and a server restart it declares must fit its window.
 */
export function resolveParameterSets(
  scenario: AnyScenario,
  inputs: Readonly<Record<string, unknown>>,
  presetName?: string,
): ParamValues[] {
  const parameters = allParameters(scenario);
  let preset: Record<string, unknown> = {};
  if (presetName !== undefined) {
    const found = (scenario.presets as Record<string, Record<string, unknown>> | undefined)?.[presetName];
    if (!found) {
      const known = Object.keys(scenario.presets ?? {});
      throw new ParameterError(
        'preset',
        `"${presetName}" is not a preset of ${scenario.name} (${known.length ? known.join(', ') : 'it has none'})`,
      );
    }
    preset = found;
  }
  for (const name of Object.keys(inputs)) {
    if (!(name in parameters))
      throw new ParameterError(
        name,
        `not a parameter of ${scenario.name} (its parameters: ${Object.keys(parameters).join(', ')})`,
      );
  }
  const merged = { ...preset, ...inputs };
  let sets: Record<string, Value>[] = [{}];
  for (const [name, spec] of Object.entries(parameters)) {
    const given = merged[name];
    const values = (given === undefined ? [spec.default] : listOf(name, spec, given)).map((v) =>
      readValue(name, spec, v),
    );
    sets = sets.flatMap((set) => values.map((value) => ({ ...set, [name]: value })));
  }
  // Stages fill the window: the duration a cell records is theirs, so what it says is what ran.
  for (const set of sets) {
    const stages = declaredStages(parameters, set);
    if (stages.length === 0 || !('duration' in parameters)) continue;
    const totalMs = stagesTotalMs(stages);
    const name = Object.keys(parameters).find((key) => parameters[key]!.kind === 'stages')!;
    readValue(name, { ...parameters.duration!, description: '' } as ParameterSpec, totalMs);
    set.duration = totalMs;
  }
  for (const set of sets) {
    const problem = scenario.validate?.(set);
    if (problem) throw new ParameterError(problem.parameter, problem.message);
    restartSchedule(scenario, set);
  }
  return sets;
}

function listOf(name: string, spec: ParameterSpec, given: unknown): unknown[] {
  // A list of stages is one value: stages are never swept.
  if (!Array.isArray(given) || spec.kind === 'stages') return [given];
  if (!spec.sweepable) throw new ParameterError(name, `takes one value, not a list (${given.map(show).join(', ')})`);
  if (given.length === 0) throw new ParameterError(name, 'an empty list sweeps nothing');
  return given;
}

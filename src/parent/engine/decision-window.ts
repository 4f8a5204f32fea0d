/**
 * Until decided, what decides is how many paired rounds the budget buys, not
 * how long each window is: the machine's slow drift hits both cells of a round
 * alike, and it is the spread of the rounds' ratios that narrows. On a 2-core
 * box with two busy loops, `echo --servers ws,uws` in 5 s windows left p50 or
 * msg/s undecided in 3 of 5 runs after 11 to 15 rounds in 3 minutes; in 1 s
 * windows all six rankings were decided in 3 of 3 runs after 17 or 18 rounds,
 * in about 70 s. So a run until decided that was given no window (no
 * `duration`, neither by a flag nor by its preset) measures each round in
 * windows of DECISION_WINDOW_MS, where the scenario's window is its `duration`
 * and that parameter allows it; any other scenario keeps its own.
 */
import { ParameterError } from '../../shared/types/errors.js';
import type { AnyScenario } from '../../shared/types/scenario-types.js';
import { cellWindow } from './window.js';
import { resolveParameterSets } from './params.js';

export const DECISION_WINDOW_MS = 1000;

/** The given parameters, with `duration` set to DECISION_WINDOW_MS where a run until decided gets it (see above). */
export function withDecisionWindow(
  scenario: AnyScenario,
  inputs: Readonly<Record<string, unknown>>,
  presetName: string | undefined,
  untilDecided: boolean,
): Readonly<Record<string, unknown>> {
  if (!untilDecided || 'duration' in inputs) return inputs;
  const preset =
    presetName === undefined ? undefined : (scenario.presets as Record<string, object> | undefined)?.[presetName];
  if (preset && 'duration' in preset) return inputs;
  const defaults = resolveParameterSets(scenario, inputs, presetName);
  if (!defaults.every((set) => typeof set.duration === 'number' && set.duration > DECISION_WINDOW_MS)) return inputs;
  const shorter = { ...inputs, duration: DECISION_WINDOW_MS };
  let sets: ReturnType<typeof resolveParameterSets>;
  try {
    sets = resolveParameterSets(scenario, shorter, presetName);
  } catch (error) {
    // Refused (below the parameter's minimum, or by the scenario's own checks): the scenario keeps its window.
    if (error instanceof ParameterError) return inputs;
    throw error;
  }
  // Stages, a message count or a window of the scenario's own make the window something else: it stays.
  const shortened = sets.every(
    (set) => set.duration === DECISION_WINDOW_MS && cellWindow(scenario, set).fixedMs === DECISION_WINDOW_MS,
  );
  return shortened ? shorter : inputs;
}

/** What the run says about it, beside its table. */
export function decisionWindowNote(): string {
  return `--until-decided: each round measured in windows of ${DECISION_WINDOW_MS / 1000} s (no --duration given): the budget buys more paired rounds, which is what decides; --duration sets another window`;
}

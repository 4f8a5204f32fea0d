/**
 * `run` and `capacity` with a test plan: their flags depend on the scenario
 * (one per parameter), so the scenario is found first, on the command line
 * (its first word) or as the plan's `scenario` key, then the plan's other keys
 * are read against that scenario's flags.
 */
import type { Command } from 'commander';
import { UsageError } from '../../../shared/types/errors.js';
import { loadScenario, type LoadedScenario } from '../../../child/scenario-loader.js';
import { scenarioInfo } from '../../engine/scenario-info.js';
import type { ScenarioInfo } from '../../../shared/types/result-types.js';
import { namesNoScenario } from '../scenario-help.js';
import { argsWithPlan, type PlanRecord } from './apply-plan.js';
import { planIn, shownValue, type PlanSource } from './read-plan.js';

interface ScenarioArgs {
  loaded: LoadedScenario;
  info: ScenarioInfo;
  /** The scenario as the command names it: the command line's first word, or the plan's `scenario`. */
  scenario: string;
  /** The words after the scenario, the plan's in front of the command line's. */
  words: string[];
  plan: PlanRecord | null;
}

/**
 * The scenario and the flag words of `args` (a `run` or `capacity` command line after the command's name),
 * with the plan of its --config (or `embedded`, k8s's run section) read in.
 */
export async function scenarioArgs(
  command: 'run' | 'capacity',
  args: string[],
  build: (info: ScenarioInfo, presets: string[]) => Command,
  embedded?: PlanSource,
): Promise<ScenarioArgs> {
  const source = embedded ?? (await planIn(args));
  const named = !namesNoScenario(args);
  const { scenario: planned, ...values } = source?.values ?? {};
  const where = source ? `${source.path}: ${source.prefix}scenario` : '';
  if (!named && planned === undefined)
    throw new UsageError(
      `${source!.path}: name the scenario, as ${source!.prefix}scenario: or as the first word after ${command}`,
    );
  if (!named && typeof planned !== 'string')
    throw new UsageError(`${where}: a scenario's name or the path to its .js file, not ${shownValue(planned)}`);
  const scenario = named ? args[0]! : (planned as string);
  const loaded = await loadScenario(scenario).catch((error: unknown) => {
    throw !named && error instanceof UsageError ? new UsageError(`${where}: ${error.message}`) : error;
  });
  const info = scenarioInfo(loaded.scenario);
  const rest = named ? args.slice(1) : args;
  if (!source) return { loaded, info, scenario, words: rest, plan: null };
  const presets = Object.keys(loaded.scenario.presets ?? {});
  const target = {
    command,
    build: () => build(info, presets),
    parameters: info.parameters,
    scenario: info.name,
    helpCommand: `wsbench ${command} ${info.name} --help`,
  };
  const { args: words, record } = argsWithPlan({ ...source, values }, target, rest);
  const plan: PlanRecord = {
    path: record.path,
    contents: { scenario, ...record.contents },
    commandLine: named ? ['scenario', ...record.commandLine] : record.commandLine,
  };
  return { loaded, info, scenario, words, plan };
}

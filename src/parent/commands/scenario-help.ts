/**
 * `run` and `capacity` before a scenario is named. Their options depend on the
 * scenario, so a bare `wsbench run` used to run echo's whole matrix for minutes
 * without saying so: it now names the scenarios and exits 2 (no command at all is
 * the quick suite), and `--help` shows the options every scenario shares plus
 * the scenarios, each with the command that lists its own parameters.
 */
import type { Command } from 'commander';
import { builtInScenarios, loadScenario } from '../../child/scenario-loader.js';
import { scenarioInfo } from '../engine/scenario-info.js';
import type { ScenarioInfo } from '../../shared/types/result-types.js';
import { UsageError } from '../../shared/types/errors.js';
import { COMMON_PARAMETERS } from '../../shared/types/common-parameters.js';

/** Stands for the scenario in the generic help: the options every scenario shares, no parameters of its own. */
const PLACEHOLDER = '<scenario>';

/** True when the arguments start with a flag (or nothing), so no scenario is named. */
export function namesNoScenario(args: string[]): boolean {
  return args[0] === undefined || args[0].startsWith('-');
}

/**
 * Without a scenario: with --help, prints the shared options and the scenarios (commander ends the
 * process with exit 0 through its help exception); otherwise one line naming the scenarios, exit 2.
 */
export async function answerWithoutScenario(
  commandName: 'run' | 'capacity',
  args: string[],
  build: (info: ScenarioInfo) => Command,
): Promise<never> {
  const scenarios = await builtInScenarioInfos();
  if (args.includes('--help') || args.includes('-h')) {
    const command = build(genericInfo(scenarios[0]!));
    command.addHelpText('after', scenarioListText(commandName, scenarios));
    command.parse(['--help'], { from: 'user' });
  }
  const names = scenarios.map((info) => info.name).join(', ');
  throw new UsageError(
    `${commandName}: name a scenario (${names}, or a path to a .js file); wsbench ${commandName} <scenario> --help lists its options, and wsbench with no command runs the quick suite`,
  );
}

async function builtInScenarioInfos(): Promise<ScenarioInfo[]> {
  return Promise.all(builtInScenarios().map(async (name) => scenarioInfo((await loadScenario(name)).scenario)));
}

/** Any scenario's info with its name, description and own parameters taken out: the common ones (duration, the stacks' settings) stay. */
function genericInfo(any: ScenarioInfo): ScenarioInfo {
  const common = Object.fromEntries(Object.entries(any.parameters).filter(([name]) => name in COMMON_PARAMETERS));
  return {
    ...any,
    name: PLACEHOLDER,
    description: 'Options every scenario takes; the scenarios and their own parameters are listed below.',
    parameters: common,
  };
}

function scenarioListText(commandName: string, scenarios: ScenarioInfo[]): string {
  const width = Math.max(...scenarios.map((info) => info.name.length));
  const lines = scenarios.map((info) => `  ${info.name.padEnd(width)}  ${info.description}`);
  return [
    '',
    'Scenarios (built in; a path to your own .js scenario file works too):',
    ...lines,
    '',
    `A scenario's own parameters: wsbench ${commandName} <scenario> --help (or wsbench list).`,
  ].join('\n');
}

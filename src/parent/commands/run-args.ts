/**
 * `run`'s arguments (after the word `run`) as the library's options: the
 * scenario, its flags, units and limits, all checked by one parser. `run` uses
 * it before it executes; `k8s` uses it on the arguments every pod will be
 * given, so a mistake is refused before a manifest exists.
 */
import type { Command } from 'commander';
import { subcommand } from './subcommand.js';
import { planRun, type RunOptions, type RunPlan } from '../run.js';
import type { LoadedScenario } from '../../child/scenario-loader.js';
import type { ScenarioInfo } from '../../shared/types/result-types.js';
import { addParameterOptions } from './parameter-flags.js';
import { foreignServerOptions, foreignServersGiven, foreignTrustOptions } from './foreign-flags.js';
import { shardOptionsFromFlags, type ShardFlags } from './shard-flags.js';
import { commonOptionsFromFlags, paramsFromFlags, type CommonFlags } from './common-flags.js';
import type { LiveFlags } from './live-flags.js';
import type { JournalFlags } from './journal-flags.js';
import { addFlags, readFlag } from './flags/index.js';
import { scenarioArgs } from './plan/scenario-plan.js';
import type { PlanRecord } from './plan/apply-plan.js';
import type { PlanSource } from './plan/read-plan.js';
import { terminalText } from '../escape/terminal.js';
import { UsageError } from '../../shared/types/errors.js';
import { DEFAULT_DECISION_BUDGET_MS } from '../engine/until-decided.js';

interface RunFlags extends CommonFlags, ShardFlags, LiveFlags, JournalFlags {
  repeat?: string;
  untilDecided?: boolean;
  budget?: string;
  slo?: string;
  control?: boolean;
  summary?: string;
  maxErrors?: string;
}

/** `run`'s arguments read and checked: what executing them needs, nothing started yet. */
export interface ParsedRunArgs {
  loaded: LoadedScenario;
  flags: RunFlags;
  /** The library's options, without the signal and event listener a run adds. */
  options: RunOptions;
  maxErrors: number;
  /** The test plan (--config) as it ran; null without one. */
  plan: PlanRecord | null;
}

/** `run`'s commander command for one scenario: every flag `run` declares (src/parent/commands/flags/), then one per parameter. */
export function runCommand(
  info: ScenarioInfo,
  presets: string[],
): { command: Command; foreign: ReturnType<typeof foreignServersGiven> } {
  const command = subcommand(`wsbench run ${info.name}`).description(terminalText(info.description));
  addFlags(command, 'run', { presets });
  const foreign = foreignServersGiven(command);
  addParameterOptions(command, info.parameters, 'run');
  return { command, foreign };
}

/**
 * Reads `run`'s arguments into options: an unknown scenario, flag or unit, or a value out of
 * range, throws the one-line error the CLI prints. `env` is where --shard env:NAME is read.
 * A test plan (--config, or `embedded`: k8s's run section) is read in first; flags given override it.
 */
export async function parseRunArgs(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  embedded?: PlanSource,
): Promise<ParsedRunArgs> {
  const { loaded, info, words, plan } = await scenarioArgs(
    'run',
    args,
    (i, presets) => runCommand(i, presets).command,
    embedded,
  );
  const { command, foreign } = runCommand(info, Object.keys(loaded.scenario.presets ?? {}));
  command.parse(words, { from: 'user' });
  const flags = command.opts<RunFlags>();
  const shard = shardOptionsFromFlags(
    flags,
    foreign.some((given) => given.flag === '--target'),
    env,
  );
  const options: RunOptions = {
    scenario: loaded.scenario,
    params: paramsFromFlags(info, flags),
    ...commonOptionsFromFlags(flags),
    repeat: readFlag<number>(flags, '--repeat') ?? 1,
    ...untilDecidedFrom(flags),
    ...(flags.slo !== undefined ? { slo: flags.slo } : {}),
    ...(flags.control ? { control: true } : {}),
    ...(foreign.length > 0 ? foreignServerOptions(foreign, flags) : {}),
    ...foreignTrustOptions(flags),
    ...(shard ? { shard } : {}),
  };
  const maxErrors = readFlag<number>(flags, '--max-errors') ?? 0;
  return { loaded, flags, options, maxErrors, plan };
}

/** --until-decided and its --budget as the library's option; --budget alone is refused. */
function untilDecidedFrom(flags: RunFlags): Pick<RunOptions, 'untilDecided'> {
  const budgetMs = readFlag<number>(flags, '--budget');
  if (!flags.untilDecided) {
    if (budgetMs !== undefined)
      throw new UsageError('--budget: it is the time --until-decided may take; give --until-decided too');
    return {};
  }
  return { untilDecided: { budgetMs: budgetMs ?? DEFAULT_DECISION_BUDGET_MS } };
}

/** The words `run` would read from `args` and `embedded` (k8s's run section): the scenario, the plan's flags, then the command line's. */
export async function runWordsWithPlan(args: string[], embedded: PlanSource): Promise<string[]> {
  const { scenario, words } = await scenarioArgs('run', args, (i, presets) => runCommand(i, presets).command, embedded);
  return [scenario, ...words];
}

/** Parses and plans: every check `run` makes before it starts a process, with nothing started. */
export async function planFromRunArgs(args: string[], env: NodeJS.ProcessEnv): Promise<RunPlan> {
  const parsed = await parseRunArgs(args, env);
  return planRun(parsed.options, parsed.loaded);
}

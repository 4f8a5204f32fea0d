/**
 * `run`'s arguments (after the word `run`) as the library's options: the
 * scenario, its flags, units and limits, all checked by one parser. `run` uses
 * it before it executes; `k8s` uses it on the arguments every pod will be
 * given, so a mistake is refused before a manifest exists.
 */
import type { Command } from 'commander';
import { subcommand } from './subcommand.js';
import { planRun, type RunOptions, type RunPlan } from '../run.js';
import { loadScenario, type LoadedScenario } from '../child/scenario-loader.js';
import { scenarioInfo } from '../engine/scenario-info.js';
import type { ScenarioInfo } from '../result-types.js';
import { addParameterOptions } from './parameter-flags.js';
import { addForeignServerOptions, FOREIGN_FLAG_NAMES, foreignServerOptions, foreignTrustOptions } from './foreign-flags.js';
import { addShardOptions, SHARD_FLAG_NAMES, shardOptionsFromFlags, type ShardFlags } from './shard-flags.js';
import { addOutputOptions, addStackOptions, COMMON_FLAG_NAMES, commonOptionsFromFlags, paramsFromFlags, readCount, type CommonFlags } from './common-flags.js';
import { addLiveOptions, LIVE_FLAG_NAMES, type LiveFlags } from './live-flags.js';
import { addJournalOptions, JOURNAL_FLAG_NAMES, type JournalFlags } from './journal-flags.js';
import { terminalText } from '../escape/terminal.js';

const DEFAULT_OUT = 'wsbench-results.json';
/** Flags of `run` itself; a scenario parameter may not reuse these names. */
const RUN_FLAGS = [...COMMON_FLAG_NAMES, 'repeat', 'maxErrors', 'slo', 'control', 'summary', ...FOREIGN_FLAG_NAMES, ...SHARD_FLAG_NAMES, ...LIVE_FLAG_NAMES, ...JOURNAL_FLAG_NAMES];

export interface RunFlags extends CommonFlags, ShardFlags, LiveFlags, JournalFlags {
  repeat?: string;
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
}

export function runCommand(info: ScenarioInfo, presets: string[]): { command: Command; foreign: ReturnType<typeof addForeignServerOptions> } {
  const command = subcommand(`wsbench run ${info.name}`).description(terminalText(info.description));
  addStackOptions(command, {
    servers: 'server stacks, comma separated (default: all; none beside --target or --server-cmd servers unless named)',
    clients: 'client stacks, comma separated (default: all but browser and browser-socketio, which start a real browser: name them)',
  });
  command
    .option('--client-procs <n>', 'load-generating processes per cell', '1')
    .option('--repeat <n>', 'rounds per cell, interleaved over the cells; each cell pools its rounds', '1')
    .option('--max-errors <n>', 'connections a cell may lose or fail to open and still let the run exit 0 (its status stays errors)', '0')
    .option('--summary <file>', 'also append the result as Markdown (table, what to pick, SLO) to this file (e.g. "$GITHUB_STEP_SUMMARY")')
    .option('--control', "measure this machine's noise: the first pair again, as the first and the last cell of every round; the result says how far the two read apart")
    .option(
      '--slo <clauses>',
      "what every cell must keep, e.g. 'p99<10ms,errors=0' (capacity's grammar); judged on each value's 95% interval: pass, fail (exit 1) or inconclusive",
    );
  addOutputOptions(command, {
    out: 'result JSON file',
    defaultOut: DEFAULT_OUT,
    json: 'print the result JSON on stdout instead of the table (--format json)',
    jsonLine: 'print the result as one line of JSON on stdout, for kubectl logs, then wsbench merge (--format json-line)',
    presets,
  });
  const foreign = addForeignServerOptions(command);
  addShardOptions(command);
  addLiveOptions(command);
  addJournalOptions(command);
  addParameterOptions(command, info.parameters, RUN_FLAGS);
  return { command, foreign };
}

/**
 * Reads `run`'s arguments into options: an unknown scenario, flag or unit, or a value out of
 * range, throws the one-line error the CLI prints. `env` is where --shard env:NAME is read.
 */
export async function parseRunArgs(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<ParsedRunArgs> {
  const loaded = await loadScenario(args[0]!);
  const info = scenarioInfo(loaded.scenario);
  const { command, foreign } = runCommand(info, Object.keys(loaded.scenario.presets ?? {}));
  command.parse(args.slice(1), { from: 'user' });
  const flags = command.opts<RunFlags>();
  const shard = shardOptionsFromFlags(flags, foreign.some((given) => given.flag === '--target'), env);
  const options: RunOptions = {
    scenario: loaded.scenario,
    params: paramsFromFlags(info, flags),
    ...commonOptionsFromFlags(flags),
    repeat: readCount('--repeat', flags.repeat ?? '1'),
    ...(flags.slo !== undefined ? { slo: flags.slo } : {}),
    ...(flags.control ? { control: true } : {}),
    ...(foreign.length > 0 ? foreignServerOptions(foreign, flags.serverStartTimeout as string | undefined) : {}),
    ...foreignTrustOptions(flags),
    ...(shard ? { shard } : {}),
  };
  const maxErrors = readCount('--max-errors', flags.maxErrors ?? '0');
  return { loaded, flags, options, maxErrors };
}

/** Parses and plans: every check `run` makes before it starts a process, with nothing started. */
export async function planFromRunArgs(args: string[], env: NodeJS.ProcessEnv): Promise<RunPlan> {
  const parsed = await parseRunArgs(args, env);
  return planRun(parsed.options, parsed.loaded);
}

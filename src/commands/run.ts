/** `wsbench run <scenario>`: scenario flags, one plan, its execution, table or JSON, result file. */
import { Command } from 'commander';
import { execute, planRun, type RunOptions } from '../run.js';
import { loadScenario, type LoadedScenario } from '../core/scenario-loader.js';
import { scenarioInfo } from '../core/scenario-info.js';
import type { ScenarioInfo } from '../result-types.js';
import { checkWritable } from '../result-file.js';
import { lockResultFile } from '../result-lock.js';
import { createProgress } from '../report/progress.js';
import { printAndSave, writeReportAndExitCode } from './run-output.js';
import { addParameterOptions } from './parameter-flags.js';
import { addForeignServerOptions, FOREIGN_FLAG_NAMES, foreignServerOptions, foreignTrustOptions } from './foreign-flags.js';
import { addShardOptions, SHARD_FLAG_NAMES, shardOptionsFromFlags, type ShardFlags } from './shard-flags.js';
import { addOutputOptions, addStackOptions, COMMON_FLAG_NAMES, commonOptionsFromFlags, paramsFromFlags, readCount, type CommonFlags } from './common-flags.js';
import { answerInterrupts } from './interrupts.js';
import { answerWithoutScenario, namesNoScenario } from './scenario-help.js';
import { addLiveOptions, LIVE_FLAG_NAMES, liveViews, startLiveViews, withLiveViews, type LiveFlags } from './live-flags.js';
import { addJournalOptions, endRunJournal, JOURNAL_FLAG_NAMES, openRunJournal, withJournal, type JournalFlags } from './journal-flags.js';

const DEFAULT_OUT = 'wsbench-results.json';
/** Flags of `run` itself; a scenario parameter may not reuse these names. */
const RUN_FLAGS = [...COMMON_FLAG_NAMES, 'repeat', 'maxErrors', ...FOREIGN_FLAG_NAMES, ...SHARD_FLAG_NAMES, ...LIVE_FLAG_NAMES, ...JOURNAL_FLAG_NAMES];

interface RunFlags extends CommonFlags, ShardFlags, LiveFlags, JournalFlags {
  repeat?: string;
  maxErrors?: string;
  jsonLine?: boolean;
}

function runCommand(info: ScenarioInfo, presets: string[]): { command: Command; foreign: ReturnType<typeof addForeignServerOptions> } {
  const command = new Command(`wsbench run ${info.name}`).description(info.description).exitOverride().configureOutput({ writeErr: () => undefined });
  addStackOptions(command, {
    servers: 'server stacks, comma separated (default: all; none beside --target or --server-cmd servers unless named)',
    clients: 'client stacks, comma separated (default: all)',
  });
  command
    .option('--client-procs <n>', 'load-generating processes per cell', '1')
    .option('--repeat <n>', 'rounds per cell, interleaved over the cells; each cell pools its rounds', '1')
    .option('--max-errors <n>', 'connections a cell may lose or fail to open and still let the run exit 0 (its status stays errors)', '0');
  addOutputOptions(command, { out: 'result JSON file', defaultOut: DEFAULT_OUT, json: 'print the result JSON on stdout instead of the table', presets });
  const foreign = addForeignServerOptions(command);
  addShardOptions(command);
  addLiveOptions(command);
  addJournalOptions(command);
  addParameterOptions(command, info.parameters, RUN_FLAGS);
  return { command, foreign };
}

async function executeRun(loaded: LoadedScenario, info: ScenarioInfo, flags: RunFlags, foreign: ReturnType<typeof addForeignServerOptions>): Promise<number> {
  const shard = shardOptionsFromFlags(flags, foreign.some((given) => given.flag === '--target'));
  const live = liveViews(flags);
  const journal = await openRunJournal(flags, loaded);
  const controller = new AbortController();
  const progress = createProgress(process.stderr, flags.json || flags.jsonLine ? 'off' : process.stderr.isTTY === true ? 'tty' : 'lines');
  const options: RunOptions = {
    scenario: loaded.scenario,
    params: paramsFromFlags(info, flags),
    signal: controller.signal,
    ...commonOptionsFromFlags(flags),
    repeat: readCount('--repeat', flags.repeat ?? '1'),
    argv: process.argv.slice(2),
    ...(foreign.length > 0 ? foreignServerOptions(foreign, flags.serverStartTimeout as string | undefined) : {}),
    ...foreignTrustOptions(flags),
    ...(shard ? { shard: { ...shard, onBarrierListening: (address: string) => process.stderr.write(`barrier: run ${shard.runId}, ${shard.count} shards, on ${address}\n`) } } : {}),
    onEvent: withJournal(journal, withLiveViews(live, progress.onEvent)),
  };
  const maxErrors = readCount('--max-errors', flags.maxErrors ?? '0');
  checkWritable(flags.out);
  const plan = await planRun(options, loaded); // every bad input is refused before a process starts
  await startLiveViews(live);

  // One writer per result file: a second run with the same --out is refused, not mixed in.
  const lock = lockResultFile(flags.out);
  const stopAnswering = answerInterrupts(controller, 'cell');
  try {
    const result = await execute(plan, options);
    progress.done();
    const output = { out: flags.out, json: flags.json === true || flags.jsonLine === true, jsonLine: flags.jsonLine === true, png: flags.png === true, maxErrors };
    // Interrupts stay answered until the JSON is on disk: a late one must not cut the write short.
    const saved = printAndSave(result, output);
    await endRunJournal(journal, saved, flags);
    // No child is left to wait for: from here Ctrl+C may simply end the process.
    stopAnswering();
    return await writeReportAndExitCode(result, saved, output);
  } finally {
    stopAnswering();
    await journal?.close();
    lock.release();
    await live.close();
  }
}

/** Parses `run` arguments (after the word `run`) and runs; returns the exit code. */
export async function runFromArgs(args: string[]): Promise<number> {
  if (namesNoScenario(args)) return answerWithoutScenario('run', args, (generic) => runCommand(generic, []).command);
  const loaded = await loadScenario(args[0]!);
  const info = scenarioInfo(loaded.scenario);
  const { command, foreign } = runCommand(info, Object.keys(loaded.scenario.presets ?? {}));
  command.parse(args.slice(1), { from: 'user' });
  return executeRun(loaded, info, command.opts<RunFlags>(), foreign);
}

/** `wsbench run [scenario]`: scenario flags, run(), table or JSON, result file. */
import { Command } from 'commander';
import { UsageError } from '../errors.js';
import { planRun, run, type RunOptions } from '../core/runner.js';
import { killAllChildren } from '../core/processes.js';
import { loadScenario } from '../core/scenario-loader.js';
import { scenarioInfo } from '../core/scenario-info.js';
import type { ScenarioInfo } from '../result-types.js';
import { checkWritable } from '../result-file.js';
import { lockResultFile } from '../result-lock.js';
import { createProgress } from '../report/progress.js';
import { printAndSave, writeReportAndExitCode } from './run-output.js';
import { watchPackageManagerParent } from './npm-parent.js';
import { addParameterOptions, inputFromText } from './parameter-flags.js';
import { addForeignServerOptions, foreignServerOptions } from './foreign-flags.js';
import { addShardOptions, SHARD_FLAG_NAMES, shardOptionsFromFlags, type ShardFlags } from './shard-flags.js';
import { addLiveOptions, LIVE_FLAG_NAMES, liveViews, startLiveViews, withLiveViews, type LiveFlags } from './live-flags.js';

const DEFAULT_OUT = 'wsbench-results.json';
/** Flags of `run` itself; a scenario parameter may not reuse these names. */
const CORE_FLAGS = ['servers', 'clients', 'clientProcs', 'repeat', 'out', 'json', 'preset', 'host', 'png', 'help', 'target', 'targetPid', 'serverCmd', 'serverUrl', 'serverStartTimeout', ...SHARD_FLAG_NAMES, ...LIVE_FLAG_NAMES];
/** After Ctrl+C, children get this long to hand in what they measured. */
const INTERRUPT_GRACE_MS = 5000;
/**
 * A second interrupt within this long of the first is the same one arriving twice
 * (a terminal and a process-group kill both deliver it), not a deliberate "force".
 */
const SAME_INTERRUPT_MS = 1000;

interface RunFlags extends ShardFlags, LiveFlags {
  servers?: string;
  clients?: string;
  clientProcs?: string;
  repeat?: string;
  out: string;
  json?: boolean;
  preset?: string;
  host?: string;
  png?: boolean;
  jsonLine?: boolean;
  [param: string]: unknown;
}

function runCommand(info: ScenarioInfo, presets: string[]): { command: Command; foreign: ReturnType<typeof addForeignServerOptions> } {
  const command = new Command(`wsbench run ${info.name}`)
    .description(info.description)
    .option('--servers <list>', 'server stacks, comma separated (default: all; none beside --target or --server-cmd servers unless named)')
    .option('--clients <list>', 'client stacks, comma separated (default: all)')
    .option('--client-procs <n>', 'load-generating processes per cell', '1')
    .option('--repeat <n>', 'rounds per cell, interleaved over the cells; each cell pools its rounds', '1')
    .option('--out <file>', 'result JSON file', DEFAULT_OUT)
    .option('--json', 'print the result JSON on stdout instead of the table')
    .option('--preset <name>', `parameter preset (${presets.join(', ') || 'none'})`)
    .option('--host <address>', 'loopback address the server binds', '127.0.0.1')
    .option('--png', 'also write charts/*.png beside the SVGs')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  const foreign = addForeignServerOptions(command);
  addShardOptions(command);
  addLiveOptions(command);
  addParameterOptions(command, info.parameters, CORE_FLAGS);
  return { command, foreign };
}

async function executeRun(scenarioArg: string, info: ScenarioInfo, flags: RunFlags, foreign: ReturnType<typeof addForeignServerOptions>): Promise<number> {
  const params: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(info.parameters)) {
    const value = flags[name];
    if (value !== undefined) params[name] = inputFromText(name, parameter, value === true ? true : String(value));
  }
  const shard = shardOptionsFromFlags(flags, foreign.some((given) => given.flag === '--target'));
  const live = liveViews(flags);
  const controller = new AbortController();
  const progress = createProgress(process.stderr, flags.json || flags.jsonLine ? 'off' : process.stderr.isTTY === true ? 'tty' : 'lines');
  const options: RunOptions = {
    scenario: scenarioArg,
    params,
    signal: controller.signal,
    clientProcesses: readCount('--client-procs', flags.clientProcs ?? '1'),
    repeat: readCount('--repeat', flags.repeat ?? '1'),
    ...(flags.servers !== undefined ? { servers: splitList(flags.servers) } : {}),
    ...(flags.clients !== undefined ? { clients: splitList(flags.clients) } : {}),
    ...(flags.preset !== undefined ? { preset: flags.preset } : {}),
    ...(flags.host !== undefined ? { host: flags.host } : {}),
    ...(foreign.length > 0 ? foreignServerOptions(foreign, flags.serverStartTimeout as string | undefined) : {}),
    ...(shard ? { shard: { ...shard, onBarrierListening: (address: string) => process.stderr.write(`barrier: run ${shard.runId}, ${shard.count} shards, on ${address}\n`) } } : {}),
    onEvent: withLiveViews(live, progress.onEvent),
  };
  checkWritable(flags.out);
  await planRun(options); // every bad input is refused before a process starts
  await startLiveViews(live);

  let interruptedAt = 0;
  const onSignal = (): void => {
    if (controller.signal.aborted) {
      if (Date.now() - interruptedAt > SAME_INTERRUPT_MS) killAllChildren();
      return;
    }
    interruptedAt = Date.now();
    process.stderr.write('\ninterrupted: finishing the current cell and writing what was measured (Ctrl+C again to force)\n');
    controller.abort();
    setTimeout(killAllChildren, INTERRUPT_GRACE_MS).unref();
  };
  // One writer per result file: a second run with the same --out is refused, not mixed in.
  const lock = lockResultFile(flags.out);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Under npx, a SIGTERM to npm reaches only npm's shell: its going away is the interrupt (never a second, forcing one).
  const stopWatchingParent = watchPackageManagerParent(() => controller.signal.aborted || onSignal());
  try {
    const result = await run(options);
    progress.done();
    const output = { out: flags.out, json: flags.json === true || flags.jsonLine === true, jsonLine: flags.jsonLine === true, png: flags.png === true };
    // Signals stay handled until the JSON is on disk: a late interrupt must not cut the write short.
    const saved = printAndSave(result, output);
    // No child is left to wait for: from here Ctrl+C may simply end the process.
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopWatchingParent();
    return await writeReportAndExitCode(result, saved, output);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    stopWatchingParent();
    lock.release();
    await live.close();
  }
}

/** A comma list of stack names; empty items are kept so the library can refuse them. */
function splitList(text: string): string[] {
  return text.split(',').map((s) => s.trim());
}

function readCount(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag}: "${text}" is not a whole number`);
  return Number(text);
}

/** Parses `run` arguments (after the word `run`) and runs; returns the exit code. */
export async function runFromArgs(args: string[]): Promise<number> {
  const scenarioArg = args[0] !== undefined && !args[0].startsWith('-') ? args[0] : 'echo';
  const { scenario } = await loadScenario(scenarioArg);
  const info = scenarioInfo(scenario);
  const { command, foreign } = runCommand(info, Object.keys(scenario.presets ?? {}));
  command.parse(args[0] === scenarioArg ? args.slice(1) : args, { from: 'user' });
  return executeRun(scenarioArg, info, command.opts<RunFlags>(), foreign);
}

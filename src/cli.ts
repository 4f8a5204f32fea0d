/**
 * The command line: flags -> RunOptions -> run() -> reporters -> files.
 * Parses, calls, prints; the work happens in the library.
 */
import { Command, CommanderError, Option } from 'commander';
import { UsageError } from './errors.js';
import { toolVersion } from './package-version.js';
import { planRun, run, type RunOptions } from './core/runner.js';
import { killAllChildren } from './core/processes.js';
import { toKebab } from './core/params.js';
import { loadScenario } from './core/scenario-loader.js';
import { checkWritable, writeResultFile } from './result-file.js';
import { renderTable } from './report/table.js';
import { renderList } from './report/list.js';
import { createProgress } from './report/progress.js';
import type { Scenario } from './types.js';

const DEFAULT_OUT = 'wsbench-results.json';
/** Flags of `run` itself; a scenario parameter may not reuse these names. */
const CORE_FLAGS = ['servers', 'clients', 'clientProcs', 'out', 'json', 'preset', 'host', 'help'];
/** After Ctrl+C, children get this long to hand in what they measured. */
const INTERRUPT_GRACE_MS = 5000;

interface RunFlags {
  servers?: string;
  clients?: string;
  clientProcs?: string;
  out: string;
  json?: boolean;
  preset?: string;
  host?: string;
  [param: string]: unknown;
}

async function main(argv: string[]): Promise<number> {
  const args = argv.length === 0 ? ['run', 'echo', '--preset', 'quick'] : argv;
  if (args[0] === 'list') return listCommand(args.slice(1));
  if (args[0] !== 'run' && !args[0]!.startsWith('-')) {
    throw new UsageError(`unknown command "${args[0]}" (commands: run, list; no command runs the quick suite)`);
  }
  if (args[0] !== 'run') return parseTopLevel(args);
  const scenarioArg = args[1] !== undefined && !args[1].startsWith('-') ? args[1] : 'echo';
  const { scenario } = await loadScenario(scenarioArg);
  const command = runCommand(scenario);
  command.parse(args.slice(args[1] === scenarioArg ? 2 : 1), { from: 'user' });
  return executeRun(scenarioArg, scenario, command.opts<RunFlags>());
}

/** Handles `wsbench --help` and `wsbench --version`. */
function parseTopLevel(args: string[]): number {
  const program = new Command('wsbench')
    .version(toolVersion())
    .description('Benchmark JavaScript WebSocket stacks side by side.\nCommands: run [scenario] [options], list. With no command: the quick suite (echo over every stack pair).')
    .exitOverride();
  program.parse(args, { from: 'user' });
  return 0;
}

function runCommand(scenario: Scenario): Command {
  const command = new Command(`wsbench run ${scenario.name}`)
    .description(scenario.description)
    .option('--servers <list>', 'server stacks, comma separated (default: all)')
    .option('--clients <list>', 'client stacks, comma separated (default: all)')
    .option('--client-procs <n>', 'load-generating processes per cell', '1')
    .option('--out <file>', 'result JSON file', DEFAULT_OUT)
    .option('--json', 'print the result JSON on stdout instead of the table')
    .option('--preset <name>', `parameter preset (${Object.keys(scenario.presets ?? {}).join(', ') || 'none'})`)
    .option('--host <address>', 'loopback address the server binds', '127.0.0.1')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  for (const [name, spec] of Object.entries(scenario.parameters)) {
    if (CORE_FLAGS.includes(name)) throw new UsageError(`scenario ${scenario.name}: parameter "${name}" clashes with a wsbench flag`);
    const value = spec.kind === 'boolean' ? '[bool]' : '<value>';
    const sweep = spec.sweepable ? ', comma list sweeps' : '';
    command.addOption(new Option(`--${toKebab(name)} ${value}`, `${spec.description} (${spec.kind}${sweep}; default ${String(spec.default)})`));
  }
  return command;
}

async function executeRun(scenarioArg: string, scenario: Scenario, flags: RunFlags): Promise<number> {
  const params: Record<string, string> = {};
  for (const name of Object.keys(scenario.parameters)) {
    const value = flags[name];
    if (value !== undefined) params[name] = value === true ? 'true' : String(value);
  }
  const controller = new AbortController();
  const progress = createProgress(process.stderr, !flags.json && process.stderr.isTTY === true);
  const options: RunOptions = {
    scenario: scenarioArg,
    params,
    signal: controller.signal,
    clientProcesses: readCount('--client-procs', flags.clientProcs ?? '1'),
    ...(flags.servers !== undefined ? { servers: splitList(flags.servers) } : {}),
    ...(flags.clients !== undefined ? { clients: splitList(flags.clients) } : {}),
    ...(flags.preset !== undefined ? { preset: flags.preset } : {}),
    ...(flags.host !== undefined ? { host: flags.host } : {}),
    onCellStart: progress.cellStart,
    onCellEnd: progress.cellEnd,
    onProgress: progress.counters,
  };
  checkWritable(flags.out);
  await planRun(options); // every bad input is refused before a process starts

  const onSignal = (): void => {
    if (controller.signal.aborted) return killAllChildren();
    process.stderr.write('\ninterrupted: finishing the current cell and writing what was measured (Ctrl+C again to force)\n');
    controller.abort();
    setTimeout(killAllChildren, INTERRUPT_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const result = await run(options);
  progress.done();
  writeResultFile(flags.out, result);
  process.stdout.write(flags.json ? JSON.stringify(result, null, 2) + '\n' : renderTable(result) + '\n');
  if (!flags.json) process.stderr.write(`results: ${flags.out}\n`);
  if (result.interrupted) return 130;
  return result.cells.some((c) => c.status === 'failed') ? 1 : 0;
}

async function listCommand(args: string[]): Promise<number> {
  const command = new Command('wsbench list')
    .option('--json', 'print as JSON')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  command.parse(args, { from: 'user' });
  process.stdout.write(await renderList(command.opts<{ json?: boolean }>().json === true));
  return 0;
}

function splitList(text: string): string[] {
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function readCount(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag}: "${text}" is not a whole number`);
  return Number(text);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') process.exit(0);
      process.stderr.write(`wsbench: ${error.message.replace(/^error: /, '').split('\n')[0]}\n`);
      process.exit(2);
    }
    if (error instanceof UsageError) {
      process.stderr.write(`wsbench: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`wsbench: internal error: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);

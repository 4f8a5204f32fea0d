/**
 * `wsbench capacity <scenario> --slo 'p99<500ms,errors=0'`: the most clients
 * each server holds within an SLO, built-in stacks and your own servers alike
 * (--target, --server-cmd: the flags of `run`). Writes one result file (--out):
 * the steps' cells and the search in its `capacity` section, which `report`
 * and `compare` read like any run's; the report folder beside it has the
 * capacity table and charts.
 */
import type { Command } from 'commander';
import { subcommand } from './subcommand.js';
import { ParameterError, UsageError } from '../errors.js';
import { answerWithoutScenario, namesNoScenario } from './scenario-help.js';
import { loadScenario } from '../child/scenario-loader.js';
import { scenarioInfo } from '../engine/scenario-info.js';
import type { CapacityResult, ScenarioInfo } from '../result-types.js';
import { checkOutputs } from '../result-output.js';
import { lockResultFile } from '../result-lock.js';
import { executeCapacity, planCapacity, type CapacityEvent, type CapacityOptions } from '../capacity/run-capacity.js';
import { addParameterOptions } from './parameter-flags.js';
import { addForeignServerOptions, FOREIGN_FLAG_NAMES, foreignServerOptions } from './foreign-flags.js';
import { addOutputOptions, addStackOptions, COMMON_FLAG_NAMES, commonOptionsFromFlags, paramsFromFlags, readCount, readShare, type CommonFlags } from './common-flags.js';
import { printAndSave, writeOutputFiles } from './run-output.js';
import { outputsFromFlags } from './format-flags.js';
import { terminalText } from '../escape/terminal.js';
import { answerInterrupts, interruptedExitCode } from './interrupts.js';

const DEFAULT_OUT = 'wsbench-capacity.json';
/** Flags of `capacity` itself; a scenario parameter may not reuse these names. */
const CAPACITY_FLAGS = [...COMMON_FLAG_NAMES, ...FOREIGN_FLAG_NAMES, 'slo', 'vary', 'start', 'max', 'resolution', 'maxClientProcesses', 'keepServer'];

interface CapacityFlags extends CommonFlags {
  slo?: string;
  vary?: string;
  start?: string;
  max?: string;
  resolution?: string;
  maxClientProcesses?: string;
  keepServer?: boolean;
  serverStartTimeout?: string;
}

function capacityCommand(info: ScenarioInfo, presets: string[]): { command: Command; foreign: ReturnType<typeof addForeignServerOptions> } {
  const command = subcommand(`wsbench capacity ${info.name}`)
    .description(`The most ${info.name} clients each server holds within an SLO: ramp x2, then bisect; one cell per step.`)
    .option('--slo <clauses>', "what must hold, e.g. 'p99<500ms,errors=0' (p50/p90/p99/p999/mean/max of the primary latency, errors = every errors-role metric, or a metric key)");
  addStackOptions(command, {
    servers: 'server stacks, comma separated (default: all; none beside --target or --server-cmd servers unless named)',
    clients: 'client stacks; each server gets the first that speaks its protocol (default: ws, then the others)',
  });
  command
    .option('--vary <parameter>', 'the whole-number parameter to search', 'connections')
    .option('--start <n>', 'first count of the ramp (default 100)')
    .option('--max <n>', 'highest count tried (default 50000)')
    .option('--resolution <share>', 'stop bisecting when the bracket is within this share of the capacity, e.g. 10% or 0.05', '10%')
    .option('--client-procs <n>', 'client processes of the first step', '1')
    .option('--max-client-processes <n>', 'most client processes a step may use when the load generator saturates (default: the cores)');
  addOutputOptions(command, { out: 'result JSON: the steps\' cells and the search', defaultOut: DEFAULT_OUT, json: 'print the result JSON on stdout instead of the table (--format json)', presets });
  const foreign = addForeignServerOptions(command);
  command.option('--keep-server', 'start each --server-cmd server once and keep it for all its steps (default: a fresh server for every step, as built-in stacks get)');
  addParameterOptions(command, info.parameters, CAPACITY_FLAGS);
  return { command, foreign };
}

export async function capacityFromArgs(args: string[]): Promise<number> {
  if (namesNoScenario(args)) return answerWithoutScenario('capacity', args, (generic) => capacityCommand(generic, []).command);
  const scenarioArg = args[0]!;
  const loaded = await loadScenario(scenarioArg);
  const info = scenarioInfo(loaded.scenario);
  const { command, foreign } = capacityCommand(info, Object.keys(loaded.scenario.presets ?? {}));
  command.parse(args.slice(1), { from: 'user' });
  const flags = command.opts<CapacityFlags>();
  if (flags.slo === undefined) throw new ParameterError('slo', "required: what must hold, e.g. --slo 'p99<500ms,errors=0'");
  const servers = foreign.length > 0 ? foreignServerOptions(foreign, flags.serverStartTimeout) : { targets: [], serverCommands: [] };
  if (flags.keepServer && servers.serverCommands.length === 0) throw new UsageError('--keep-server: it keeps --server-cmd servers, and none is given');
  const controller = new AbortController();
  const outputs = outputsFromFlags(flags, 'capacity', [{ path: flags.out, flag: '--out' }]);
  const options: CapacityOptions = {
    scenario: loaded.scenario,
    slo: flags.slo,
    params: paramsFromFlags(info, flags),
    signal: controller.signal,
    ...commonOptionsFromFlags(flags),
    ...servers,
    ...(flags.keepServer ? { keepServer: true } : {}),
    resolution: readShare('--resolution', flags.resolution ?? '10%'),
    ...(flags.vary !== undefined ? { vary: flags.vary } : {}),
    ...(flags.start !== undefined ? { start: readCount('--start', flags.start) } : {}),
    ...(flags.max !== undefined ? { max: readCount('--max', flags.max) } : {}),
    ...(flags.maxClientProcesses !== undefined ? { maxClientProcesses: readCount('--max-client-processes', flags.maxClientProcesses) } : {}),
    onEvent: outputs.stdout.format.forPeople ? progress(flags.vary ?? 'connections') : undefined,
  };
  checkOutputs(flags.out);
  const plan = await planCapacity(options, loaded); // every bad input is refused before a process starts

  // One writer per result file, as for `run`.
  const lock = lockResultFile(flags.out);
  const stopAnswering = answerInterrupts(controller, 'step');
  try {
    const result = await executeCapacity(plan, options);
    const output = { out: flags.out, outputs, png: flags.png === true };
    // Interrupts stay answered until the JSON is on disk: a late one must not cut the write short.
    const saved = printAndSave(result, output);
    stopAnswering();
    const unwritten = await writeOutputFiles(result, saved, output);
    return exitCode(result, saved.problem !== null || unwritten > 0);
  } finally {
    stopAnswering();
    lock.release();
  }
}

/** 130 interrupted (129 by SIGHUP); 1 when a server's search could not run, the JSON went elsewhere or a --format file was not written; else 0 (a step that broke the SLO is the search working). */
function exitCode(result: CapacityResult, fileProblem: boolean): number {
  if (result.interrupted) return interruptedExitCode();
  return fileProblem || result.capacity.servers.some((s) => s.status === 'failed') ? 1 : 0;
}

/** One stderr line per finished step, so a long search shows where it is. */
function progress(vary: string): (event: CapacityEvent) => void {
  return (event) => {
    if (event.type === 'server-start') process.stderr.write(`${terminalText(`${event.server} x ${event.client}`)}:\n`);
    if (event.type !== 'step-end') return;
    const s = event.step;
    const parts = [
      s.latencyMs === null ? null : `latency ${s.latencyMs} ms`,
      s.errors === null ? null : `errors ${s.errors}`,
      s.serverCpuPercent === null ? null : `srv CPU ${Math.round(s.serverCpuPercent)} %`,
      s.clientCpuPercent.length ? `cli CPU ${s.clientCpuPercent.map((c) => Math.round(c)).join('+')} %` : null,
    ].filter(Boolean);
    const verdict = s.clientSaturated && s.verdict !== 'refused' ? 'load generator saturated' : s.verdict === 'within' ? 'within' : `${s.verdict}: ${s.breaches.join('; ')}`;
    process.stderr.write(`  ${terminalText(`${s.count} ${vary}, ${s.clientProcesses} client proc${s.clientProcesses === 1 ? '' : 's'}: ${parts.join(', ')} -> ${verdict}`)} (${(s.elapsedMs / 1000).toFixed(0)} s)\n`);
  };
}

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
import { ParameterError, UsageError } from '../../shared/types/errors.js';
import { answerWithoutScenario, namesNoScenario } from './scenario-help.js';
import type { CapacityResult, ScenarioInfo } from '../../shared/types/result-types.js';
import { checkOutputs } from '../result-output.js';
import { lockResultFile } from '../results/result-lock.js';
import { executeCapacity, planCapacity, type CapacityEvent, type CapacityOptions } from '../capacity/run-capacity.js';
import { clientSaturationEvidence } from '../capacity/judge.js';
import { INTERRUPTED_STEP } from '../report/capacity/capacity-table.js';
import { addParameterOptions } from './parameter-flags.js';
import { foreignServerOptions, foreignServersGiven } from './foreign-flags.js';
import { commonOptionsFromFlags, paramsFromFlags, type CommonFlags } from './common-flags.js';
import { addFlags, readFlag } from './flags/index.js';
import { scenarioArgs } from './plan/scenario-plan.js';
import { configPathIn } from './plan/read-plan.js';
import { withTestPlan } from './plan/plan-record.js';
import { printAndSave, writeOutputFiles } from './run-output.js';
import { runFilesOf, outputsFromFlags } from './format-flags.js';
import { terminalText } from '../escape/terminal.js';
import { answerInterrupts, holdInterrupts, interruptedExitCode } from './interrupts.js';

interface CapacityFlags extends CommonFlags {
  slo?: string;
  vary?: string;
  start?: string;
  max?: string;
  resolution?: string;
  confirm?: string;
  maxClientProcesses?: string;
  keepServer?: boolean;
  serverStartTimeout?: string;
}

/** `capacity`'s commander command for one scenario: every flag `capacity` declares (src/parent/commands/flags/), then one per parameter. */
function capacityCommand(
  info: ScenarioInfo,
  presets: string[],
): { command: Command; foreign: ReturnType<typeof foreignServersGiven> } {
  const command = subcommand(`wsbench capacity ${info.name}`).description(
    `The most ${info.name} clients each server holds within an SLO: ramp x2, then bisect; one cell per step.`,
  );
  addFlags(command, 'capacity', { presets });
  const foreign = foreignServersGiven(command);
  addParameterOptions(command, info.parameters, 'capacity');
  return { command, foreign };
}

export async function capacityFromArgs(args: string[]): Promise<number> {
  // From here, a Ctrl+C is held until the search can answer it with a result, never fatal.
  holdInterrupts();
  if (namesNoScenario(args) && configPathIn(args) === null) {
    return answerWithoutScenario('capacity', args, (generic) => capacityCommand(generic, []).command);
  }
  const {
    loaded,
    info,
    words,
    plan: testPlan,
  } = await scenarioArgs('capacity', args, (i, presets) => capacityCommand(i, presets).command);
  const { command, foreign } = capacityCommand(info, Object.keys(loaded.scenario.presets ?? {}));
  command.parse(words, { from: 'user' });
  const flags = command.opts<CapacityFlags>();
  if (flags.slo === undefined)
    throw new ParameterError('slo', "required: what must hold, e.g. --slo 'p99<500ms,errors=0'");
  const servers = foreign.length > 0 ? foreignServerOptions(foreign, flags) : { targets: [], serverCommands: [] };
  if (flags.keepServer && servers.serverCommands.length === 0)
    throw new UsageError('--keep-server: it keeps --server-cmd servers, and none is given');
  const controller = new AbortController();
  const outputs = outputsFromFlags(flags, 'capacity', runFilesOf(flags.out));
  const options: CapacityOptions = {
    scenario: loaded.scenario,
    slo: flags.slo,
    params: paramsFromFlags(info, flags),
    signal: controller.signal,
    ...commonOptionsFromFlags(flags),
    ...servers,
    ...(flags.keepServer ? { keepServer: true } : {}),
    resolution: readFlag<number>(flags, '--resolution') ?? 0.1,
    confirm: readFlag<number>(flags, '--confirm') ?? 2,
    ...(flags.vary !== undefined ? { vary: flags.vary } : {}),
    ...(flags.start !== undefined ? { start: readFlag<number>(flags, '--start')! } : {}),
    ...(flags.max !== undefined ? { max: readFlag<number>(flags, '--max')! } : {}),
    ...(flags.maxClientProcesses !== undefined
      ? { maxClientProcesses: readFlag<number>(flags, '--max-client-processes')! }
      : {}),
    onEvent: outputs.stdout.format.forPeople ? progress(flags.vary ?? 'connections') : undefined,
  };
  checkOutputs(flags.out);
  const plan = await planCapacity(options, loaded); // every bad input is refused before a process starts

  // One writer per result file, as for `run`.
  const lock = lockResultFile(flags.out);
  const stopAnswering = answerInterrupts(controller, 'step');
  try {
    const result = withTestPlan(await executeCapacity(plan, options), testPlan);
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
    const verdict =
      s.verdict === 'interrupted'
        ? INTERRUPTED_STEP
        : s.clientSaturated && s.verdict !== 'refused'
          ? `load generator saturated (${clientSaturationEvidence(s)})`
          : s.verdict === 'within'
            ? 'within'
            : `${s.verdict}: ${s.breaches.join('; ')}`;
    process.stderr.write(
      `  ${terminalText(`${s.count} ${vary}, ${s.clientProcesses} client proc${s.clientProcesses === 1 ? '' : 's'}: ${parts.join(', ')} -> ${verdict}`)} (${(s.elapsedMs / 1000).toFixed(0)} s)\n`,
    );
  };
}

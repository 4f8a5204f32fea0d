/**
 * `wsbench capacity <scenario> --slo 'p99<500ms,errors=0'`: the most clients
 * each server stack holds within an SLO. Writes the capacity JSON (--out), the
 * steps' cells as an ordinary result file beside it (<out>-steps.json, for
 * `report` and `compare`), the steps' report and charts, and the capacity charts.
 */
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { ParameterError, UsageError } from '../errors.js';
import { loadScenario } from '../core/scenario-loader.js';
import { scenarioInfo } from '../core/scenario-info.js';
import type { ScenarioInfo } from '../result-types.js';
import { checkWritable, writeResultFile } from '../result-file.js';
import { writeAtomically } from '../write-atomically.js';
import { describeArtifacts, writeArtifacts } from '../report/artifacts.js';
import { executeCapacity, planCapacity, type CapacityEvent, type CapacityOptions } from '../capacity/run-capacity.js';
import { renderCapacityTable } from '../capacity/table.js';
import { capacityCharts } from '../capacity/charts.js';
import { addParameterOptions } from './parameter-flags.js';
import { addOutputOptions, addStackOptions, COMMON_FLAG_NAMES, commonOptionsFromFlags, paramsFromFlags, readCount, readShare, type CommonFlags } from './common-flags.js';
import { answerInterrupts } from './interrupts.js';

const DEFAULT_OUT = 'wsbench-capacity.json';
/** Flags of `capacity` itself; a scenario parameter may not reuse these names. */
const CAPACITY_FLAGS = [...COMMON_FLAG_NAMES, 'slo', 'vary', 'start', 'max', 'resolution', 'maxClientProcesses'];

interface CapacityFlags extends CommonFlags {
  slo?: string;
  vary?: string;
  start?: string;
  max?: string;
  resolution?: string;
  maxClientProcesses?: string;
}

function capacityCommand(info: ScenarioInfo, presets: string[]): Command {
  const command = new Command(`wsbench capacity ${info.name}`)
    .description(`The most ${info.name} clients each server stack holds within an SLO: ramp x2, then bisect; one cell per step.`)
    .option('--slo <clauses>', "what must hold, e.g. 'p99<500ms,errors=0' (p50/p90/p99/p999/mean/max of the primary latency, errors = every errors-role metric, or a metric key)")
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  addStackOptions(command, {
    servers: 'server stacks, comma separated (default: all)',
    clients: 'client stacks; each server gets the first that speaks its protocol (default: ws, then the others)',
  });
  command
    .option('--vary <parameter>', 'the whole-number parameter to search', 'connections')
    .option('--start <n>', 'first count of the ramp (default 100)')
    .option('--max <n>', 'highest count tried (default 50000)')
    .option('--resolution <share>', 'stop bisecting when the bracket is within this share of the capacity, e.g. 10% or 0.05', '10%')
    .option('--client-procs <n>', 'client processes of the first step', '1')
    .option('--max-client-processes <n>', 'most client processes a step may use when the load generator saturates (default: the cores)');
  addOutputOptions(command, { out: 'capacity JSON; the steps go to <file>-steps.json beside it', defaultOut: DEFAULT_OUT, json: 'print the capacity JSON on stdout instead of the table', presets });
  addParameterOptions(command, info.parameters, CAPACITY_FLAGS);
  return command;
}

export async function capacityFromArgs(args: string[]): Promise<number> {
  const scenarioArg = args[0];
  if (scenarioArg === undefined || scenarioArg.startsWith('-')) {
    if (args.includes('--help') || args.includes('-h')) {
      process.stdout.write("usage: wsbench capacity <scenario> --slo 'p99<500ms,errors=0' [options]\n(the options depend on the scenario: wsbench capacity fanout --help)\n");
      return 0;
    }
    throw new UsageError("capacity: name a scenario first, e.g. wsbench capacity fanout --slo 'p99<500ms,errors=0'");
  }
  const loaded = await loadScenario(scenarioArg);
  const info = scenarioInfo(loaded.scenario);
  const command = capacityCommand(info, Object.keys(loaded.scenario.presets ?? {}));
  command.parse(args.slice(1), { from: 'user' });
  const flags = command.opts<CapacityFlags>();
  if (flags.slo === undefined) throw new ParameterError('slo', "required: what must hold, e.g. --slo 'p99<500ms,errors=0'");
  const controller = new AbortController();
  const options: CapacityOptions = {
    scenario: loaded.scenario,
    slo: flags.slo,
    params: paramsFromFlags(info, flags),
    signal: controller.signal,
    ...commonOptionsFromFlags(flags),
    resolution: readShare('--resolution', flags.resolution ?? '10%'),
    ...(flags.vary !== undefined ? { vary: flags.vary } : {}),
    ...(flags.start !== undefined ? { start: readCount('--start', flags.start) } : {}),
    ...(flags.max !== undefined ? { max: readCount('--max', flags.max) } : {}),
    ...(flags.maxClientProcesses !== undefined ? { maxClientProcesses: readCount('--max-client-processes', flags.maxClientProcesses) } : {}),
    onEvent: flags.json ? undefined : progress(flags.vary ?? 'connections'),
  };
  const stepsPath = flags.out.replace(/(\.json)?$/, '-steps.json');
  checkWritable(flags.out);
  checkWritable(stepsPath);
  const plan = await planCapacity(options, loaded); // every bad input is refused before a process starts

  const stopAnswering = answerInterrupts(controller, 'step');
  let outcome;
  try {
    outcome = await executeCapacity(plan, options);
    // Interrupts stay answered until both files are on disk: a late one must not cut the writes short.
    writeAtomically(flags.out, JSON.stringify(outcome.capacity, null, 2) + '\n');
    writeResultFile(stepsPath, outcome.steps);
  } finally {
    stopAnswering();
  }
  process.stdout.write(flags.json ? JSON.stringify(outcome.capacity, null, 2) + '\n' : renderCapacityTable(outcome.capacity) + '\n');
  if (!flags.json) process.stderr.write(`capacity: ${flags.out}\nsteps: ${stepsPath} (wsbench report / compare read it)\n`);
  try {
    const written = await writeArtifacts(outcome.steps, stepsPath, { png: flags.png === true });
    const chartDir = dirname(written.find((p) => p.endsWith('.svg')) ?? join(dirname(stepsPath), 'charts', 'x'));
    written.push(...(await writeCapacityCharts(outcome.capacity, chartDir, flags.png === true)));
    if (!flags.json) process.stderr.write(describeArtifacts(written));
  } catch (error) {
    process.stderr.write(`charts and report not written: ${(error as Error).message.split('\n')[0]}\n`);
  }
  return outcome.capacity.interrupted ? 130 : 0;
}

async function writeCapacityCharts(result: Parameters<typeof capacityCharts>[0], dir: string, png: boolean): Promise<string[]> {
  const { renderSvg, renderPng } = await import('../report/render-svg.js');
  const written: string[] = [];
  for (const chart of capacityCharts(result)) {
    const stem = join(dir, chart.name);
    const svg = await renderSvg(chart.spec);
    written.push(writeAtomically(`${stem}.vl.json`, JSON.stringify(chart.spec, null, 2) + '\n'), writeAtomically(`${stem}.svg`, svg));
    if (png) written.push(writeAtomically(`${stem}.png`, await renderPng(svg)));
  }
  return written;
}

/** One stderr line per finished step, so a long search shows where it is. */
function progress(vary: string): (event: CapacityEvent) => void {
  return (event) => {
    if (event.type === 'server-start') process.stderr.write(`${event.server} x ${event.client}:\n`);
    if (event.type !== 'step-end') return;
    const s = event.step;
    const parts = [
      s.latencyMs === null ? null : `latency ${s.latencyMs} ms`,
      s.errors === null ? null : `errors ${s.errors}`,
      s.serverCpuPercent === null ? null : `srv CPU ${Math.round(s.serverCpuPercent)} %`,
      s.clientCpuPercent.length ? `cli CPU ${s.clientCpuPercent.map((c) => Math.round(c)).join('+')} %` : null,
    ].filter(Boolean);
    const verdict = s.clientSaturated && s.verdict !== 'refused' ? 'load generator saturated' : s.verdict === 'within' ? 'within' : `${s.verdict}: ${s.breaches.join('; ')}`;
    process.stderr.write(`  ${s.count} ${vary}, ${s.clientProcesses} client proc${s.clientProcesses === 1 ? '' : 's'}: ${parts.join(', ')} -> ${verdict} (${(s.elapsedMs / 1000).toFixed(0)} s)\n`);
  };
}

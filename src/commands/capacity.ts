/**
 * `wsbench capacity <scenario> --slo 'p99<500ms,errors=0'`: the most clients
 * each server stack holds within an SLO. Writes the capacity JSON (--out), the
 * steps' cells as an ordinary result file beside it (<out>-steps.json, for
 * `report` and `compare`), the steps' report and charts, and the capacity charts.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Command } from 'commander';
import { ParameterError, UsageError } from '../errors.js';
import { killAllChildren } from '../core/processes.js';
import { loadScenario } from '../core/scenario-loader.js';
import { scenarioInfo } from '../core/scenario-info.js';
import type { ScenarioInfo } from '../result-types.js';
import { checkWritable, writeResultFile } from '../result-file.js';
import { describeArtifacts, writeArtifacts } from '../report/artifacts.js';
import { executeCapacity, planCapacity, type CapacityEvent, type CapacityOptions } from '../capacity/run-capacity.js';
import { renderCapacityTable } from '../capacity/table.js';
import { capacityCharts } from '../capacity/charts.js';
import { addParameterOptions, inputFromText } from './parameter-flags.js';

const DEFAULT_OUT = 'wsbench-capacity.json';
const CORE_FLAGS = ['slo', 'servers', 'clients', 'vary', 'start', 'max', 'resolution', 'clientProcs', 'maxClientProcesses', 'out', 'json', 'preset', 'host', 'png', 'help'];
const INTERRUPT_GRACE_MS = 5000;

interface CapacityFlags {
  slo?: string;
  servers?: string;
  clients?: string;
  vary?: string;
  start?: string;
  max?: string;
  resolution?: string;
  clientProcs?: string;
  maxClientProcesses?: string;
  out: string;
  json?: boolean;
  preset?: string;
  host?: string;
  png?: boolean;
  [param: string]: unknown;
}

function capacityCommand(info: ScenarioInfo, presets: string[]): Command {
  const command = new Command(`wsbench capacity ${info.name}`)
    .description(`The most ${info.name} clients each server stack holds within an SLO: ramp x2, then bisect; one cell per step.`)
    .option('--slo <clauses>', "what must hold, e.g. 'p99<500ms,errors=0' (p50/p90/p99/p999/mean/max of the primary latency, errors = every errors-role metric, or a metric key)")
    .option('--servers <list>', 'server stacks, comma separated (default: all)')
    .option('--clients <list>', 'client stacks; each server gets the first that speaks its protocol (default: ws, then the others)')
    .option('--vary <parameter>', 'the whole-number parameter to search', 'connections')
    .option('--start <n>', 'first count of the ramp (default 100)')
    .option('--max <n>', 'highest count tried (default 50000)')
    .option('--resolution <share>', 'stop bisecting when the bracket is within this share of the capacity, e.g. 10% or 0.05', '10%')
    .option('--client-procs <n>', 'client processes of the first step', '1')
    .option('--max-client-processes <n>', 'most client processes a step may use when the load generator saturates (default: the cores)')
    .option('--out <file>', 'capacity JSON; the steps go to <file>-steps.json beside it', DEFAULT_OUT)
    .option('--json', 'print the capacity JSON on stdout instead of the table')
    .option('--preset <name>', `parameter preset (${presets.join(', ') || 'none'})`)
    .option('--host <address>', 'loopback address the server binds', '127.0.0.1')
    .option('--png', 'also write charts/*.png beside the SVGs')
    .exitOverride()
    .configureOutput({ writeErr: () => undefined });
  addParameterOptions(command, info.parameters, CORE_FLAGS);
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
  const params: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(info.parameters)) {
    const value = flags[name];
    if (value !== undefined) params[name] = inputFromText(name, parameter, value === true ? true : String(value));
  }
  const controller = new AbortController();
  const options: CapacityOptions = {
    scenario: scenarioArg,
    slo: flags.slo,
    params,
    signal: controller.signal,
    clientProcesses: count('--client-procs', flags.clientProcs ?? '1'),
    resolution: share(flags.resolution ?? '10%'),
    ...(flags.vary !== undefined ? { vary: flags.vary } : {}),
    ...(flags.start !== undefined ? { start: count('--start', flags.start) } : {}),
    ...(flags.max !== undefined ? { max: count('--max', flags.max) } : {}),
    ...(flags.maxClientProcesses !== undefined ? { maxClientProcesses: count('--max-client-processes', flags.maxClientProcesses) } : {}),
    ...(flags.servers !== undefined ? { servers: list(flags.servers) } : {}),
    ...(flags.clients !== undefined ? { clients: list(flags.clients) } : {}),
    ...(flags.preset !== undefined ? { preset: flags.preset } : {}),
    ...(flags.host !== undefined ? { host: flags.host } : {}),
    onEvent: flags.json ? undefined : progress(flags.vary ?? 'connections'),
  };
  const stepsPath = flags.out.replace(/(\.json)?$/, '-steps.json');
  checkWritable(flags.out);
  checkWritable(stepsPath);
  const plan = await planCapacity(options, loaded); // every bad input is refused before a process starts

  const onSignal = (): void => {
    if (controller.signal.aborted) return killAllChildren();
    process.stderr.write('\ninterrupted: finishing the current step and writing what was measured (Ctrl+C again to force)\n');
    controller.abort();
    setTimeout(killAllChildren, INTERRUPT_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const outcome = await executeCapacity(plan, options);
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);

  writeAtomically(flags.out, JSON.stringify(outcome.capacity, null, 2) + '\n');
  writeResultFile(stepsPath, outcome.steps);
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

function writeAtomically(path: string, content: string | Buffer): string {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, path);
  return path;
}

function list(text: string): string[] {
  return text.split(',').map((s) => s.trim());
}

function count(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag}: "${text}" is not a whole number`);
  return Number(text);
}

/** "10%" or "0.1" as 0.1. */
function share(text: string): number {
  const percent = text.trim().endsWith('%');
  const value = Number(text.trim().replace(/%$/, ''));
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--resolution: "${text}" is not a share such as 10% or 0.1`);
  return percent ? value / 100 : value;
}

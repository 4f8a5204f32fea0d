/**
 * run(): expands scenario x server x client x parameter sets into cells, skips
 * the pairs that cannot work (with the reason), runs the rest one at a time.
 */
import { UsageError } from '../errors.js';
import { toolVersion } from '../package-version.js';
import { clientStacks, serverStacks } from '../stacks.js';
import type { ParamValues, Scenario } from '../types.js';
import { SCHEMA_VERSION, type BenchResult, type CellResult, type StackInfo } from '../result-types.js';
import { runCell, type CellPlan } from './cell.js';
import { describeEnvironment, probeStacks } from './environment.js';
import { resolveParameterSets } from './params.js';
import { poolRounds } from './rounds.js';
import { loadScenario, type LoadedScenario } from './scenario-loader.js';

export interface RunOptions {
  /** Built-in scenario name or path to a module exporting a Scenario. */
  scenario: string;
  /** Server stacks; default all. */
  servers?: string[];
  /** Client stacks; default all. */
  clients?: string[];
  /** Scenario parameters as text, as on the command line (`{ duration: '5s' }`). */
  params?: Record<string, string>;
  preset?: string;
  /** Load-generating processes per cell. Default 1. */
  clientProcesses?: number;
  /** Rounds per cell, interleaved over the cells; the cell reports medians. Default 1. */
  repeat?: number;
  /** Loopback address the server binds. Default 127.0.0.1. */
  host?: string;
  /** Aborting stops the current cell (marked `interrupted`) and skips the rest. */
  signal?: AbortSignal;
  /** Called when a cell starts and ends. */
  onCellStart?: (cell: CellPlan, index: number, total: number) => void;
  onCellEnd?: (result: CellResult, index: number, total: number) => void;
  /** Client counters summed over processes, about once a second. */
  onProgress?: (counters: Record<string, number>) => void;
}

/** Checks options and builds the plan without starting anything. */
export async function planRun(options: RunOptions) {
  const servers = pickStacks('server', options.servers, Object.keys(serverStacks));
  const clients = pickStacks('client', options.clients, Object.keys(clientStacks));
  const clientProcesses = options.clientProcesses ?? 1;
  if (!Number.isInteger(clientProcesses) || clientProcesses < 1 || clientProcesses > 64) {
    throw new UsageError(`--client-procs: ${clientProcesses} is not a whole number from 1 to 64`);
  }
  const repeat = options.repeat ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 100) throw new UsageError(`--repeat: ${repeat} is not a whole number from 1 to 100`);
  const host = options.host ?? '127.0.0.1';
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) throw new UsageError(`--host: ${host} is not a loopback address (127.x.x.x)`);
  const loaded = await loadScenario(options.scenario);
  const paramSets = resolveParameterSets(loaded.scenario, options.params ?? {}, options.preset);
  for (const params of paramSets) {
    const problem = loaded.scenario.validate?.(params);
    if (problem) throw new UsageError(`${loaded.scenario.name}: ${problem}`);
  }
  return { servers, clients, clientProcesses, repeat, host, loaded, paramSets };
}

export async function run(options: RunOptions): Promise<BenchResult> {
  const startedAt = new Date();
  const plan = await planRun(options);
  const stacks = await probeStacks();
  const signal = options.signal ?? new AbortController().signal;
  const cells = expandCells(plan.loaded, plan.servers, plan.clients, plan.paramSets);
  const skips = cells.map((cell) => whySkip(cell, plan.loaded.scenario, stacks));
  const rounds: CellResult[][] = cells.map(() => []);
  const total = cells.length * plan.repeat;
  // Round-robin over the cells, so slow drift on the machine hits every pair alike.
  for (let round = 0; round < plan.repeat; round++) {
    for (const [i, cell] of cells.entries()) {
      const index = round * cells.length + i;
      if (skips[i] || signal.aborted) {
        if (round === 0 && skips[i]) {
          rounds[i]!.push(skipped(cell, skips[i]!));
          options.onCellEnd?.(rounds[i]![0]!, index, total);
        }
        continue;
      }
      options.onCellStart?.(cell, index, total);
      const result = await runCell(cell, {
        host: plan.host,
        clientProcesses: plan.clientProcesses,
        signal,
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      });
      rounds[i]!.push(result);
      options.onCellEnd?.(result, index, total);
    }
  }
  const results = rounds.map((measured, i) => (measured.length ? poolRounds(measured) : skipped(cells[i]!, 'interrupted before it started')));
  const scenario = plan.loaded.scenario;
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'wsbench', version: toolVersion() },
    startedAt: startedAt.toISOString(),
    elapsedMs: Date.now() - startedAt.getTime(),
    interrupted: signal.aborted,
    environment: describeEnvironment(stacks),
    clientProcesses: plan.clientProcesses,
    ...(plan.repeat > 1 ? { repeat: plan.repeat } : {}),
    scenarios: [{ name: scenario.name, description: scenario.description, columns: scenario.columns }],
    cells: results,
  };
}

function skipped(cell: CellPlan, reason: string): CellResult {
  return { scenario: cell.loaded.scenario.name, server: cell.server, client: cell.client, params: cell.params, status: 'skipped', reason, elapsedMs: 0 };
}

function pickStacks(role: 'server' | 'client', wanted: string[] | undefined, known: string[]): string[] {
  if (wanted === undefined) return known;
  if (wanted.length === 0) throw new UsageError(`--${role}s: give at least one of ${known.join(', ')}`);
  for (const name of wanted) {
    if (!known.includes(name)) throw new UsageError(`--${role}s: unknown ${role} stack "${name}" (known: ${known.join(', ')})`);
  }
  return [...new Set(wanted)];
}

function expandCells(loaded: LoadedScenario, servers: string[], clients: string[], paramSets: ParamValues[]): CellPlan[] {
  return paramSets.flatMap((params) =>
    servers.flatMap((server) => clients.map((client) => ({ loaded, server, client, params }))),
  );
}

/** Incompatible or unavailable pairs are skipped with the reason, never failed. */
function whySkip(cell: CellPlan, scenario: Scenario, stacks: StackInfo[]): string | null {
  const server = stacks.find((s) => s.role === 'server' && s.name === cell.server)!;
  const client = stacks.find((s) => s.role === 'client' && s.name === cell.client)!;
  if (server.protocol !== client.protocol) {
    // Worded without the stack names so the table can fold all such pairs into one line.
    return `a ${server.protocol} server cannot talk to a ${client.protocol} client`;
  }
  if (!server.availability.available) return `server ${cell.server} unavailable: ${server.availability.reason}`;
  if (!client.availability.available) return `client ${cell.client} unavailable: ${client.availability.reason}`;
  if (scenario.requires?.fragmentControl && server.protocol === 'socket.io') {
    return `${scenario.name} needs control over WebSocket frames, which socket.io does not offer`;
  }
  return null;
}

/**
 * A run's plan, made before anything starts: every option checked (errors name
 * the option), the scenario loaded once, its parameter sets resolved, every
 * stack probed once, and the cells expanded (scenario x server x client x
 * parameter set), each with the reason it is skipped, if it is. A caller that
 * runs many steps (capacity) plans again only what changes, with replan().
 */
import { didYouMean } from '../../shared/near-name.js';
import { ParameterError, UsageError } from '../../shared/types/errors.js';
import {
  CLIENTS_ONLY_WHEN_NAMED,
  clientStacks,
  serverStacks,
  type ClientStackName,
  type ServerStackName,
  type StackNameInput,
} from '../../child/stacks.js';
import type { ParameterDeclarations, ParamValues } from '../../shared/types/declaration-types.js';
import type { ScenarioInputs } from '../../shared/types/scenario-types.js';
import type { ScenarioOf, ScenarioRefInput } from '../results/typed-results.js';
import type { ScenarioInfo, StackInfo } from '../../shared/types/result-types.js';
import type { CellPlan } from './cell.js';
import { probeStacks } from './environment.js';
import { resolveParameterSets } from './params.js';
import { raiseOpenFileLimit } from './file-limit.js';
import { loadScenario, type LoadedScenario, type ScenarioRef } from '../../child/scenario-loader.js';
import { scenarioInfo } from './scenario-info.js';
import { whySkip } from './skips.js';
import type { ForeignServerSpec } from '../server-lifecycles/types.js';
import { foreignSpecs, type ServerCommandOption, type TargetOption } from '../server-lifecycles/foreign-options.js';
import { RunTls } from './run-tls.js';
import { decisionWindowNote, withDecisionWindow } from './decision-window.js';
import { checkForeignTls, foreignTrustOf, paramsWithTlsDefault } from './tls-options.js';
import { parseSlo, type Slo } from '../slo/grammar.js';

/**
 * Parameters as code passes them: typed from the scenario when run() gets the scenario itself
 * or a built-in's name ('echo'), free-form for a path.
 */
export type ParamsFor<S> =
  ScenarioOf<S> extends { parameters: infer D extends ParameterDeclarations }
    ? ScenarioInputs<D>
    : Readonly<Record<string, unknown>>;

/**
 * What a run measures: which scenario, against which servers and clients, with which parameters.
 * `Sv`, `Cl`: the server and client names as the caller wrote them, `F` the names of its own servers
 * (targets, serverCommands); run() infers them, so a misspelt stack name does not compile. Their
 * defaults take any name (checked when the run is planned), as names read from input come.
 */
export interface MatrixOptions<
  S extends ScenarioRef = ScenarioRef,
  Sv extends string = string,
  Cl extends string = string,
  F extends string = string,
> {
  /** A built-in scenario's name, a path or file URL of a module exporting one, or the scenario itself. */
  scenario: ScenarioRefInput<S>;
  /**
   * Server stacks; default all, or none when `targets` or `serverCommands` name servers.
   * Names of those may appear here too, to order the rows (a target without a name is named by its host:port).
   */
  servers?: StackNameInput<Sv, ServerStackName | NoInfer<F> | `${string}:${number}`>[];
  /** Servers already running (ws:// or wss:// WebSocket, http(s):// socket.io); only the clients run. */
  targets?: TargetOption<F>[];
  /** Servers started for each cell by a command ({port} and {host} filled in), in any language. */
  serverCommands?: ServerCommandOption<F>[];
  /** Client stacks; default all. */
  clients?: StackNameInput<Cl, ClientStackName>[];
  /** Parameter values: numbers in ms and bytes (or '5s', '4kb'), arrays to sweep. */
  params?: ParamsFor<S>;
  /** A preset of the scenario; `params` override it. */
  preset?: string;
  /** Load-generating processes per cell. Default 1. */
  clientProcesses?: number;
  /** Rounds per cell, interleaved over the cells; the cell pools them. Default 1. */
  repeat?: number;
  /** Loopback address the server binds. Default 127.0.0.1. */
  host?: string;
  /**
   * PEM text of the certificate (or CA) the clients trust for a wss:// or https:// target, or a
   * --server-cmd server with a wss:// URL that does not take {cert} and {key}. Only for such servers.
   */
  ca?: string;
  /** Skip certificate verification for those servers instead (a warning says so in the result); not with `ca`. */
  insecure?: boolean;
  /**
   * What every cell must keep, in capacity's grammar: 'p99<10ms,errors=0' (src/parent/slo/grammar.ts). Each cell is
   * judged against the interval of each value (pass, fail, or inconclusive when it straddles the bound).
   */
  slo?: string;
  /**
   * Measure the machine's own noise: the first pair that runs, measured twice more as two cells, the
   * first and the last of every round; the result's `control` says how far the two read apart.
   */
  control?: boolean;
  /**
   * Keep adding interleaved rounds (after the first `repeat`, at least 3) until every ranking of the picks
   * and every SLO verdict is decided, or `budgetMs` of the run's wall time is spent; the looks share the
   * 5 % out (src/parent/stats/sequential.ts) and the result's `decision` records each.
   */
  untilDecided?: { budgetMs: number };
}

/** One cell of the plan: null `skip` when it runs. */
export interface PlannedCell extends CellPlan {
  skip: string | null;
  /** Set on the two cells of the noise control (`control`): first (1) and last (2) of every round. */
  control?: 1 | 2;
}

export interface MatrixPlan {
  servers: string[];
  clients: string[];
  clientProcesses: number;
  repeat: number;
  host: string;
  loaded: LoadedScenario;
  info: ScenarioInfo;
  paramSets: ParamValues[];
  /** The --target and --server-cmd servers, by the name `servers` lists them under. */
  foreign: ForeignServerSpec[];
  /** Every registered stack, as probed once when the run was planned. */
  stacks: StackInfo[];
  /** Parameter set x server x client, in the order the run measures them. */
  cells: PlannedCell[];
  /** What the plan was made from: replan() changes a part of it. */
  options: Omit<MatrixOptions, 'scenario'>;
  /** The run's TLS: one certificate, made for the first cell with TLS on; replan() keeps it. */
  tls: RunTls;
  /** Things about how the run measures that its numbers do not show (said in the result and under the table). */
  warnings: string[];
  /** The objective every cell is judged against (`slo`), parsed against the scenario's declarations; null without one. */
  slo: Slo | null;
  /** Rounds until decided, within this budget; null for a fixed number of rounds (`repeat`). */
  untilDecided: { budgetMs: number } | null;
}

/** What replan() may change between the steps of one search. */
type PlanChange = Pick<MatrixOptions, 'servers' | 'clients' | 'params' | 'clientProcesses'>;

/** Checks options and builds the plan without starting anything; errors name the option. */
export async function planMatrix(options: MatrixOptions, loaded?: LoadedScenario): Promise<MatrixPlan> {
  if (process.env.WSBENCH_ROLE) {
    throw new UsageError(
      'run() was called inside a wsbench child process: keep a scenario in its own module, apart from the code that calls run()',
    );
  }
  const given = withoutScenario(options);
  const checked = checkOptions(given);
  // Before any check of a parameter set against the limit, and before any child inherits it.
  raiseOpenFileLimit();
  const scenarioModule = loaded ?? (await loadScenario(options.scenario));
  const params = withDecisionWindow(
    scenarioModule.scenario,
    given.params ?? {},
    given.preset,
    given.untilDecided !== undefined,
  );
  const rest = params === (given.params ?? {}) ? given : { ...given, params };
  // Every parameter is checked before the probe, which may run a runtime's binary.
  const paramSets = resolveParameterSets(
    scenarioModule.scenario,
    paramsWithTlsDefault(rest.params, checked.foreign),
    rest.preset,
  );
  checkForeignTls(paramSets, checked.foreign);
  const tls = new RunTls(checked.host, foreignTrustOf(rest, checked.foreign));
  const plan = expand(checked, scenarioModule, paramSets, await probeStacks(), rest, tls);
  if (rest !== given) plan.warnings.push(decisionWindowNote());
  return plan;
}

/** The plan with some options changed: no scenario load and no stack probe; errors name the option. */
export function replan(plan: MatrixPlan, change: PlanChange): MatrixPlan {
  const options = { ...plan.options, ...change };
  const checked = checkOptions(options);
  const paramSets = resolveParameterSets(
    plan.loaded.scenario,
    paramsWithTlsDefault(options.params, checked.foreign),
    options.preset,
  );
  checkForeignTls(paramSets, checked.foreign);
  const next = expand(checked, plan.loaded, paramSets, plan.stacks, options, plan.tls);
  // The shorter window until decided stays in the options, and so does its note.
  if (plan.warnings.includes(decisionWindowNote())) next.warnings.push(decisionWindowNote());
  return next;
}

/** The options a plan keeps: those of MatrixOptions, whatever else the caller's object holds. */
function withoutScenario(options: MatrixOptions): Omit<MatrixOptions, 'scenario'> {
  const keys = [
    'servers',
    'targets',
    'serverCommands',
    'clients',
    'params',
    'preset',
    'clientProcesses',
    'repeat',
    'host',
    'ca',
    'insecure',
    'slo',
    'control',
    'untilDecided',
  ] as const;
  return Object.fromEntries(keys.filter((key) => options[key] !== undefined).map((key) => [key, options[key]]));
}

type CheckedOptions = Pick<MatrixPlan, 'servers' | 'clients' | 'clientProcesses' | 'repeat' | 'host' | 'foreign'>;

function checkOptions(options: Omit<MatrixOptions, 'scenario'>): CheckedOptions {
  const builtIn = Object.keys(serverStacks);
  const foreign = foreignSpecs(options.targets ?? [], options.serverCommands ?? [], builtIn);
  const foreignNames = foreign.map((f) => f.name);
  // Measuring your own server runs it alone unless built-in stacks are asked for beside it.
  const picked = pickStacks('servers', options.servers ?? (foreign.length > 0 ? foreignNames : undefined), [
    ...builtIn,
    ...foreignNames,
  ]);
  const servers = [...picked, ...foreignNames.filter((name) => !picked.includes(name))];
  const clients = pickStacks('clients', options.clients, Object.keys(clientStacks), CLIENTS_ONLY_WHEN_NAMED);
  const clientProcesses = wholeNumber('clientProcesses', options.clientProcesses ?? 1, 1, 64);
  const repeat = wholeNumber('repeat', options.repeat ?? 1, 1, 100);
  const host = options.host ?? '127.0.0.1';
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) && host !== '::1')
    throw new ParameterError('host', `${host} is not a loopback address (127.x.x.x or ::1)`);
  return { servers, clients, clientProcesses, repeat, host, foreign };
}

function expand(
  checked: CheckedOptions,
  loaded: LoadedScenario,
  paramSets: ParamValues[],
  stacks: StackInfo[],
  options: Omit<MatrixOptions, 'scenario'>,
  tls: RunTls,
): MatrixPlan {
  const cells = paramSets.flatMap((params) =>
    checked.servers.flatMap((server) => {
      const foreign = checked.foreign.find((f) => f.name === server);
      return checked.clients.map((client): PlannedCell => {
        const cell: CellPlan = { loaded, server, client, params, ...(foreign ? { foreign } : {}) };
        return { ...cell, skip: whySkip(cell, loaded.scenario, stacks, checked.foreign, tls.foreignTrust) };
      });
    }),
  );
  const warnings = tls.foreignTrust?.insecure ? [insecureWarning(checked.foreign)] : [];
  const info = scenarioInfo(loaded.scenario);
  const pair = options.control ? cells.find((c) => c.skip === null) : undefined;
  if (options.control && !pair)
    throw new ParameterError('control', 'no pair of the run can run here, so none can be its control');
  if (pair) cells.splice(0, cells.length, { ...pair, control: 1 }, ...cells, { ...pair, control: 2 });
  const slo = options.slo !== undefined ? parseSlo(options.slo, info) : null;
  const untilDecided = options.untilDecided ? checkedBudget(options.untilDecided) : null;
  return { ...checked, loaded, info, paramSets, stacks, cells, options, tls, warnings, slo, untilDecided };
}

function checkedBudget(option: { budgetMs: number }): { budgetMs: number } {
  if (typeof option.budgetMs !== 'number' || !Number.isFinite(option.budgetMs) || option.budgetMs <= 0)
    throw new ParameterError('untilDecided', `budgetMs: ${String(option.budgetMs)} is not a duration above 0 in ms`);
  return { budgetMs: option.budgetMs };
}

function insecureWarning(foreign: CheckedOptions['foreign']): string {
  const names = foreign.filter((f) => f.tls && !(f.kind === 'command' && f.takesCertificate)).map((f) => f.name);
  return `--insecure: the clients did not verify the TLS certificate of ${names.join(', ')}; anyone between them could have answered in its place`;
}

function wholeNumber(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new ParameterError(name, `${value} is not a whole number from ${min} to ${max}`);
  return value;
}

/** The stacks `wanted`, checked against `known`; when none are named, every known one but those `onlyWhenNamed`. */
function pickStacks(
  option: 'servers' | 'clients',
  wanted: string[] | undefined,
  known: string[],
  onlyWhenNamed: readonly string[] = [],
): string[] {
  if (wanted === undefined) return known.filter((name) => !onlyWhenNamed.includes(name));
  if (wanted.length === 0) throw new ParameterError(option, `give at least one of ${known.join(', ')}`);
  for (const name of wanted) {
    if (name === '') throw new ParameterError(option, `an empty name in the list (known: ${known.join(', ')})`);
    if (!known.includes(name))
      throw new ParameterError(
        option,
        `unknown ${option.slice(0, -1)} stack "${name}"${didYouMean(name, known)} (known: ${known.join(', ')})`,
      );
  }
  return [...new Set(wanted)];
}

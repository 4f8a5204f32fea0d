/**
 * How the report layer shows a scenario's parameters, in one place: which of
 * them vary between a set of cells (those get a table column, a chart label,
 * a word in a cell's name), which hold one value in every cell (said once, on
 * a header line), and how a value prints ("32B", "10ms", "off"). The table,
 * the charts, compare, the progress line and the merge warnings all use it,
 * so one cell is named the same way everywhere: `echo uws x ws payload=32B`.
 */
import type { ParameterInfo, ParamValues } from '../shared/types/declaration-types.js';
import type { CellResult } from '../shared/types/result-types.js';
import { formatValue } from '../shared/parsing/parameter-values.js';

type Value = ParamValues[string];
/** What naming a cell needs of it. */
type Named = Pick<CellResult, 'scenario' | 'server' | 'client' | 'params'>;

/** A parameter value with its unit when the declaration gives one: 10ms, 32B, 1kB, 5s; '' when absent. */
export function formatParameterValue(info: ParameterInfo | undefined, value: Value | undefined): string {
  if (value === undefined) return '';
  return info ? formatValue(info.kind, value) : String(value);
}

/** `payload=32B`. */
export function parameterText(name: string, info: ParameterInfo | undefined, value: Value | undefined): string {
  return `${name}=${formatParameterValue(info, value)}`;
}

/** The named parameters of a cell, `payload=32B delay=10ms`; '' for none. Names a cell lacks are left out. */
export function parametersText(
  params: ParamValues,
  names: readonly string[],
  parameters: Readonly<Record<string, ParameterInfo>>,
): string {
  return names
    .filter((name) => name in params)
    .map((name) => parameterText(name, parameters[name], params[name]))
    .join(' ');
}

/**
 * Parameters whose value differs somewhere among `cells` (a cell without the
 * parameter differs from one with it), in first-seen order: only they tell
 * the cells apart.
 */
export function variedParameters(cells: ReadonlyArray<Pick<CellResult, 'params'>>): string[] {
  const names = [...new Set(cells.flatMap((c) => Object.keys(c.params)))];
  return names.filter(
    (name) => new Set(cells.map((c) => (name in c.params ? JSON.stringify(c.params[name]) : undefined))).size > 1,
  );
}

/** Parameters every one of `cells` has, with the same value: `[name, value]` in first-seen order. */
function fixedParameters(cells: ReadonlyArray<Pick<CellResult, 'params'>>): Array<[string, Value]> {
  const first = cells[0];
  if (!first) return [];
  const varied = new Set(variedParameters(cells));
  return Object.entries(first.params).filter(([name]) => !varied.has(name));
}

/** `payload=32B duration=5s ...`: what every cell of a scenario ran with; '' when nothing is shared. */
function fixedParametersText(
  cells: ReadonlyArray<Pick<CellResult, 'params' | 'load'>>,
  parameters: Readonly<Record<string, ParameterInfo>>,
): string {
  // Parameters every cell's load text already says (the closed loop's rate=0 and the rest) are not said twice.
  const said = new Set(cells.length > 0 ? cells.flatMap((c) => c.load?.says ?? []) : []);
  const saidByAll = [...said].filter((name) => cells.every((c) => c.load?.says?.includes(name)));
  return fixedParameters(cells)
    .filter(([name]) => !saidByAll.includes(name))
    .map(([name, value]) => parameterText(name, parameters[name], value))
    .join(' ');
}

/**
 * What every cell shares, for the line above a table or under a chart's title: the load model they all ran
 * (`closed loop, 1 conn x 1 in flight`), then the parameters that no column shows; '' when nothing is shared.
 */
export function sharedByEveryCell(
  cells: ReadonlyArray<Pick<CellResult, 'params' | 'load' | 'status'>>,
  parameters: Readonly<Record<string, ParameterInfo>>,
): string {
  const loads = new Set(cells.filter((c) => c.status !== 'skipped').map((c) => c.load?.text ?? ''));
  const load = loads.size === 1 ? [...loads][0]! : '';
  return [load, fixedParametersText(cells, parameters)].filter(Boolean).join('; ');
}

/** `ws x uws`. */
export function pairLabel(cell: Pick<CellResult, 'server' | 'client'>): string {
  return `${cell.server} x ${cell.client}`;
}

/** `ws x uws payload=32B`: the pair and the varied parameters. */
export function cellLabel(
  cell: Named,
  varied: readonly string[],
  parameters: Readonly<Record<string, ParameterInfo>>,
): string {
  const params = parametersText(cell.params, varied, parameters);
  return params ? `${pairLabel(cell)} ${params}` : pairLabel(cell);
}

/**
 * Names cells of one or more scenarios, scenario first: `echo uws x ws payload=32B`.
 * What varies is judged per scenario, among the `cells` given (all the cells the
 * names must tell apart, e.g. both files of a comparison).
 */
export function cellNamer(
  cells: readonly Named[],
  parametersOf: (scenario: string) => Readonly<Record<string, ParameterInfo>> | undefined,
): (cell: Named) => string {
  const variedByScenario = new Map<string, string[]>();
  for (const scenario of new Set(cells.map((c) => c.scenario))) {
    variedByScenario.set(scenario, variedParameters(cells.filter((c) => c.scenario === scenario)));
  }
  return (cell) =>
    `${cell.scenario} ${cellLabel(cell, variedByScenario.get(cell.scenario) ?? [], parametersOf(cell.scenario) ?? {})}`;
}

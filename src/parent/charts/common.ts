/**
 * What every chart builder shares: the chart type, the look, the machine
 * subtitle, cell labels and how a declared metric or parameter is titled.
 * Builders are pure functions of the result JSON and read meaning only from
 * the scenario's declarations (`ScenarioInfo`), never from a name.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Config } from 'vega-lite';
import type { MetricInfo, ParamValues } from '../../shared/types/declaration-types.js';
import {
  isMeasured,
  type BenchResult,
  type CellResult,
  type MeasuredCell,
  type ScenarioInfo,
} from '../../shared/types/result-types.js';
import {
  cellLabel as labelOf,
  sharedByEveryCell,
  formatParameterValue,
  parametersText,
  parameterText,
  variedParameters,
} from '../parameter-labels.js';

/** One chart: written as `charts/<name>.vl.json` and `charts/<name>.svg`. */
export interface ChartSpec {
  /** File name stem, `<scenario>-<kind>[-n]`: lower-case letters, digits and dashes, unique in a result. */
  name: string;
  /** One sentence for the HTML caption: what is drawn and, when it applies, what could not be. */
  caption: string;
  spec: TopLevelSpec;
}

/** A chart as a builder returns it; `buildCharts` names it. */
export type DrawnChart = Omit<ChartSpec, 'name'>;

/** Everything a builder needs about one scenario of a result. */
export interface ScenarioView {
  scenario: ScenarioInfo;
  /** Cells of this scenario that measured something (ok or failed part-way). */
  cells: MeasuredCell[];
  /** Parameters whose value differs between the scenario's cells, in first-seen order (as the table has them). */
  sweptParams: string[];
  /** Title subtitle lines: the machine, the run, and the parameters every cell shares. */
  subtitle: string[];
}

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';

/**
 * Common sans-serif faces first, generic last: the SVG opens in browsers that
 * have Helvetica/Arial, and resvg on a bare Linux box finds DejaVu or Liberation.
 */
const FONT_STACK = 'Helvetica, Arial, "DejaVu Sans", "Liberation Sans", sans-serif';

export const CHART_CONFIG: Config = {
  font: FONT_STACK,
  background: 'white',
  padding: 8,
  title: { anchor: 'start', fontSize: 14, subtitleFontSize: 11, subtitleColor: '#555' },
  axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', labelLimit: 320 },
  legend: { labelFontSize: 11, titleFontSize: 11, labelLimit: 320 },
  header: { labelFontSize: 12, titleFontSize: 12 },
};

export function scenarioView(result: BenchResult, scenario: ScenarioInfo): ScenarioView {
  const all = result.cells.filter((c) => c.scenario === scenario.name);
  const cells = all.filter((c): c is MeasuredCell => isMeasured(c));
  // Judged over every cell of the scenario, as the table judges it, so a chart names a cell as its row does.
  const fixed = sharedByEveryCell(all, scenario.parameters);
  return {
    scenario,
    cells,
    sweptParams: variedParameters(all),
    subtitle: [...machineSubtitle(result), ...(fixed ? [`every cell: ${fixed}`] : [])],
  };
}

export function machineSubtitle(result: BenchResult): string[] {
  const env = result.environment;
  const os = env.osName ?? `${env.platform} ${env.osRelease}`;
  return [
    `${env.cpuModel}, ${env.cpuCores} cores, Node ${env.node}, ${os}`,
    `wsbench ${result.tool.version}, ${result.startedAt.slice(0, 16).replace('T', ' ')} UTC, ${result.clientProcesses} client process${result.clientProcesses === 1 ? '' : 'es'}`,
  ];
}

/** A cell as legends and axes name it: the pair and the varied parameters, `ws x ws payload=1kB`. */
export function cellLabel(view: ScenarioView, cell: CellResult, varied: readonly string[] = view.sweptParams): string {
  return labelOf(cell, varied, view.scenario.parameters);
}

/** The varied parameters of a cell, `payload=1kB delay=10ms`; '' when nothing varies. */
export function variantLabel(view: ScenarioView, cell: CellResult): string {
  return parametersText(cell.params, view.sweptParams, view.scenario.parameters);
}

/** `<scenario>-<chart>`, safe as a file name on every OS. */
export function chartName(scenario: string, chart: string): string {
  return `${scenario}-${chart}`
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The frame every spec shares: schema, title with the machine, the look. */
export function frame(
  view: ScenarioView,
  title: string,
  description: string,
): Pick<TopLevelSpec, '$schema' | 'title' | 'description' | 'config'> {
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: { text: `${view.scenario.name}: ${title}`, subtitle: view.subtitle },
    description,
    config: CHART_CONFIG,
  };
}

type FacetedSpec = Extract<TopLevelSpec, { facet: unknown }>;

/** A chart of panels, one per value of the facet's fields: `panel` says what each draws of `values`. */
export function facetedChart(
  caption: string,
  framed: ReturnType<typeof frame>,
  values: object[],
  facet: FacetedSpec['facet'],
  panel: FacetedSpec['spec'],
): DrawnChart {
  return { caption, spec: { ...framed, data: { values }, facet, spec: panel } };
}

/** The request's own title when it has one, else the builder's. */
export function titleOf(requested: string | undefined, fallback: string, part?: string): string {
  if (requested === undefined) return fallback;
  return part === undefined ? requested : `${requested}: ${part}`;
}

/** Rounds for the inlined data: 4 significant digits is below any noise we measure and keeps files small. */
export function round4(value: number): number {
  return Number.isFinite(value) && value !== 0 ? Number(value.toPrecision(4)) : value;
}

/** A declared metric with its key. Keys the scenario did not declare have no unit, so no chart. */
export interface DeclaredMetric extends MetricInfo {
  key: string;
}

export function declaredMetrics(view: ScenarioView, keys: readonly string[] | undefined): DeclaredMetric[] {
  return (keys ?? []).flatMap((key) => {
    const info = view.scenario.metrics[key];
    return info ? [{ ...info, key }] : [];
  });
}

/**
 * The header without a trailing unit the title adds anyway ("p50 ms" -> "p50");
 * a header that is nothing but its unit ("msg/s") stays whole: titles say
 * what the table's header says, never the metric's key.
 */
export function metricLabel(metric: DeclaredMetric): string {
  const header = metric.header.trim();
  const bare = header.endsWith(` ${metric.unit}`) ? header.slice(0, -metric.unit.length - 1).trim() : header;
  return bare === '' ? header : bare;
}

/** An axis or legend title: "p99 (ms, log scale)"; "msg/s (log scale)" when the header is the unit. */
export function metricTitle(metric: DeclaredMetric, scale?: string): string {
  const label = metricLabel(metric);
  if (label === metric.unit) return scale ? `${label} (${scale})` : label;
  return `${label} (${metric.unit}${scale ? `, ${scale}` : ''})`;
}

/** A metric's value in a cell, when it is a finite number. */
export function metricValue(cell: MeasuredCell, key: string): number | null {
  const value = cell.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The unit a parameter's values are held in: durations ms, sizes bytes, integers a count; null when it has none. */
function parameterUnit(view: ScenarioView, parameter: string): string | null {
  switch (view.scenario.parameters[parameter]?.kind) {
    case 'duration':
      return 'ms';
    case 'size':
      return 'bytes';
    case 'integer':
      return 'count';
    default:
      return null;
  }
}

/** An axis title for a parameter: "delay (ms, log scale)", "mode". */
export function parameterTitle(view: ScenarioView, parameter: string, scale?: string): string {
  const notes = [parameterUnit(view, parameter), scale].filter((n): n is string => typeof n === 'string');
  return notes.length > 0 ? `${parameter} (${notes.join(', ')})` : parameter;
}

/** One parameter value as the table prints it: "10ms", "1kB", "off". */
export function parameterValueText(
  view: ScenarioView,
  parameter: string,
  value: ParamValues[string] | undefined,
): string {
  return formatParameterValue(view.scenario.parameters[parameter], value);
}

/** One parameter value as a facet header, as the table prints it: "delay=10ms". */
export function parameterValueLabel(
  view: ScenarioView,
  parameter: string,
  value: ParamValues[string] | undefined,
): string {
  return parameterText(parameter, view.scenario.parameters[parameter], value);
}

/** Distinct values of a parameter over cells, numbers in numeric order, others as first seen. */
export function parameterValues(cells: CellResult[], parameter: string): Array<number | string | boolean> {
  const values = [...new Set(cells.flatMap((c) => (parameter in c.params ? [c.params[parameter]!] : [])))];
  return values.every((v) => typeof v === 'number') ? (values as number[]).sort((a, b) => a - b) : values;
}

/** First-seen order of a field, for `sort` on nominal axes. */
export function firstSeen<T>(items: T[], key: (item: T) => string): string[] {
  return [...new Set(items.map(key))];
}

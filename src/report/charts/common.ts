/**
 * What every chart builder shares: the chart type, the look, the machine
 * subtitle, cell labels and how a declared metric or parameter is titled.
 * Builders are pure functions of the result JSON and read meaning only from
 * the scenario's declarations (`ScenarioInfo`), never from a name.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Config } from 'vega-lite';
import type { MetricInfo } from '../../declaration-types.js';
import { isMeasured, type BenchResult, type CellResult, type MeasuredCell, type ScenarioInfo } from '../../result-types.js';

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
  /** Parameters whose value differs between those cells, in first-seen order. */
  sweptParams: string[];
  /** Title subtitle lines: the machine, then the run. */
  subtitle: string[];
}

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v5.json';

/**
 * Common sans-serif faces first, generic last: the SVG opens in browsers that
 * have Helvetica/Arial, and resvg on a bare Linux box finds DejaVu or Liberation.
 */
export const FONT_STACK = 'Helvetica, Arial, "DejaVu Sans", "Liberation Sans", sans-serif';

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
  const cells = result.cells.filter((c): c is MeasuredCell => c.scenario === scenario.name && isMeasured(c));
  return { scenario, cells, sweptParams: sweptParams(cells), subtitle: machineSubtitle(result) };
}

export function machineSubtitle(result: BenchResult): string[] {
  const env = result.environment;
  const os = env.osName ?? `${env.platform} ${env.osRelease}`;
  return [
    `${env.cpuModel}, ${env.cpuCores} cores, Node ${env.node}, ${os}`,
    `wsbench ${result.tool.version}, ${result.startedAt.slice(0, 16).replace('T', ' ')} UTC, ${result.clientProcesses} client process${result.clientProcesses === 1 ? '' : 'es'}`,
  ];
}

/** Same rule as the terminal table: a parameter deserves a label only when it varies. */
function sweptParams(cells: CellResult[]): string[] {
  const keys = [...new Set(cells.flatMap((c) => Object.keys(c.params)))];
  return keys.filter((key) => cells.some((c) => c.params[key] !== cells[0]!.params[key]));
}

export function pairLabel(cell: CellResult): string {
  return `${cell.server} x ${cell.client}`;
}

/** The swept parameters of a cell, e.g. "a=100, b=32"; '' when nothing is swept. */
export function variantLabel(cell: CellResult, swept: string[]): string {
  return swept.map((key) => `${key}=${String(cell.params[key])}`).join(', ');
}

/** Pair plus variant: unique per cell within a scenario. */
export function cellLabel(cell: CellResult, swept: string[]): string {
  const variant = variantLabel(cell, swept);
  return variant ? `${pairLabel(cell)} (${variant})` : pairLabel(cell);
}

/** `<scenario>-<chart>`, safe as a file name on every OS. */
export function chartName(scenario: string, chart: string): string {
  return `${scenario}-${chart}`.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** The frame every spec shares: schema, title with the machine, the look. */
export function frame(view: ScenarioView, title: string, description: string): Pick<TopLevelSpec, '$schema' | 'title' | 'description' | 'config'> {
  return {
    $schema: VEGA_LITE_SCHEMA,
    title: { text: `${view.scenario.name}: ${title}`, subtitle: view.subtitle },
    description,
    config: CHART_CONFIG,
  };
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

/** The header without a trailing unit the title adds anyway ("p50 ms" -> "p50"); the key when nothing is left. */
export function metricLabel(metric: DeclaredMetric): string {
  const header = metric.header.trim();
  const bare = header.endsWith(` ${metric.unit}`) ? header.slice(0, -metric.unit.length - 1).trim() : header === metric.unit ? '' : header;
  return bare === '' ? metric.key : bare;
}

/** An axis or legend title: "p99 (ms, log scale)". */
export function metricTitle(metric: DeclaredMetric, scale?: string): string {
  return `${metricLabel(metric)} (${metric.unit}${scale ? `, ${scale}` : ''})`;
}

/** A metric's value in a cell, when it is a finite number. */
export function metricValue(cell: MeasuredCell, key: string): number | null {
  const value = cell.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The unit a parameter's values are held in: durations ms, sizes bytes, integers a count; null when it has none. */
export function parameterUnit(view: ScenarioView, parameter: string): string | null {
  switch (view.scenario.parameters[parameter]?.kind) {
    case 'duration': return 'ms';
    case 'size': return 'bytes';
    case 'integer': return 'count';
    default: return null;
  }
}

/** An axis title for a parameter: "delay (ms, log scale)", "mode". */
export function parameterTitle(view: ScenarioView, parameter: string, scale?: string): string {
  const notes = [parameterUnit(view, parameter), scale].filter((n): n is string => typeof n === 'string');
  return notes.length > 0 ? `${parameter} (${notes.join(', ')})` : parameter;
}

/** One parameter value as a facet header: "delay = 10 ms". */
export function parameterValueLabel(view: ScenarioView, parameter: string, value: unknown): string {
  const unit = parameterUnit(view, parameter);
  return `${parameter} = ${String(value)}${unit === 'ms' || unit === 'bytes' ? ` ${unit}` : ''}`;
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

/**
 * What every chart builder shares: the chart type, the look, the machine
 * subtitle and the cell labels. Builders are pure functions of the result JSON.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Config } from 'vega-lite';
import type { BenchResult, CellResult, Environment, ScenarioInfo } from '../../result-types.js';

/** One chart: written as `charts/<name>.vl.json` and `charts/<name>.svg`. */
export interface ChartSpec {
  /** File name stem, `<scenario>-<chart>`, lower-case letters, digits and dashes. */
  name: string;
  /** One sentence for the HTML caption: what is drawn and, when it applies, what could not be. */
  caption: string;
  spec: TopLevelSpec;
}

/** Everything a builder needs about one scenario of a result. */
export interface ScenarioView {
  scenario: ScenarioInfo;
  /** Cells of this scenario that measured something (ok or failed part-way). */
  cells: CellResult[];
  /** Parameters whose value differs between the scenario's cells, in declaration order. */
  sweptParams: string[];
  environment: Environment;
  /** Title subtitle lines: the machine, then the run. */
  subtitle: string[];
}

export type ChartBuilder = (view: ScenarioView) => ChartSpec[];

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

export function scenarioViews(result: BenchResult): ScenarioView[] {
  const subtitle = machineSubtitle(result);
  return result.scenarios.map((scenario) => {
    const all = result.cells.filter((c) => c.scenario === scenario.name);
    return {
      scenario,
      cells: all.filter((c) => c.measurements !== undefined),
      sweptParams: sweptParams(all),
      environment: result.environment,
      subtitle,
    };
  });
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
  const first = cells[0]?.params ?? {};
  return Object.keys(first).filter((key) => cells.some((c) => c.params[key] !== first[key]));
}

export function pairLabel(cell: CellResult): string {
  return `${cell.server} x ${cell.client}`;
}

/** The swept parameters of a cell, e.g. "connections=100, payload=32"; '' when nothing is swept. */
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
    title: { text: title, subtitle: view.subtitle },
    description,
    config: CHART_CONFIG,
  };
}

/** Rounds for the inlined data: 4 significant digits is below any noise we measure and keeps files small. */
export function round4(value: number): number {
  return Number.isFinite(value) && value !== 0 ? Number(value.toPrecision(4)) : value;
}

/**
 * Which charts a result gets: exactly those its scenarios asked for, in their
 * order, each drawn by the builder of its kind from the declarations in the
 * JSON. A request whose data the result lacks (or a kind this version does not
 * know) draws nothing, so a chart never shows empty axes.
 */
import type { ChartKind, ChartRequest } from '../../declaration-types.js';
import type { BenchResult } from '../../result-types.js';
import { chartName, scenarioView, type ChartSpec, type DrawnChart, type ScenarioView } from './common.js';
import { byParameterCharts } from './by-parameter.js';
import { gridCharts } from './grid.js';
import { heatmapChart } from './heatmap.js';
import { overTimeCharts } from './over-time.js';
import { percentilesChart } from './percentiles.js';
import { resourcesChart } from './resources.js';
import { sizesChart } from './sizes.js';

type Builder<K extends ChartKind> = (view: ScenarioView, request: Extract<ChartRequest, { kind: K }>) => DrawnChart[];

export const CHART_BUILDERS: { [K in ChartKind]: Builder<K> } = {
  percentiles: percentilesChart,
  heatmap: heatmapChart,
  'over-time': overTimeCharts,
  grid: gridCharts,
  'by-parameter': byParameterCharts,
  sizes: sizesChart,
  resources: resourcesChart,
};

/** The charts one request draws; none for a kind this version does not know. */
export function drawRequest(view: ScenarioView, request: ChartRequest): DrawnChart[] {
  const builder = (CHART_BUILDERS as Record<string, Builder<ChartKind> | undefined>)[request.kind];
  return builder ? builder(view, request) : [];
}

/** Charts per scenario, in the order the scenarios and their requests come; names unique in the result. */
export function buildCharts(result: BenchResult): Array<{ scenario: string; charts: ChartSpec[] }> {
  const taken = new Set<string>();
  const uniqueName = (scenario: string, kind: string): string => {
    const base = chartName(scenario, kind);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    return name;
  };
  return result.scenarios.map((scenario) => {
    const view = scenarioView(result, scenario);
    const charts = scenario.charts.flatMap((request) =>
      drawRequest(view, request).map((drawn) => ({ name: uniqueName(scenario.name, request.kind), ...drawn })),
    );
    return { scenario: scenario.name, charts };
  });
}

export type { ChartSpec } from './common.js';

/**
 * Which charts a result gets: exactly those its scenarios asked for, in their
 * order, each drawn by the builder of its kind from the declarations in the
 * JSON. A request whose data the result lacks draws nothing, so a chart never
 * shows empty axes; a request that is wrong (its shape, a name it gives, a kind
 * this version does not know: see request-check.ts) draws what it can, and
 * what it does not draw is said, by its key path in the file. A capacity
 * result also gets its search drawn (capacity.ts), ahead of the steps' charts.
 */
import type { ChartKind, ChartRequest } from '../../shared/types/declaration-types.js';
import type { BenchResult, CapacityResult } from '../../shared/types/result-types.js';
import { chartName, scenarioView, type ChartSpec, type DrawnChart, type ScenarioView } from './common.js';
import { checkRequest } from './request-check.js';
import { vegaSafeSpec } from '../escape/vega.js';
import { byParameterCharts } from './by-parameter.js';
import { cumulativeChart } from './cumulative.js';
import { capacityCharts } from './capacity.js';
import { gridCharts } from './grid.js';
import { heatmapChart } from './heatmap.js';
import { overTimeCharts } from './over-time.js';
import { offeredLoadChart } from './offered-load.js';
import { percentilesChart } from './percentiles.js';
import { resourcesChart } from './resources.js';
import { sizesChart } from './sizes.js';

type Builder<K extends ChartKind> = (view: ScenarioView, request: Extract<ChartRequest, { kind: K }>) => DrawnChart[];

const CHART_BUILDERS: { [K in ChartKind]: Builder<K> } = {
  percentiles: percentilesChart,
  heatmap: heatmapChart,
  'over-time': overTimeCharts,
  grid: gridCharts,
  'by-parameter': byParameterCharts,
  sizes: sizesChart,
  cumulative: cumulativeChart,
  resources: resourcesChart,
  'offered-load': offeredLoadChart,
};

/** The charts one checked request draws, every text in their specs made safe for Vega (src/parent/escape/vega.ts). */
export function drawRequest(view: ScenarioView, request: ChartRequest): DrawnChart[] {
  const builder = CHART_BUILDERS[request.kind] as Builder<ChartKind>;
  return builder(view, request).map((drawn) => ({ ...drawn, spec: vegaSafeSpec(drawn.spec) }));
}

/** One scenario's charts, and a line for each request (or part of one) not drawn: `scenarios[0].charts[2] (sizes): not drawn: ...`. */
interface ScenarioCharts {
  scenario: string;
  /** The capacity search's charts, for the scenario a capacity result searched; empty otherwise. */
  capacity: ChartSpec[];
  charts: ChartSpec[];
  notDrawn: string[];
}

/** Charts per scenario, in the order the scenarios and their requests come (a capacity search's first); names unique in the result. */
export function buildCharts(result: BenchResult): Array<{ scenario: string; charts: ChartSpec[] }> {
  return buildChartsAndProblems(result).map(({ scenario, capacity, charts }) => ({
    scenario,
    charts: [...capacity, ...charts],
  }));
}

/** As buildCharts, with what was not drawn and why. */
export function buildChartsAndProblems(result: BenchResult): ScenarioCharts[] {
  const taken = new Set<string>();
  const uniqueName = (scenario: string, kind: string): string => {
    const base = chartName(scenario, kind);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    return name;
  };
  return result.scenarios.map((scenario, s) => {
    const view = scenarioView(result, scenario);
    // A capacity result holds the one scenario it searched.
    const searched = result.capacity && s === 0 ? capacityCharts(view, result as CapacityResult) : [];
    const capacity = searched.map(({ kind, ...drawn }) => ({
      name: uniqueName(scenario.name, kind),
      ...drawn,
      spec: vegaSafeSpec(drawn.spec),
    }));
    const notDrawn: string[] = [];
    const charts = scenario.charts.flatMap((request, r) => {
      const { drawable, problems } = checkRequest(view, request);
      notDrawn.push(...problemLines(s, r, request, problems));
      return drawable
        ? drawRequest(view, drawable).map((drawn) => ({ name: uniqueName(scenario.name, drawable.kind), ...drawn }))
        : [];
    });
    return { scenario: scenario.name, capacity, charts, notDrawn };
  });
}

/** What buildChartsAndProblems would say is not drawn, without drawing anything. */
export function chartProblems(result: BenchResult): string[] {
  return result.scenarios.flatMap((scenario, s) => {
    const view = scenarioView(result, scenario);
    return scenario.charts.flatMap((request, r) => problemLines(s, r, request, checkRequest(view, request).problems));
  });
}

/** Each problem of request `r` of scenario `s`, by its key path in the file. */
function problemLines(s: number, r: number, request: unknown, problems: string[]): string[] {
  const kind = (request as { kind?: unknown } | null)?.kind;
  return problems.map((p) => `scenarios[${s}].charts[${r}] (${typeof kind === 'string' ? kind : 'no kind'}): ${p}`);
}

export type { ChartSpec } from './common.js';

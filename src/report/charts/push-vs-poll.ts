/**
 * push-vs-poll: box plots and mean bars of WebSocket push against REST
 * polling, one panel per test (the seed's figure). Which histogram belongs to
 * which side is read from its name (`ws...`/`push...` vs `rest...`/`poll...`),
 * else from a swept `mode`-like parameter; the rest of the name is the test.
 */
import type { CellResult } from '../../result-types.js';
import { cellLabel, chartName, frame, variantLabel, type ChartSpec, type ScenarioView } from './common.js';
import { boxStats, histogramSeries } from './histograms.js';

/** The parameter naming the seed's test (continuous / sustained); else the test comes from the histogram name. */
const TEST_PARAM = 'test';
const REST = /rest|poll|http/i;
const PUSH = /websocket|push|ws|socket/i;
/** Words that only say which side a histogram is on; what is left names the test. */
const SIDE_WORDS = /websocket|push|poll(ing)?|rest|http|ws|socket|latency|delay|ms$/gi;

export function transportOf(histogram: string, cell: CellResult, swept: string[]): string {
  if (REST.test(histogram)) return 'REST polling';
  if (PUSH.test(histogram)) return 'WebSocket push';
  const variant = variantLabel(cell, swept);
  if (REST.test(variant)) return 'REST polling';
  if (PUSH.test(variant)) return 'WebSocket push';
  return histogram;
}

export function testOf(histogram: string): string {
  const rest = histogram.replace(SIDE_WORDS, '').replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  return rest === '' ? 'all updates' : rest.charAt(0).toLowerCase() + rest.slice(1);
}

export function pushVsPollCharts(view: ScenarioView): ChartSpec[] {
  // The scenario sweeps `test` as a parameter; other swept parameters (e.g. pollInterval) split the rows.
  const rowParams = view.sweptParams.filter((p) => p !== TEST_PARAM);
  const values = histogramSeries(view.cells)
    .filter((s) => !s.name.startsWith('server '))
    .map((s) => ({
      pair: cellLabel(s.cell, rowParams),
      transport: transportOf(s.name, s.cell, rowParams),
      test: typeof s.cell.params[TEST_PARAM] === 'string' ? String(s.cell.params[TEST_PARAM]) : testOf(s.name),
      ...boxStats(s.histogram),
    }));
  if (values.length === 0) return [];
  const pairs = new Set(values.map((v) => v.pair)).size;
  const facet = {
    column: { field: 'test', type: 'nominal', title: 'test' },
    ...(pairs > 1 ? { row: { field: 'pair', type: 'nominal' as const, title: 'server x client' } } : {}),
  } as const;
  const x = { field: 'transport', type: 'nominal', title: null, axis: { labelAngle: 0 } } as const;
  const color = { field: 'transport', type: 'nominal', title: 'transport' } as const;
  const box: ChartSpec = {
    name: chartName(view.scenario.name, 'box'),
    caption: 'Latency distribution of WebSocket push and REST polling per test: box p25-p75, line at the median, whiskers p1-p99 (a histogram keeps no outliers to draw).',
    spec: {
      ...frame(view, `${view.scenario.name}: WebSocket vs REST latency`, 'Box plots from the HDR histograms: box p25..p75, median tick, whiskers p1..p99, in ms on a log scale.'),
      data: { values },
      facet,
      spec: {
        width: { step: 90 },
        height: 240,
        layer: [
          { mark: 'rule', encoding: { x, y: { field: 'p1Ms', type: 'quantitative', scale: { type: 'log' }, title: 'latency (ms, log scale)' }, y2: { field: 'p99Ms' } } },
          { mark: { type: 'bar', size: 34 }, encoding: { x, y: { field: 'p25Ms', type: 'quantitative' }, y2: { field: 'p75Ms' }, color } },
          { mark: { type: 'tick', color: 'black', size: 34, thickness: 2 }, encoding: { x, y: { field: 'p50Ms', type: 'quantitative' } } },
        ],
      },
    },
  };
  const means: ChartSpec = {
    name: chartName(view.scenario.name, 'means'),
    caption: 'Mean latency of WebSocket push and REST polling per test.',
    spec: {
      ...frame(view, `${view.scenario.name}: mean latency, WebSocket vs REST`, 'Mean latency per transport and test, in ms.'),
      data: { values },
      facet,
      spec: {
        width: { step: 90 },
        height: 240,
        layer: [
          { mark: 'bar', encoding: { x, y: { field: 'meanMs', type: 'quantitative', title: 'mean latency (ms)' }, color } },
          { mark: { type: 'text', dy: -6 }, encoding: { x, y: { field: 'meanMs', type: 'quantitative' }, text: { field: 'meanMs', type: 'quantitative', format: '.3~r' } } },
        ],
      },
    },
  };
  return [box, means];
}

/**
 * Every line of a chart can be told from the others in its panel, for any
 * number of cells: Vega draws the charts headless and, panel by panel, no two
 * cells' lines share both stroke colour and dash. The quick suite's 17 pairs
 * (5 servers x 5 clients that speak to each other) once drew `ws x ws` and
 * `bun x undici` in the same blue from a 10-colour palette.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as vega from 'vega';
import { buildCharts } from '../src/parent/charts/index.js';
import { compileSpec } from '../src/parent/report/html/render-svg.js';
import type { ChartRequest, MetricInfo } from '../src/shared/types/declaration-types.js';
import type { CellResult, TimeSeriesPoint } from '../src/shared/types/result-types.js';
import { cell, exponentialHistogram, histogramOf, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { latencyMetric, rateMetric } from './fixtures/metric-declarations.js';

const SERVERS = ['ws', 'uws', 'socketio', 'bun', 'deno'];
const CLIENTS = ['ws', 'undici', 'socketio', 'bun', 'deno'];
/** socket.io speaks only to socket.io: 4 x 4 WebSocket pairs and socketio x socketio. */
const QUICK_PAIRS = SERVERS.flatMap((server) =>
  CLIENTS.filter((client) => (server === 'socketio') === (client === 'socketio')).map(
    (client) => [server, client] as const,
  ),
);

const METRICS: Record<string, MetricInfo> = {
  rate: rateMetric('got'),
  hopP50Ms: latencyMetric('hop', 'p50'),
};
const CHARTS: ChartRequest[] = [
  { kind: 'percentiles', histograms: ['hop'] },
  { kind: 'over-time', rates: ['rate'] },
  { kind: 'cumulative', histogram: 'hop' },
  { kind: 'sizes', histogram: 'frame' },
  { kind: 'by-parameter', parameter: 'connections', metrics: ['rate', 'hopP50Ms'] },
];

function cellsOf(
  pairs: ReadonlyArray<readonly [string, string]>,
  variants: Array<Record<string, number>>,
): CellResult[] {
  return variants.flatMap((params, v) =>
    pairs.map(([server, client], p) => {
      const seed = v * 100 + p;
      const made = cell('quick', {
        server,
        client,
        params,
        histograms: {
          hop: exponentialHistogram(300, 50 + p, seed),
          frame: histogramOf([32 + p, 64, 128 + seed], 'bytes'),
        },
        metrics: { rate: 1000 + seed, hopP50Ms: 0.05 + p / 1000 },
      });
      const points: TimeSeriesPoint[] = [1, 2, 3].map((t) => ({
        tMs: t * 1000,
        counters: { got: t * (1000 + seed) },
        latency: {},
      }));
      return {
        ...made,
        measurements: { ...(made as { measurements: object }).measurements, timeSeries: { intervalMs: 1000, points } },
      } as CellResult;
    }),
  );
}

/** Per chart: panels in which two cells' lines share colour and dash, and how many lines were drawn. */
async function clashes(cells: CellResult[]): Promise<Map<string, { lines: number; clashes: string[] }>> {
  const r = result(
    scenarioInfo('quick', {
      metrics: METRICS,
      table: Object.keys(METRICS),
      charts: CHARTS,
      parameters: { connections: { kind: 'integer', description: 'made up', default: 1, sweepable: true } },
    }),
    cells,
  );
  const found = new Map<string, { lines: number; clashes: string[] }>();
  for (const chart of buildCharts(r)[0]!.charts) {
    const view = new vega.View(vega.parse(compileSpec(chart.spec).vega), { renderer: 'none' });
    await view.runAsync();
    // Panel path -> "stroke|dash" -> the cells drawn so.
    const panels = new Map<string, Map<string, Set<string>>>();
    let lines = 0;
    const walk = (mark: SceneMark, path: string): void => {
      if (mark.marktype === 'line') {
        const first = mark.items[0];
        if (!first) return;
        const label = String(first.datum?.cell ?? first.datum?.pair);
        const style = `${String(first.stroke)}|${String(first.strokeDash ?? 'solid')}`;
        const panel = panels.get(path) ?? new Map<string, Set<string>>();
        panels.set(path, panel);
        panel.set(style, (panel.get(style) ?? new Set()).add(label));
        lines += 1;
        return;
      }
      if (mark.marktype !== 'group' || (mark.role ?? '').startsWith('legend')) return;
      mark.items.forEach((item, i) => {
        // A path group holds one line per series: it is not a panel of its own.
        const own = mark.name?.endsWith('pathgroup') ? path : `${path}/${mark.name ?? mark.role}[${i}]`;
        for (const child of item.items ?? []) walk(child, own);
      });
    };
    walk((view.scenegraph() as unknown as { root: SceneMark }).root, '');
    view.finalize();
    const clashing = [...panels.entries()].flatMap(([path, styles]) =>
      [...styles]
        .filter(([, labels]) => labels.size > 1)
        .map(([style, labels]) => `${path} ${style}: ${[...labels].join(', ')}`),
    );
    found.set(chart.name, { lines, clashes: clashing });
  }
  return found;
}

interface SceneMark {
  marktype: string;
  role?: string;
  name?: string;
  items: Array<{ items?: SceneMark[]; stroke?: unknown; strokeDash?: unknown; datum?: Record<string, unknown> }>;
}

function assertApart(found: Map<string, { lines: number; clashes: string[] }>, cells: number): void {
  assert.deepEqual([...found.keys()].sort(), [
    'quick-by-parameter',
    'quick-cumulative',
    'quick-over-time',
    'quick-percentiles',
    'quick-sizes',
  ]);
  for (const [name, { lines, clashes }] of found) {
    assert.ok(lines >= cells, `${name}: ${lines} lines for ${cells} cells`);
    assert.deepEqual(clashes, [], `${name}: lines alike in one panel`);
  }
}

test("the quick suite's 17 pairs: every line of every chart reads apart from the others in its panel", async () => {
  assert.equal(QUICK_PAIRS.length, 17);
  const cells = cellsOf(QUICK_PAIRS, [{ connections: 1 }, { connections: 10 }]);
  assertApart(await clashes(cells), QUICK_PAIRS.length);
});

test('a pair swept over a parameter, and more servers than colours, still read apart', async () => {
  const swept = cellsOf(QUICK_PAIRS.slice(0, 6), [{ connections: 1 }, { connections: 10 }, { connections: 100 }]);
  assertApart(await clashes(swept), 6);
  const many = Array.from({ length: 14 }, (_, i) => [`server${i + 1}`, 'ws'] as const);
  assertApart(await clashes(cellsOf(many, [{ connections: 1 }, { connections: 10 }])), many.length);
});

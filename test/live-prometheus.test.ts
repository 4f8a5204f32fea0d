/**
 * A real Prometheus scrapes a short run's /metrics; what it stored, queried back
 * through its HTTP API, is the result file's: a counter exactly, the latency
 * p50 and p99 within QUANTILE_PRECISION, from the classic buckets (the text
 * format) and from the native histogram (protobuf, which Prometheus asks for
 * with --enable-feature=native-histograms). Every query of the shipped Grafana
 * dashboard runs, and the ones it says give the result's numbers do.
 *
 * Prometheus starts first and scrapes all along; the run lingers until it has
 * scraped the final values. Skips where the prometheus binary is absent.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCli, type LiveCli } from './live-cli.js';
import { REPO_ROOT, tempDir, runArgs } from './support.js';
import { freePort, prometheusSkip, SCRAPE_INTERVAL_S, startPrometheus, type Prometheus } from './prometheus.js';
import { QUANTILE_PRECISION } from '../src/parent/live/latency-buckets.js';
import type { BenchResult, MeasuredCell } from '../src/shared/types/result-types.js';

const started: Array<Prometheus | LiveCli> = [];

after(async () => {
  for (const thing of started) if ('child' in thing && thing.child.exitCode === null) thing.child.kill('SIGKILL');
  await Promise.allSettled(started.flatMap((thing) => ('stop' in thing ? [thing.stop()] : [])));
});

interface Scraped {
  prometheus: Prometheus;
  cell: MeasuredCell;
  /** Epoch seconds of the last scrape Prometheus stored of the run: the final values. */
  lastScrapeS: number;
}

/** One echo run scraped from its start by a Prometheus of its own. */
async function scrapedRun(nativeHistograms: boolean): Promise<Scraped> {
  const port = await freePort();
  const prometheus = await startPrometheus(`127.0.0.1:${port}`, { nativeHistograms });
  started.push(prometheus);
  await prometheus.ready();
  const out = join(tempDir(), 'r.json');
  // The linger holds /metrics open until Prometheus has scraped the final values.
  const cli = startCli(
    runArgs(
      'echo',
      'ws',
      'ws',
      '--duration',
      '3s',
      '--metrics-listen',
      `127.0.0.1:${port}`,
      '--metrics-linger',
      '60s',
      '--out',
      out,
    ),
    { timeoutMs: 150_000 },
  );
  started.push(cli);
  const { code } = await cli.finished;
  assert.equal(code, 0, cli.stderr());
  const cell = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells[0] as MeasuredCell;
  assert.equal(cell.status, 'ok');

  // Prometheus commits a scrape after wsbench has answered it: once a scrape of the gone wsbench has
  // failed, the ones before it are all stored (a target's scrapes run one after the other).
  await prometheus.queryUntilFound('up{job="wsbench"} == 0');
  // The series are stale now: the samples of the last 10 minutes say when the last scrape was.
  const samples = await prometheus.query('wsbench_cell_state{job="wsbench",state="ok"}[10m]');
  const values = (samples[0] as unknown as { values: Array<[number, string]> }).values;
  const [lastScrapeS, state] = values.at(-1)!;
  assert.equal(state, '1', 'the last scrape holds the cell as ended');
  return { prometheus, cell, lastScrapeS };
}

let classic: Promise<Scraped> | null = null;
let native: Promise<Scraped> | null = null;

test('Prometheus holds the final count of the result file', { skip: prometheusSkip, timeout: 180_000 }, async () => {
  const { prometheus, cell, lastScrapeS } = await (classic ??= scrapedRun(false));
  const received = cell.measurements.counters.received!;
  assert.ok(received > 0);
  const stored = await prometheus.query(
    'wsbench_messages_total{job="wsbench",counter="received",server="ws",client="ws"}',
    lastScrapeS,
  );
  assert.equal(Number(stored[0]?.value[1]), received);
});

for (const kind of ['classic', 'native'] as const) {
  test(`histogram_quantile of the ${kind} histogram reads p50 and p99 within ${QUANTILE_PRECISION * 100} % of the result's`, {
    skip: prometheusSkip,
    timeout: 180_000,
  }, async (t) => {
    const { prometheus, cell, lastScrapeS } = await (kind === 'classic'
      ? (classic ??= scrapedRun(false))
      : (native ??= scrapedRun(true)));
    const rtt = cell.measurements.latency.rtt!;
    const series = kind === 'classic' ? 'wsbench_latency_seconds_bucket' : 'wsbench_latency_seconds';
    for (const [q, expectedMs] of [
      [0.5, rtt.p50Ms],
      [0.99, rtt.p99Ms],
    ] as const) {
      const found = await prometheus.query(
        `histogram_quantile(${q}, ${series}{job="wsbench",histogram="rtt"})`,
        lastScrapeS,
      );
      assert.equal(found.length, 1, `${kind} p${q * 100}: ${JSON.stringify(found)}\n${prometheus.log()}`);
      const readMs = Number(found[0]!.value[1]) * 1000;
      const error = Math.abs(readMs - expectedMs) / expectedMs;
      t.diagnostic(`${kind} p${q * 100}: Prometheus ${readMs.toFixed(4)} ms, the result ${expectedMs} ms`);
      assert.ok(
        error <= QUANTILE_PRECISION,
        `${kind} p${q * 100}: Prometheus ${readMs} ms, the result ${expectedMs} ms (${(error * 100).toFixed(1)} % apart)`,
      );
    }
  });
}

test("every query of the Grafana dashboard runs, and the window-so-far ones give the result's numbers", {
  skip: prometheusSkip,
  timeout: 180_000,
}, async () => {
  const { prometheus, cell, lastScrapeS } = await (classic ??= scrapedRun(false));
  const dashboard = JSON.parse(
    readFileSync(join(REPO_ROOT, 'examples', 'grafana', 'wsbench-dashboard.json'), 'utf8'),
  ) as GrafanaDashboard;
  const targets = dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ panel: panel.title, ...target })),
  );
  assert.ok(targets.length >= 8, `${targets.length} queries`);
  const variables = { scenario: 'echo', server: 'ws', client: 'ws', counter: 'received', histogram: 'rtt' };
  const results = new Map<string, number | null>();
  for (const target of targets) {
    const expression = grafanaExpression(target.expr, variables);
    // A query Prometheus cannot parse or run is an error, not an empty answer.
    const found = await prometheus.query(expression, lastScrapeS);
    results.set(
      target.refId === undefined ? target.panel : `${target.panel}/${target.refId}`,
      found.length === 0 ? null : Number(found[0]!.value[1]),
    );
  }
  const of = (key: string): number => {
    const value = results.get(key);
    assert.ok(typeof value === 'number', `${key}: no value (${[...results.keys()].join(', ')})`);
    return value;
  };
  const near = (read: number, expected: number, tolerance: number, what: string): void =>
    assert.ok(
      Math.abs(read - expected) <= tolerance * Math.abs(expected),
      `${what}: the dashboard reads ${read}, the result ${expected}`,
    );
  near(of('Messages a second, window so far/A'), cell.metrics.messagesPerSec as number, 0.005, 'msg/s');
  near(of('Latency, window so far (ms)/A'), cell.metrics.rttP50Ms as number, QUANTILE_PRECISION, 'p50');
  near(of('Latency, window so far (ms)/B'), cell.metrics.rttP99Ms as number, QUANTILE_PRECISION, 'p99');
  assert.equal(of('Client errors, window so far/A'), 0);
});

test("every query of docs/live.md runs, and its value at the run's end is the result file's count", {
  skip: prometheusSkip,
  timeout: 180_000,
}, async () => {
  const { prometheus, cell, lastScrapeS } = await (classic ??= scrapedRun(false));
  const queries = documentedQueries(readFileSync(join(REPO_ROOT, 'docs', 'live.md'), 'utf8'));
  assert.ok(queries.length >= 9, `${queries.length} queries`);
  for (const query of queries) await prometheus.query(grafanaExpression(query, {}), lastScrapeS);
  const atEnd = queries.find((q) => q.startsWith('last_over_time(wsbench_messages_total'))!;
  const found = await prometheus.query(atEnd);
  assert.equal(Number(found[0]?.value[1]), cell.measurements.counters.received);
});

/** The queries of a page's promql blocks: a comment line or a blank line ends one, indented lines continue it. */
function documentedQueries(markdown: string): string[] {
  return [...markdown.matchAll(/```promql\n([\s\S]*?)```/g)].flatMap(([, block]) => {
    const queries: string[] = [];
    let current = '';
    for (const line of block!.split('\n')) {
      if (line.trim() === '' || line.startsWith('#')) {
        if (current) queries.push(current);
        current = '';
      } else current = current ? `${current} ${line.trim()}` : line.trim();
    }
    if (current) queries.push(current);
    return queries;
  });
}

interface GrafanaDashboard {
  panels: Array<{ title: string; targets?: Array<{ expr: string; refId?: string }> }>;
}

/** The query as Grafana sends it: its variables replaced, $__rate_interval as at least four scrape intervals. */
function grafanaExpression(expr: string, variables: Record<string, string>): string {
  return expr
    .replaceAll('$__rate_interval', `${4 * SCRAPE_INTERVAL_S}s`)
    .replace(/\$\{?(\w+)\}?/g, (whole, name: string) => {
      const value = variables[name];
      assert.ok(value !== undefined, `unknown variable ${whole} in ${expr}`);
      return value;
    });
}

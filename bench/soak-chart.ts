/**
 * The RSS curve of bench/soak-memory.ts's samples, drawn as an SVG by the
 * report's own chart machinery (Vega-Lite, rendered offline), with the growth
 * after warm-up of each process and the machine's load in the subtitle.
 *
 *   node dist/bench/soak-chart.js --dir DIR --svg docs/long-runs-rss.svg [--warmup 5m]
 *     [--baseline DIR2 --baseline-label TEXT] [--heap DIR3]
 *
 * --baseline draws wsbench's RSS from another soak run beside this one (the same
 * command run at the same time with another build: the same machine and load).
 * --heap draws the heapUsed after a forced full collection that a run with
 * --heap-probe wrote (DIR3/heap.jsonl): what wsbench keeps, beside what it holds.
 *
 * Growth is the median of the last two minutes of samples less the median of
 * the two minutes after warm-up: medians, so that one sample taken just
 * before a garbage collection does not decide it. Prints the figures as JSON.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { TopLevelSpec } from 'vega-lite';
import { parseDurationMs } from '../src/shared/parsing/units.js';
import { renderSvg } from '../src/parent/report/html/render-svg.js';
import { machineSubtitle } from '../src/parent/charts/common.js';
import type { BenchResult } from '../src/shared/types/result-types.js';
import type { SoakSample, SoakSamples } from './soak-memory.js';

const MB = 1024 * 1024;
const SPAN_S = 120;

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    svg: { type: 'string' },
    warmup: { type: 'string', default: '5m' },
    baseline: { type: 'string' },
    'baseline-label': { type: 'string', default: 'before' },
    heap: { type: 'string' },
  },
});
if (!values.dir || !values.svg) throw new Error('usage: soak-chart --dir DIR --svg FILE [--warmup 5m]');
const record = JSON.parse(readFileSync(join(values.dir, 'soak-samples.json'), 'utf8')) as SoakSamples;
const resultPath = join(values.dir, 'soak.json');
const result = existsSync(resultPath) ? (JSON.parse(readFileSync(resultPath, 'utf8')) as BenchResult) : null;
const warmupS = (parseDurationMs(values.warmup!) ?? 300_000) / 1000;
const samples: SoakSample[] = record.samples.map((s) => ({ ...s, rssBytes: { ...s.rssBytes } }));
if (values.baseline)
  addSeries(
    `wsbench (${values['baseline-label']})`,
    (JSON.parse(readFileSync(join(values.baseline, 'soak-samples.json'), 'utf8')) as SoakSamples).samples.map((s) => ({
      tS: s.tS,
      bytes: s.rssBytes.wsbench,
    })),
  );
if (values.heap) {
  const lines = readFileSync(join(values.heap, 'heap.jsonl'), 'utf8').split('\n').filter(Boolean);
  addSeries(
    'wsbench heapUsed after GC',
    lines
      .map((line) => JSON.parse(line) as { tS: number; heapUsed: number })
      .map((h) => ({ tS: h.tS, bytes: h.heapUsed })),
  );
}
const lastS = samples.at(-1)?.tS ?? 0;
const roles = [...new Set(samples.flatMap((s) => Object.keys(s.rssBytes)))];

const growth = Object.fromEntries(
  roles.map((role) => {
    const start = median(rssIn(role, warmupS, warmupS + SPAN_S));
    const end = median(rssIn(role, lastS - SPAN_S, lastS));
    const after = samples
      .filter((s) => s.tS >= warmupS)
      .map((s) => s.rssBytes[role])
      .filter((v): v is number => v !== undefined);
    return [
      role,
      {
        startMB: mb(start),
        endMB: mb(end),
        growthMB: mb(end - start),
        minMB: mb(Math.min(...after)),
        maxMB: mb(Math.max(...after)),
      },
    ];
  }),
);
const loads = samples.map((s) => s.load1);
const load = { min: Math.min(...loads), median: median(loads), max: Math.max(...loads) };
const coveredMin = Math.round(lastS / 6) / 10;
const machine = result
  ? machineSubtitle(result)[0]!
  : `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, Node ${process.versions.node}`;

const spec: TopLevelSpec = {
  $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
  title: {
    text: `firehose soak: RSS of each process over ${coveredMin} min (${record.command.slice(1, 6).join(' ')})`,
    subtitle: [
      machine,
      `journal on, dashboard open in headless Chromium; machine shared: 1-min load ${load.min.toFixed(1)}..${load.max.toFixed(1)} (median ${load.median.toFixed(1)})`,
      `growth after ${values.warmup} warm-up: ${roles.map((r) => `${r} ${growth[r]!.growthMB >= 0 ? '+' : ''}${growth[r]!.growthMB} MB`).join(', ')}`,
    ],
  },
  width: 720,
  height: 320,
  data: {
    values: samples.flatMap((s) =>
      roles
        .filter((r) => s.rssBytes[r] !== undefined)
        .map((r) => ({ minutes: s.tS / 60, process: r, rssMB: mb(s.rssBytes[r]!) })),
    ),
  },
  mark: { type: 'line', interpolate: 'monotone' },
  encoding: {
    x: { field: 'minutes', type: 'quantitative', title: 'minutes since wsbench started' },
    y: {
      field: 'rssMB',
      type: 'quantitative',
      title: values.heap ? 'MiB (RSS; heapUsed after a full GC)' : 'RSS (MiB)',
      scale: { zero: true },
    },
    color: { field: 'process', type: 'nominal', title: 'process' },
  },
  config: { font: 'sans-serif' },
};
writeFileSync(values.svg, await renderSvg(spec));
process.stdout.write(
  `${JSON.stringify({ coveredMin, samples: samples.length, warmupS, growth, load, pageStatus: record.pageStatus }, null, 1)}\n`,
);

/** Puts another run's curve on this run's samples, each reading on the sample nearest in time. */
function addSeries(role: string, points: Array<{ tS: number; bytes: number | undefined }>): void {
  for (const { tS, bytes } of points) {
    if (bytes === undefined || samples.length === 0) continue;
    const nearest = samples.reduce((best, s) => (Math.abs(s.tS - tS) < Math.abs(best.tS - tS) ? s : best));
    if (Math.abs(nearest.tS - tS) <= 10) nearest.rssBytes[role] = bytes;
  }
}

function rssIn(role: string, fromS: number, toS: number): number[] {
  return samples
    .filter((s: SoakSample) => s.tS >= fromS && s.tS <= toS)
    .map((s) => s.rssBytes[role])
    .filter((v): v is number => v !== undefined);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function mb(bytes: number): number {
  return Math.round((bytes / MB) * 10) / 10;
}

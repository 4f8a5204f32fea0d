/**
 * Per-cell deltas between two result files, and whether each change is bigger
 * than the noise the data itself shows. Compares the metrics each scenario
 * declares with a comparing role, reading their values from `cell.metrics`
 * (the numbers the table shows) and their noise from the measurements behind
 * them. Pure functions; the CLI prints.
 */
import { sampleStandardDeviation } from 'simple-statistics';
import { histogramOf, intervalRates, NOISE_PERCENTILE, percentileNoise, roundSpread, type Loaded } from './compare-noise.js';
import type { MetricInfo } from '../declaration-types.js';
import { isMeasured, type BenchResult, type CapacityResult, type CellResult, type CellStatus, type MeasuredCell, type ScenarioInfo } from '../result-types.js';
import { cellNamer } from './parameter-labels.js';
import { cellKey } from '../cell-key.js';
import { statusChange, type CellComparison, type Comparison, type MetricDelta, type UnmatchedCell, type Verdict } from './compare-types.js';
import { compareCapacities } from './compare-capacity.js';

export type { CellComparison, Comparison, MetricDelta, UnmatchedCell, Verdict } from './compare-types.js';
export { statusChange } from './compare-types.js';

/**
 * Memory comes with no distribution in the file, so its noise is a fixed share
 * of the base value: 5% is about what two identical runs on a quiet machine
 * differ by. Rates use it as a floor; see rateDelta for what they add.
 */
export const RATE_NOISE_FRACTION = 0.05;
/**
 * A side measured in one round of windows shorter than this gets a warning:
 * two identical back-to-back 2 s runs on a busy 2-core box differed by +118%
 * p50, far beyond what one window's histogram shows as its noise.
 */
const SHORT_WINDOW_MS = 10_000;

/** Cell by cell; two capacity results by each server's capacity (compare-capacity.ts). */
export function compareResults(base: BenchResult, next: BenchResult): Comparison {
  if (base.capacity && next.capacity) {
    return {
      ...compareCapacities(base as CapacityResult, next as CapacityResult),
      environmentNote: environmentNote(base, next),
    };
  }
  const nextByKey = new Map(next.cells.map((c) => [cellKey(c), c]));
  const baseKeys = new Set(base.cells.map(cellKey));
  const scenarioOf = (name: string): ScenarioInfo | undefined =>
    base.scenarios.find((s) => s.name === name) ?? next.scenarios.find((s) => s.name === name);
  const label = cellNamer([...base.cells, ...next.cells], (name) => scenarioOf(name)?.parameters);
  const cells: CellComparison[] = [];
  for (const b of base.cells) {
    const n = nextByKey.get(cellKey(b));
    if (!n) continue;
    cells.push({
      label: label(b),
      scenario: b.scenario,
      server: b.server,
      client: b.client,
      params: b.params,
      baseStatus: b.status,
      nextStatus: n.status,
      nextReason: reasonOf(n),
      deltas: compareCell(b, n, scenarioOf(b.scenario)),
    });
  }
  const unmatched = (c: CellResult): UnmatchedCell => ({
    label: label(c), scenario: c.scenario, server: c.server, client: c.client, params: c.params, status: c.status, reason: reasonOf(c),
  });
  const missing = base.cells.filter((c) => !nextByKey.has(cellKey(c)));
  const added = next.cells.filter((c) => !baseKeys.has(cellKey(c)));
  return {
    cells,
    onlyInBase: missing.map((c) => label(c) + statusSuffix(c)),
    onlyInNext: added.map((c) => label(c) + statusSuffix(c)),
    missingInNext: missing.map(unmatched),
    newInNext: added.map(unmatched),
    environmentNote: environmentNote(base, next),
    warnings: [shortWindowWarning('base', base), shortWindowWarning('new', next)].filter((w): w is string => w !== null),
  };
}

/** A cell's recorded reason when it did not end ok; null for an ok cell. */
function reasonOf(cell: CellResult): string | null {
  return cell.status !== 'ok' && 'reason' in cell && typeof cell.reason === 'string' ? cell.reason : null;
}

function compareCell(b: CellResult, n: CellResult, scenario: ScenarioInfo | undefined): MetricDelta[] {
  if (b.status === 'skipped' && n.status === 'skipped') return [];
  const deltas: MetricDelta[] = [];
  const status = statusDelta(b.status, n.status);
  if (status) deltas.push(status);
  if (!isMeasured(b) || !isMeasured(n)) return deltas;
  for (const [key, info] of Object.entries(scenario?.metrics ?? {})) {
    if (info.role === 'primary-latency' && info.better !== 'none') deltas.push(latencyDelta(key, info, b, n));
    else if (info.role === 'primary-rate' && info.better !== 'none') deltas.push(rateDelta(key, info, b, n));
    else if (info.role === 'errors') deltas.push(delta(key, info.header, 'errors', valueOf(b, key), valueOf(n, key), 0, 'lower'));
  }
  deltas.push(...resourceDeltas(b, n));
  return deltas;
}

/**
 * What a change of status says. A cell that does not end ok now regresses,
 * whatever it was before: a failing cell must never pass a gate. So does a
 * cell that ran in the base and is skipped now (a runtime missing on the CI
 * machine): the gate cannot compare it, so it fails on it rather than
 * passing it unseen. A cell skipped in the base says nothing about the code:
 * skipped -> skipped is n/a, skipped -> ok is a new measurement.
 */
function statusDelta(base: CellStatus, next: CellStatus): MetricDelta | null {
  if (base === 'ok' && next === 'ok') return null;
  let verdict: Verdict = 'n/a';
  if (next !== 'ok' && next !== 'skipped') verdict = 'regressed';
  else if (next === 'skipped' && base !== 'skipped') verdict = 'regressed';
  else if (next === 'ok' && base !== 'skipped') verdict = 'improved';
  return statusChange(verdict);
}

/** Noise read off the source histogram of both cells (the larger), raised to the spread between rounds. */
function latencyDelta(key: string, info: MetricInfo, b: MeasuredCell, n: MeasuredCell): MetricDelta {
  const base = valueOf(b, key);
  const next = valueOf(n, key);
  const source = 'histogram' in info.source ? info.source : null;
  const percentile = source ? NOISE_PERCENTILE[source.stat] : null;
  let noise: number | null;
  if (source && percentile !== null) {
    const histograms = [b, n].map((cell) => histogramOf(cell, source.histogram, source.side === 'server')).filter((h): h is Loaded => h !== null);
    noise = histograms.length ? Math.max(...histograms.map((h) => percentileNoise(h.histogram, percentile) * h.toUnit)) : null;
  } else {
    noise = base === null ? null : Math.abs(base) * RATE_NOISE_FRACTION;
  }
  if (noise !== null) noise = Math.max(noise, roundSpread(b, key), roundSpread(n, key));
  return delta(key, info.header, 'primary-latency', base, next, noise, info.better === 'higher' ? 'higher' : 'lower');
}

/**
 * Rate noise: the larger of 5% of the base and how much the rate wandered
 * interval by interval within each window (standard deviation of the
 * per-interval rates of its source counter, the larger of the two cells,
 * when the source is a client counter's rate), raised to the spread between
 * rounds. On a shared 2-core box two identical runs differ by far more than
 * 5%, and the time series shows it.
 */
function rateDelta(key: string, info: MetricInfo, b: MeasuredCell, n: MeasuredCell): MetricDelta {
  const base = valueOf(b, key);
  const next = valueOf(n, key);
  let noise: number | null = null;
  if (base !== null) {
    const source = info.source;
    const series =
      'counter' in source && source.as === 'rate' && source.side !== 'server'
        ? [b, n].map((cell) => intervalRates(cell, source.counter, source.scale ?? 1))
        : [];
    const spreads = series.filter((r): r is number[] => r !== null).map((r) => sampleStandardDeviation(r));
    noise = Math.max(Math.abs(base) * RATE_NOISE_FRACTION, ...spreads, roundSpread(b, key), roundSpread(n, key));
  }
  return delta(key, info.header, 'primary-rate', base, next, noise, info.better === 'lower' ? 'lower' : 'higher');
}

function resourceDeltas(b: MeasuredCell, n: MeasuredCell): MetricDelta[] {
  const sb = b.resources.server;
  const sn = n.resources.server;
  if (!sb && !sn) return [];
  // CPU is sampled through the window: the spread of those samples (max above mean) is its noise.
  const cpuNoise = sb && sn
    ? Math.max(sb.cpuPercent.mean * RATE_NOISE_FRACTION, sb.cpuPercent.max - sb.cpuPercent.mean, sn.cpuPercent.max - sn.cpuPercent.mean)
    : null;
  const rssB = sb ? sb.rssBytes.max / 1024 / 1024 : null;
  const rssN = sn ? sn.rssBytes.max / 1024 / 1024 : null;
  return [
    delta('serverCpuPercent', 'srv CPU %', 'resources', sb?.cpuPercent.mean ?? null, sn?.cpuPercent.mean ?? null, cpuNoise, 'lower'),
    delta('serverRssMiB', 'srv RSS MiB', 'resources', rssB, rssN, rssB === null ? null : rssB * RATE_NOISE_FRACTION, 'lower'),
  ];
}

function delta(
  key: string,
  metric: string,
  role: MetricDelta['role'],
  base: number | null,
  next: number | null,
  noise: number | null,
  better: 'lower' | 'higher',
): MetricDelta {
  const changePct = base !== null && next !== null && base !== 0 ? ((next - base) / Math.abs(base)) * 100 : null;
  let verdict: Verdict = 'n/a';
  if (base !== null && next !== null && noise !== null) {
    const change = next - base;
    if (Math.abs(change) <= noise) verdict = 'within noise';
    else verdict = (change > 0) === (better === 'lower') ? 'regressed' : 'improved';
  }
  return { key, metric, role, base, next, changePct, noise, better, verdict };
}

function valueOf(cell: MeasuredCell, key: string): number | null {
  const value = cell.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function statusSuffix(cell: CellResult): string {
  return cell.status === 'ok' ? '' : ` (${cell.status})`;
}

function environmentNote(base: BenchResult, next: BenchResult): string | null {
  const describe = (r: BenchResult): string => `${r.environment.cpuModel} x${r.environment.cpuCores}, Node ${r.environment.node}`;
  return describe(base) === describe(next) ? null : `different machines or Node: base ${describe(base)}; new ${describe(next)}`;
}

function shortWindowWarning(side: string, result: BenchResult): string | null {
  if ((result.repeat ?? 1) > 1) return null;
  const windows = result.cells.filter(isMeasured).map((c) => c.measurements.windowMs);
  if (windows.length === 0 || Math.max(...windows) >= SHORT_WINDOW_MS) return null;
  const seconds = Math.max(...windows) / 1000;
  return (
    `${side} measured each cell once, in windows of ${seconds.toFixed(1)} s or less: identical runs that short` +
    ' can differ beyond the noise shown; run with --repeat 3 (or longer windows) for a gate'
  );
}

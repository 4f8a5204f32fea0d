/**
 * Per-cell deltas between two result files (or two servers of one file), each
 * change with its confidence interval and the verdict it supports (improved,
 * regressed, unchanged or inconclusive: src/parent/stats/verdict.ts). Compares the
 * metrics each scenario declares with a comparing role, reading their values
 * from `cell.metrics` (the numbers the table shows), their intervals and rounds
 * from the cells (src/parent/stats/), and the run-to-run band of compare-noise.ts
 * where the data give no interval or only a single window's. Pure functions;
 * the CLI prints.
 */
import { sampleStandardDeviation } from 'simple-statistics';
import {
  histogramOf,
  intervalRates,
  NOISE_PERCENTILE,
  percentileNoise,
  roundSpread,
  unmeasuredSides,
  type Loaded,
} from './compare-noise.js';
import type { Side } from '../stats/ratio.js';
import { twoCellTest } from '../stats/two-cells.js';
import { DEFAULT_MARGIN_PCT, judgeChange, type ChangeInterval } from '../stats/verdict.js';
import { CONFIDENCE_LEVEL, familyLevel } from '../stats/confidence.js';
import { isKeyMetric } from '../stats/cell-intervals.js';
import { MIN_ROUNDS } from '../stats/round-spread.js';
import type { MetricInfo } from '../../shared/types/declaration-types.js';
import {
  isMeasured,
  type BenchResult,
  type CapacityResult,
  type CellResult,
  type CellStatus,
  type MeasuredCell,
  type ScenarioInfo,
} from '../../shared/types/result-types.js';
import { cellNamer } from '../parameter-labels.js';
import { cellKey } from '../results/cell-key.js';
import {
  statusChange,
  type CellComparison,
  type Comparison,
  type MetricDelta,
  type UnmatchedCell,
  type Verdict,
} from './compare-types.js';
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

/**
 * compareResults()' options: the margin within which a change is no change, and whether the two sides' rounds pair up.
 */
export interface CompareOptions {
  /** A change smaller than this many percent is never regressed or improved; default DEFAULT_MARGIN_PCT. */
  marginPct?: number;
  /** The two sides are cells of one run whose rounds were interleaved: round r of each is paired with round r of the other. */
  pairedRounds?: boolean;
}

/** Cell by cell; two capacity results by each server's capacity (compare-capacity.ts). */
export function compareResults(base: BenchResult, next: BenchResult, options: CompareOptions = {}): Comparison {
  const marginPct = options.marginPct ?? DEFAULT_MARGIN_PCT;
  if (base.capacity && next.capacity) {
    return {
      ...compareCapacities(base as CapacityResult, next as CapacityResult),
      environmentNote: environmentNote(base, next),
      marginPct,
      intervalLevel: familyLevel(1),
      intervalTests: 0,
    };
  }
  const tests = intervalTests(base, next);
  // A file measured until decided states its numbers at its last look's share of the 95 %: so is each change.
  const judge = {
    marginPct,
    paired: options.pairedRounds === true,
    level: familyLevel(tests, Math.max(statedLevel(base), statedLevel(next))),
  };
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
      deltas: compareCell(b, n, scenarioOf(b.scenario), judge),
    });
  }
  const unmatched = (c: CellResult): UnmatchedCell => ({
    label: label(c),
    scenario: c.scenario,
    server: c.server,
    client: c.client,
    params: c.params,
    status: c.status,
    reason: reasonOf(c),
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
    warnings: [
      shortWindowWarning('base', base),
      shortWindowWarning('new', next),
      ...unstableWarnings(base, next),
    ].filter((w): w is string => w !== null),
    marginPct,
    intervalLevel: judge.level,
    intervalTests: tests,
  };
}

/**
 * Two servers of one file as base and new (`compare FILE --servers base,new`): each cell of `base`
 * against the cell of `next` with the same client and parameters. Their rounds ran interleaved in
 * one run, so they pair round by round.
 */
export function compareServers(
  result: BenchResult,
  base: string,
  next: string,
  options: Omit<CompareOptions, 'pairedRounds'> = {},
): Comparison {
  const pair = `${base} -> ${next}`;
  const side = (server: string): BenchResult => ({
    ...result,
    cells: result.cells.filter((c) => c.server === server).map((c) => ({ ...c, server: pair })),
  });
  return { ...compareResults(side(base), side(next), { ...options, pairedRounds: true }), servers: { base, next } };
}

/** What decides how a metric's change is judged. */
interface Judging {
  marginPct: number;
  paired: boolean;
  /** The level of each change's interval: the comparison's family of changes holds at 95 % together. */
  level: number;
}

/**
 * How many changes a comparison judges on an interval: per cell both files measured, each primary
 * latency and rate with a direction and the server's CPU and RSS. Each is judged at
 * familyLevel(that many), so that identical code reads no regression anywhere at 95 %.
 */
function intervalTests(base: BenchResult, next: BenchResult): number {
  const nextKeys = new Set(next.cells.filter(isMeasured).map(cellKey));
  return base.cells
    .filter((c) => isMeasured(c) && nextKeys.has(cellKey(c)))
    .reduce((sum, cell) => {
      const metrics = Object.values(base.scenarios.find((s) => s.name === cell.scenario)?.metrics ?? {});
      return sum + metrics.filter(isKeyMetric).length + 2;
    }, 0);
}

/** The level a result states its intervals at: its last look's, for a run --until-decided. */
function statedLevel(result: BenchResult): number {
  return result.decision?.looks.at(-1)?.level ?? CONFIDENCE_LEVEL;
}

/** A cell's recorded reason when it did not end ok; null for an ok cell. */
function reasonOf(cell: CellResult): string | null {
  return cell.status !== 'ok' && 'reason' in cell && typeof cell.reason === 'string' ? cell.reason : null;
}

function compareCell(b: CellResult, n: CellResult, scenario: ScenarioInfo | undefined, judge: Judging): MetricDelta[] {
  if (b.status === 'skipped' && n.status === 'skipped') return [];
  const deltas: MetricDelta[] = [];
  const status = statusDelta(b.status, n.status);
  if (status) deltas.push(status);
  if (!isMeasured(b) || !isMeasured(n)) return deltas;
  for (const [key, info] of Object.entries(scenario?.metrics ?? {})) {
    if (info.role === 'primary-latency' && info.better !== 'none') deltas.push(latencyDelta(key, info, b, n, judge));
    else if (info.role === 'primary-rate' && info.better !== 'none') deltas.push(rateDelta(key, info, b, n, judge));
    else if (info.role === 'cost' && info.better !== 'none') deltas.push(costDelta(key, info, b, n, judge));
    else if (info.role === 'errors') deltas.push(countDelta(key, info.header, metricOf(b, key), metricOf(n, key)));
  }
  deltas.push(...resourceDeltas(b, n, judge));
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

/** Band read off the source histogram of both cells (the larger), raised to the spread between rounds. */
function latencyDelta(key: string, info: MetricInfo, b: MeasuredCell, n: MeasuredCell, judge: Judging): MetricDelta {
  const base = metricOf(b, key);
  const source = 'histogram' in info.source ? info.source : null;
  const percentile = source ? NOISE_PERCENTILE[source.stat] : null;
  let noise: number | null;
  if (source && percentile !== null) {
    const histograms = [b, n]
      .map((cell) => histogramOf(cell, source.histogram, source.side === 'server'))
      .filter((h): h is Loaded => h !== null);
    noise = histograms.length
      ? Math.max(...histograms.map((h) => percentileNoise(h.histogram, percentile) * h.toUnit))
      : null;
  } else {
    noise = base === null ? null : Math.abs(base) * RATE_NOISE_FRACTION;
  }
  if (noise !== null) noise = Math.max(noise, roundSpread(b, key), roundSpread(n, key));
  return delta(
    key,
    info.header,
    'primary-latency',
    metricSide(b, key),
    metricSide(n, key),
    noise,
    info.better === 'higher' ? 'higher' : 'lower',
    judge,
  );
}

/**
 * Rate noise: the larger of 5% of the base and how much the rate wandered
 * interval by interval within each window (standard deviation of the
 * per-interval rates of its source counter, the larger of the two cells,
 * when the source is a client counter's rate), raised to the spread between
 * rounds. On a shared 2-core box two identical runs differ by far more than
 * 5%, and the time series shows it. A side with neither rounds nor a window
 * long enough for per-interval rates has measured no noise: the 5% would stand
 * in for it, so the change is inconclusive whatever its size (unmeasuredSides).
 */
function rateDelta(key: string, info: MetricInfo, b: MeasuredCell, n: MeasuredCell, judge: Judging): MetricDelta {
  const base = metricOf(b, key);
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
  const bSide = metricSide(b, key);
  const nSide = metricSide(n, key);
  return delta(
    key,
    info.header,
    'primary-rate',
    bSide,
    nSide,
    noise,
    info.better === 'lower' ? 'lower' : 'higher',
    judge,
    unmeasuredSides(b, bSide.rounds, n, nSide.rounds),
  );
}

/**
 * A cost (CPU per message, memory per connection) is read once per window: only rounds measure how far
 * it moves between runs. With MIN_ROUNDS on both sides its change is judged like a rate's; else it is
 * inconclusive whatever its size, and says why.
 */
function costDelta(key: string, info: MetricInfo, b: MeasuredCell, n: MeasuredCell, judge: Judging): MetricDelta {
  const bSide = metricSide(b, key);
  const nSide = metricSide(n, key);
  // A cell measured once has no rounds[]: its one window is its one round.
  const roundsOf = (side: SideValue): number =>
    side.rounds
      ? side.rounds.filter((v) => typeof v === 'number' && Number.isFinite(v)).length
      : side.value === null
        ? 0
        : 1;
  const short = [
    ...(roundsOf(bSide) < MIN_ROUNDS ? [`base ${roundsOf(bSide)}`] : []),
    ...(roundsOf(nSide) < MIN_ROUNDS ? [`new ${roundsOf(nSide)}`] : []),
  ];
  const base = bSide.value;
  const noise =
    base === null ? null : Math.max(Math.abs(base) * RATE_NOISE_FRACTION, roundSpread(b, key), roundSpread(n, key));
  const bounded = (['base', 'new'] as const).flatMap((side, i) => {
    const round = boundedRound(i === 0 ? b : n, key);
    return round ? [`${side} ${round}`] : [];
  });
  return delta(
    key,
    info.header,
    'cost',
    bSide,
    nSide,
    noise,
    info.better === 'higher' ? 'higher' : 'lower',
    judge,
    short.length > 0
      ? `a cost is read once per window: only ${MIN_ROUNDS} rounds or more measure its noise (rounds: ${short.join(', ')})`
      : bounded.length > 0
        ? `a round read it below its resolution (${bounded.join(', ')}): its pooled value counts that round, its rounds' spread cannot`
        : null,
  );
}

/**
 * A round whose value is only a bound (`< 1066`: the server's memory grew less than it can resolve), as
 * `round 5 < 1066`; null when every round resolved it. The pooled value averages that round's estimate in,
 * while the spread of the rounds has no value of it to use: the two would not describe the same rounds.
 */
function boundedRound(cell: MeasuredCell, key: string): string | null {
  const index = (cell.rounds ?? []).findIndex((r) => r.resolution?.[key]?.resolved === false);
  if (index < 0) return null;
  const bound = cell.rounds![index]!.resolution![key]!.atMost;
  return `round ${index + 1} < ${Math.round(bound)}`;
}

function resourceDeltas(b: MeasuredCell, n: MeasuredCell, judge: Judging): MetricDelta[] {
  const sb = b.resources.server;
  const sn = n.resources.server;
  if (!sb && !sn) return [];
  // CPU is sampled through the window: the spread of those samples (max above mean) is its noise.
  const cpuNoise =
    sb && sn
      ? Math.max(
          sb.cpuPercent.mean * RATE_NOISE_FRACTION,
          sb.cpuPercent.max - sb.cpuPercent.mean,
          sn.cpuPercent.max - sn.cpuPercent.mean,
        )
      : null;
  const rssB = sb ? sb.rssBytes.max / 1024 / 1024 : null;
  const cpu = (c: MeasuredCell): number | null => c.resources.server?.cpuPercent.mean ?? null;
  const rss = (c: MeasuredCell): number | null =>
    c.resources.server ? c.resources.server.rssBytes.max / 1024 / 1024 : null;
  const roundsOf = (
    c: MeasuredCell,
    pick: (r: NonNullable<NonNullable<MeasuredCell['rounds']>[number]['resources']>) => number | null,
  ) => c.rounds?.map((r) => (r.resources ? pick(r.resources) : null));
  const cpuSide = (c: MeasuredCell): SideValue => ({
    value: cpu(c),
    rounds: roundsOf(c, (r) => r.server?.cpuPercent.mean ?? null),
  });
  const rssSide = (c: MeasuredCell): SideValue => ({
    value: rss(c),
    rounds: roundsOf(c, (r) => (r.server ? r.server.rssBytes.max / 1024 / 1024 : null)),
  });
  // Two or three samples of a short window say nothing of how far two runs differ: as for rates. Nor does
  // the 5% that stands in for RSS's noise: two identical 0.3 s runs read 5.7% apart.
  const cpuB = cpuSide(b);
  const cpuN = cpuSide(n);
  const rssBase = rssSide(b);
  const rssNext = rssSide(n);
  return [
    delta(
      'serverCpuPercent',
      'srv CPU %',
      'resources',
      cpuB,
      cpuN,
      cpuNoise,
      'lower',
      judge,
      unmeasuredSides(b, cpuB.rounds, n, cpuN.rounds),
    ),
    delta(
      'serverRssMiB',
      'srv RSS MiB',
      'resources',
      rssBase,
      rssNext,
      rssB === null ? null : rssB * RATE_NOISE_FRACTION,
      'lower',
      judge,
      unmeasuredSides(b, rssBase.rounds, n, rssNext.rounds),
    ),
  ];
}

/** One side of a metric's comparison: the value, and its interval and rounds where the cell has them. */
type SideValue = Omit<Side, 'value'> & { value: number | null };

function metricSide(cell: MeasuredCell, key: string): SideValue {
  const interval = cell.intervals?.[key];
  return {
    value: metricOf(cell, key),
    ...(interval ? { interval } : {}),
    ...(cell.rounds ? { rounds: cell.rounds.map((r) => r.metrics?.[key]) } : {}),
  };
}

/** A count compares exactly: any rise in errors regresses whatever the threshold. */
function countDelta(key: string, metric: string, base: number | null, next: number | null): MetricDelta {
  const changePct = base !== null && next !== null && base !== 0 ? ((next - base) / Math.abs(base)) * 100 : null;
  const verdict: Verdict =
    base === null || next === null ? 'n/a' : next > base ? 'regressed' : next < base ? 'improved' : 'unchanged';
  return { key, metric, role: 'errors', base, next, changePct, noise: 0, change: null, better: 'lower', verdict };
}

function delta(
  key: string,
  metric: string,
  role: MetricDelta['role'],
  b: SideValue,
  n: SideValue,
  noise: number | null,
  better: 'lower' | 'higher',
  judge: Judging,
  unmeasured: string | null = null,
): MetricDelta {
  const base = b.value;
  const next = n.value;
  const changePct = base !== null && next !== null && base !== 0 ? ((next - base) / Math.abs(base)) * 100 : null;
  const bandPct = noise !== null && base !== null && base !== 0 ? (noise / Math.abs(base)) * 100 : null;
  const change =
    base !== null && next !== null
      ? changeInterval({ ...b, value: base }, { ...n, value: next }, changePct, bandPct, judge)
      : null;
  // With no measured noise on a side, any interval would rest on the rule of thumb alone: no interval, no decision.
  if (change && unmeasured !== null) {
    return {
      key,
      metric,
      role,
      base,
      next,
      changePct,
      noise,
      change: null,
      better,
      verdict: 'inconclusive',
      noiseUnmeasured: unmeasured,
    };
  }
  const verdict: Verdict = change ? judgeChange(change, better, judge.marginPct) : 'n/a';
  return { key, metric, role, base, next, changePct, noise, change, better, verdict };
}

/**
 * The change of next over base in percent, with its interval, by the one test of src/parent/stats/two-cells.ts:
 * the pooled change (what the base and new columns show), with the interval of the design's test (paired
 * by round within one run, with the unpaired one beside it and the paired estimate; between two files,
 * Welch's with the run-to-run spread of src/parent/stats/separate-runs.ts). A window cannot see how far two runs
 * differ, so a change measured from one is never given an interval narrower than the run-to-run band
 * (`bandPct`); with no interval at all the band alone makes it.
 */
function changeInterval(
  b: Side,
  n: Side,
  changePct: number | null,
  bandPct: number | null,
  { paired, level }: Judging,
): ChangeInterval | null {
  const test = twoCellTest(n, b, { paired, level, separateRuns: !paired });
  if (test) {
    const pct = (ratio: number): number => (ratio - 1) * 100;
    // The columns' own change, to the last digit (the ratio's exp(log) may differ from it in the 15th).
    const estimatePct = changePct ?? pct(test.ratio.ratio);
    const fromRounds = test.basis === 'rounds';
    const name =
      test.ratio.method === 'paired rounds'
        ? 'paired rounds'
        : test.ratio.method === 'separate runs'
          ? "two runs, Welch's t"
          : fromRounds
            ? "rounds, Welch's t"
            : 'window intervals';
    const beside = {
      ...(test.pairedEstimate !== undefined ? { pairedEstimatePct: pct(test.pairedEstimate) } : {}),
      ...(test.unpaired ? { unpaired: { lowPct: pct(test.unpaired.low), highPct: pct(test.unpaired.high) } } : {}),
      ...(test.outcome === 'split' ? { disagreement: test.disagreement! } : {}),
    };
    const paired =
      test.pairedEstimate !== undefined
        ? `; paired estimate ${formatPct(beside.pairedEstimatePct!)}, unpaired [${formatPct(beside.unpaired!.lowPct)}, ${formatPct(beside.unpaired!.highPct)}]`
        : '';
    const split = test.outcome === 'split' ? '; the two tests disagree' : '';
    const method = `${name}, t(${formatDf(test.ratio.degreesOfFreedom)})${paired}${split}`;
    const interval = { estimatePct, lowPct: pct(test.ratio.low), highPct: pct(test.ratio.high), level, ...beside };
    if (fromRounds || bandPct === null) return { ...interval, method };
    return {
      ...interval,
      lowPct: Math.min(interval.lowPct, estimatePct - bandPct),
      highPct: Math.max(interval.highPct, estimatePct + bandPct),
      method: `${method}, widened to the run-to-run band ±${bandPct.toFixed(1)}%`,
    };
  }
  if (changePct === null || bandPct === null) return null;
  return {
    estimatePct: changePct,
    lowPct: changePct - bandPct,
    highPct: changePct + bandPct,
    level: null,
    method: `run-to-run band ±${bandPct.toFixed(1)}% (no interval in the data)`,
  };
}

/** `+4.1%`. */
function formatPct(pct: number): string {
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)}%`;
}

function formatDf(df: number): string {
  return Number.isInteger(df) ? String(df) : df.toFixed(1);
}

function metricOf(cell: MeasuredCell, key: string): number | null {
  const value = cell.metrics[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function statusSuffix(cell: CellResult): string {
  return cell.status === 'ok' ? '' : ` (${cell.status})`;
}

function environmentNote(base: BenchResult, next: BenchResult): string | null {
  const describe = (r: BenchResult): string =>
    `${r.environment.cpuModel} x${r.environment.cpuCores}, Node ${r.environment.node}`;
  return describe(base) === describe(next)
    ? null
    : `different machines or Node: base ${describe(base)}; new ${describe(next)}`;
}

/** Cells either file measured on a machine that changed speed between rounds. */
function unstableWarnings(base: BenchResult, next: BenchResult): string[] {
  return [['base', base] as const, ['new', next] as const].flatMap(([side, result]) => {
    const unstable = result.cells.filter((c) => isMeasured(c) && c.unstable);
    if (unstable.length === 0) return [];
    const first = unstable[0] as MeasuredCell;
    return [
      `${side}: ${unstable.length} of ${result.cells.filter(isMeasured).length} cells ${first.unstable!.replace(/^unstable: /, 'unstable (e.g. ')}${unstable.length > 0 ? ')' : ''}`,
    ];
  });
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

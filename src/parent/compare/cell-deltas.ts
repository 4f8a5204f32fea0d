/**
 * Which metrics of a cell pair compare, and how far each can move by noise alone: a latency by its
 * histograms and rounds, a rate by its per-interval spread and rounds, a cost by its rounds only, the
 * server's CPU and memory by their samples; a change of status as the gate must read it. Each becomes
 * one MetricDelta (metric-delta.ts).
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
import { MIN_ROUNDS } from '../stats/round-spread.js';
import type { MetricInfo } from '../../shared/types/declaration-types.js';
import {
  isMeasured,
  type CellResult,
  type CellStatus,
  type MeasuredCell,
  type ScenarioInfo,
} from '../../shared/types/result-types.js';
import { statusChange, type MetricDelta, type Verdict } from './compare-types.js';
import { countDelta, delta, metricOf, metricSide, type Judging, type SideValue } from './metric-delta.js';

/**
 * Memory comes with no distribution in the file, so its noise is a fixed share
 * of the base value: 5% is about what two identical runs on a quiet machine
 * differ by. Rates use it as a floor; see rateDelta for what they add.
 */
export const RATE_NOISE_FRACTION = 0.05;

/** The deltas of one cell pair: its status, then each metric the scenario compares, then the server's CPU and memory. */
export function compareCell(
  b: CellResult,
  n: CellResult,
  scenario: ScenarioInfo | undefined,
  judge: Judging,
): MetricDelta[] {
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

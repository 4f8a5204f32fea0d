/**
 * `--repeat N`: a cell measured in N rounds (interleaved with the other cells,
 * so drift on a shared machine spreads over every pair) becomes one cell again.
 * Its metrics are per-key medians over the rounds that measured something, so
 * one disturbed round cannot move them; its histograms pool every round's
 * samples (exact merge); each round's own metrics stay in `rounds`, and their
 * spread is what `compare` reads as noise.
 */
import type { CellMeasurements, CellResult, EncodedHistogram, RoundResult } from '../result-types.js';
import { mergeHistogramSets, summarizeEncoded, summarizeSizes, sumCounterSets } from './metrics.js';

export function poolRounds(rounds: CellResult[]): CellResult {
  if (rounds.length === 1) return rounds[0]!;
  const first = rounds[0]!;
  const measured = rounds.filter((r) => r.measurements !== undefined);
  const trouble = rounds.find((r) => r.status !== 'ok');
  const notes = [...new Set(rounds.flatMap((r) => r.notes ?? []))];
  return {
    scenario: first.scenario,
    server: first.server,
    client: first.client,
    params: first.params,
    status: trouble?.status ?? 'ok',
    ...(trouble?.reason ? { reason: `round ${rounds.indexOf(trouble) + 1}: ${trouble.reason}` } : {}),
    ...(measured.length ? { metrics: medianMetrics(measured.map((r) => r.metrics ?? {})) } : {}),
    ...(measured.length ? { measurements: poolMeasurements(measured.map((r) => r.measurements!)) } : {}),
    ...(measured.length ? { resources: measured[Math.floor(measured.length / 2)]!.resources! } : {}),
    serverStackDrops: rounds.reduce((sum, r) => sum + (r.serverStackDrops ?? 0), 0),
    ...(notes.length ? { notes } : {}),
    rounds: rounds.map(toRound),
    elapsedMs: rounds.reduce((sum, r) => sum + r.elapsedMs, 0),
  };
}

function toRound(cell: CellResult): RoundResult {
  return {
    status: cell.status,
    ...(cell.reason ? { reason: cell.reason } : {}),
    ...(cell.metrics ? { metrics: cell.metrics } : {}),
    ...(cell.resources ? { resources: cell.resources } : {}),
    elapsedMs: cell.elapsedMs,
  };
}

/** Median of each key over the rounds that have a number for it (the lower middle for an even count). */
export function medianMetrics(sets: Record<string, number | null>[]): Record<string, number | null> {
  const keys = [...new Set(sets.flatMap((s) => Object.keys(s)))];
  return Object.fromEntries(
    keys.map((key) => {
      const values = sets.map((s) => s[key]).filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
      return [key, values.length ? values[Math.floor((values.length - 1) / 2)]! : null];
    }),
  );
}

/** Histograms merged over rounds, counters and windows added; the first round's time series. */
function poolMeasurements(parts: CellMeasurements[]): CellMeasurements {
  const histograms = mergeHistogramSets(parts.map((p) => p.histograms));
  const serverHistograms = mergeHistogramSets(parts.map((p) => p.serverHistograms));
  const series = parts.find((p) => p.timeSeries)?.timeSeries;
  return {
    histograms,
    latency: summarize(histograms, 'us', summarizeEncoded),
    sizes: summarize(histograms, 'bytes', summarizeSizes),
    counters: sumCounterSets(parts.map((p) => p.counters)),
    serverHistograms,
    serverLatency: summarize(serverHistograms, 'us', summarizeEncoded),
    serverCounters: sumCounterSets(parts.map((p) => p.serverCounters)),
    windowMs: parts.reduce((sum, p) => sum + p.windowMs, 0),
    ...(series ? { timeSeries: series } : {}),
  };
}

function summarize<T>(set: Record<string, EncodedHistogram>, unit: EncodedHistogram['unit'], fn: (h: EncodedHistogram) => T): Record<string, T> {
  return Object.fromEntries(Object.entries(set).filter(([, h]) => (h.unit ?? 'us') === unit).map(([name, h]) => [name, fn(h)]));
}

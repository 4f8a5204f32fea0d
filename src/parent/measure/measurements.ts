/**
 * A cell's measurements, assembled from parts: the client processes of one
 * round, the rounds of one cell, or the shards of one cell. Histograms merge
 * exactly, counters add up; only how the parts' windows make the cell's window
 * differs, and the caller says which rule holds.
 */
import type { CellMeasurements, EncodedHistogram, TimeSeries } from '../../shared/types/result-types.js';
import {
  mergeHistogramSets,
  summarizeLatencies,
  summarizeSizeHistograms,
  sumCounterSets,
} from '../../shared/measure/metrics.js';

/** What one client-side part measured. */
export interface ClientPart {
  histograms: Record<string, EncodedHistogram>;
  counters: Record<string, number>;
  windowMs: number;
}

/** What one server-side part measured. */
interface ServerPart {
  histograms: Record<string, EncodedHistogram>;
  counters: Record<string, number>;
}

/** The cell's window from its parts' windows, in ms. */
type WindowRule = (windowsMs: number[]) => number;

/** Processes measuring side by side: the longest of their windows. */
export const sideBySide: WindowRule = (windowsMs) => Math.max(0, ...windowsMs);
/** Rounds measured one after another: their windows add up. */
export const oneAfterAnother: WindowRule = (windowsMs) => windowsMs.reduce((sum, ms) => sum + ms, 0);

export function assembleMeasurements(
  clients: ClientPart[],
  servers: ServerPart[],
  windowRule: WindowRule,
  timeSeries?: TimeSeries,
): CellMeasurements {
  const histograms = mergeHistogramSets(clients.map((part) => part.histograms));
  const serverHistograms = mergeHistogramSets(servers.map((part) => part.histograms));
  return {
    histograms,
    latency: summarizeLatencies(histograms),
    sizes: summarizeSizeHistograms(histograms),
    counters: sumCounterSets(clients.map((part) => part.counters)),
    serverHistograms,
    serverLatency: summarizeLatencies(serverHistograms),
    serverCounters: sumCounterSets(servers.map((part) => part.counters)),
    windowMs: windowRule(clients.map((part) => part.windowMs)),
    ...(timeSeries ? { timeSeries } : {}),
  };
}

/** The server side of measurements, as a part to assemble again. */
export function serverPartOf(measurements: CellMeasurements): ServerPart {
  return { histograms: measurements.serverHistograms, counters: measurements.serverCounters };
}

/**
 * `--repeat N`: a cell measured in N rounds (interleaved with the other cells,
 * so drift on a shared machine spreads over every pair) becomes one cell again
 * by pooling: histograms merge exactly, counters and windows add up, resources
 * average over the rounds' samples. The cell's metrics are then computed once,
 * from the pool, so the table, the HTML and compare all show the same number.
 */
import type {
  CellMeasurements,
  CellResources,
  ProcessResources,
  SampledStat,
} from '../../shared/types/result-types.js';
import type { CellRun } from './cell.js';
import { assembleMeasurements, oneAfterAnother, serverPartOf } from '../measure/measurements.js';
import type { StageMeasured } from '../measure/stage-series.js';

type Measured = NonNullable<CellRun['measured']>;

export function poolMeasured(parts: Measured[]): Measured {
  if (parts.length === 1) return parts[0]!;
  const drops = parts.map((p) => p.stackDrops).filter((d): d is number => d !== null);
  return {
    measurements: poolMeasurements(parts.map((p) => p.measurements)),
    resources: poolResources(parts.map((p) => p.resources)),
    stackDrops: drops.length ? drops.reduce((a, b) => a + b, 0) : null,
    // Rounds of one cell have one kind of server: all true, or all 'listed'; any round without a report makes it false.
    serverReported: parts.every((p) => p.serverReported) ? parts[0]!.serverReported : false,
    notes: [...new Set(parts.flatMap((p) => p.notes))],
    ...(parts.some((p) => p.saturation) ? { saturation: parts.find((p) => p.saturation)!.saturation! } : {}),
    ...(parts.some((p) => p.stages) ? { stages: poolStages(parts.map((p) => p.stages)) } : {}),
  };
}

/** Histograms merged over rounds, counters and windows added; the first round's time series. */
function poolMeasurements(parts: CellMeasurements[]): CellMeasurements {
  return assembleMeasurements(
    parts,
    parts.map(serverPartOf),
    oneAfterAnother,
    parts.find((p) => p.timeSeries)?.timeSeries,
  );
}

/** Per process (server, client 1, client 2 ...): means weighted by samples, the highest max. */
function poolResources(parts: CellResources[]): CellResources {
  const servers = parts.map((p) => p.server).filter((s): s is ProcessResources => s !== null);
  const processes = Math.max(...parts.map((p) => p.clients.length));
  return {
    server: servers.length ? poolProcess(servers) : null,
    clients: Array.from({ length: processes }, (_, i) =>
      poolProcess(parts.flatMap((p) => (p.clients[i] ? [p.clients[i]!] : []))),
    ),
  };
}

function poolProcess(parts: ProcessResources[]): ProcessResources {
  const samples = parts.reduce((sum, p) => sum + p.samples, 0);
  const pool = (pick: (p: ProcessResources) => SampledStat, digits: number): SampledStat => {
    const scale = 10 ** digits;
    const mean = samples === 0 ? 0 : parts.reduce((sum, p) => sum + pick(p).mean * p.samples, 0) / samples;
    return { mean: Math.round(mean * scale) / scale, max: Math.max(...parts.map((p) => pick(p).max)) };
  };
  return {
    cpuPercent: pool((p) => p.cpuPercent, 1),
    rssBytes: pool((p) => p.rssBytes, 0),
    // Only when every round has it: a runtime that cannot say gets no made-up number.
    eventLoopUtilization: parts.every((p) => p.eventLoopUtilization) ? pool((p) => p.eventLoopUtilization!, 3) : null,
    ...(parts.some((p) => p.timerLatenessMs !== undefined)
      ? { timerLatenessMs: parts.every((p) => p.timerLatenessMs) ? pool((p) => p.timerLatenessMs!, 1) : null }
      : {}),
    samples,
  };
}

/** Each stage's rounds as one (rounds measure one after another: their windows add up). */
function poolStages(rounds: ReadonlyArray<StageMeasured[] | undefined>): StageMeasured[] | undefined {
  const measured = rounds.filter((r): r is StageMeasured[] => r !== undefined);
  if (measured.length === 0) return undefined;
  if (measured.length === 1) return measured[0];
  const indexes = [...new Set(measured.flatMap((r) => r.map((s) => s.index)))].sort((a, b) => a - b);
  return indexes.map((index) => {
    const parts = measured.flatMap((r) => r.filter((s) => s.index === index));
    return {
      ...parts[0]!,
      measurements: assembleMeasurements(
        parts.map((p) => p.measurements),
        [],
        oneAfterAnother,
      ),
      resources: poolResources(parts.map((p) => p.resources)),
    };
  });
}

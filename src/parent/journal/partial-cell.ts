/**
 * A cell round the journal saw start but never end: what it measured is
 * rebuilt from its records, as far as they reached the disk. Each client's
 * whole-window histograms are the merge of its interval histograms (exact: the
 * intervals are every sample, counted once), its counters are those of its
 * last tick (cumulative), its window reaches that tick; the time series comes
 * from the same collector a running cell uses, and CPU and RSS from the same
 * tally as the /proc sampler. What a cell only reports at its end (the server's
 * counters and histograms, size histograms, event-loop utilisation) is not
 * there, and the cell's notes say so.
 */
import type { CellResources, EncodedHistogram, ProcessResources } from '../../shared/types/result-types.js';
import type { CellRun } from '../engine/cell.js';
import type { ProgressTick } from '../../shared/measure/time-series.js';
import { assembleMeasurements, sideBySide, type ClientPart } from '../measure/measurements.js';
import { decodeHistogram, encodeHistogram, type newHistogram } from '../../shared/measure/metrics.js';
import { ResourceTally } from '../measure/resource-tally.js';
import { TimeSeriesCollector } from '../../shared/measure/time-series.js';

type Histogram = ReturnType<typeof newHistogram>;

/** What a cell cut short lacks, in its notes. */
const CUT_SHORT_NOTE =
  'cut short when wsbench stopped: rebuilt from the journal up to its last interval on disk; no server report, size histograms or event-loop utilisation (a cell sends those at its end)';

interface ClientTicks {
  histograms: Map<string, Histogram>;
  lastTick: number;
  counters: Record<string, number>;
  windowMs: number;
}

interface SampledProcess {
  tally: ResourceTally;
  first: { atMs: number; cpuSeconds: number; cpuPercent: number };
  last: { atMs: number; cpuSeconds: number };
}

export class PartialCell {
  private readonly clients = new Map<number, ClientTicks>();
  private readonly sampled = new Map<string, SampledProcess>();
  private readonly timeSeries: TimeSeriesCollector;
  private windowOpenedAtMs: number | null = null;
  /** Wall clock of the last record of this cell. */
  lastAtMs: number;

  /** `progressIntervalMs`: what the cell's clients were given; `startedAtMs`: its cell-start record. */
  constructor(
    progressIntervalMs: number,
    private readonly startedAtMs: number,
  ) {
    this.timeSeries = new TimeSeriesCollector(progressIntervalMs);
    this.lastAtMs = startedAtMs;
  }

  windowOpened(atMs: number): void {
    this.windowOpenedAtMs = atMs;
    this.lastAtMs = Math.max(this.lastAtMs, atMs);
  }

  ticks(process: number, ticks: ProgressTick[], atMs: number): void {
    this.lastAtMs = Math.max(this.lastAtMs, atMs);
    let client = this.clients.get(process);
    if (!client)
      this.clients.set(process, (client = { histograms: new Map(), lastTick: 0, counters: {}, windowMs: 0 }));
    for (const tick of ticks) {
      this.timeSeries.add(process, tick);
      for (const [name, encoded] of Object.entries(tick.intervals)) {
        const decoded = decodeHistogram(encoded);
        const known = client.histograms.get(name);
        if (known) known.add(decoded);
        else client.histograms.set(name, decoded);
      }
      // A stage's cut and the rest of its interval share a tick number: the later message is the later reading.
      if (tick.tick >= client.lastTick) {
        client.lastTick = tick.tick;
        client.counters = tick.counters;
      }
      client.windowMs = Math.max(client.windowMs, tick.tMs ?? 0);
    }
  }

  sample(
    role: 'server' | 'client',
    process: number,
    sample: { cpuPercent: number; cpuSeconds: number; rssBytes: number },
    atMs: number,
  ): void {
    this.lastAtMs = Math.max(this.lastAtMs, atMs);
    const key = `${role}:${process}`;
    let known = this.sampled.get(key);
    if (!known) {
      known = {
        tally: new ResourceTally(),
        first: { atMs, cpuSeconds: sample.cpuSeconds, cpuPercent: sample.cpuPercent },
        last: { atMs, cpuSeconds: sample.cpuSeconds },
      };
      this.sampled.set(key, known);
    }
    known.tally.add(sample.cpuPercent, sample.rssBytes);
    known.last = { atMs, cpuSeconds: sample.cpuSeconds };
  }

  /** The round as the engine would have handed it in, failed with `failure`. */
  run(failure: string): CellRun {
    const elapsedMs = this.lastAtMs - this.startedAtMs;
    if (this.clients.size === 0) return { failure, errors: null, fault: null, measured: null, elapsedMs };
    const parts = [...this.clients.keys()]
      .sort((a, b) => a - b)
      .map((process): ClientPart => {
        const client = this.clients.get(process)!;
        const histograms: Record<string, EncodedHistogram> = {};
        for (const [name, histogram] of client.histograms) histograms[name] = encodeHistogram(histogram);
        return { histograms, counters: client.counters, windowMs: client.windowMs };
      });
    const measurements = assembleMeasurements(parts, [], sideBySide, this.timeSeries.build());
    if (this.windowOpenedAtMs !== null) measurements.windowOpenedAtEpochMs = this.windowOpenedAtMs;
    return {
      failure,
      errors: null,
      fault: null,
      measured: {
        measurements,
        resources: this.resources(),
        stackDrops: null,
        serverReported: false,
        notes: [CUT_SHORT_NOTE],
      },
      elapsedMs,
    };
  }

  private resources(): CellResources {
    const clientProcesses = [...this.sampled.keys()]
      .filter((key) => key.startsWith('client:'))
      .map((key) => Number(key.slice('client:'.length)));
    return {
      server: this.processResources('server:0'),
      clients: clientProcesses
        .sort((a, b) => a - b)
        .flatMap((process) => {
          const resources = this.processResources(`client:${process}`);
          return resources ? [resources] : [];
        }),
    };
  }

  /** CPU over the samples the journal holds: CPU time between the first and the last, over the wall time between them. */
  private processResources(key: string): ProcessResources | null {
    const known = this.sampled.get(key);
    if (!known) return null;
    const wallS = (known.last.atMs - known.first.atMs) / 1000;
    const meanCpu =
      wallS > 0 ? ((known.last.cpuSeconds - known.first.cpuSeconds) / wallS) * 100 : known.first.cpuPercent;
    const stats = known.tally.stats(meanCpu)!;
    return { ...stats, eventLoopUtilization: null };
  }
}

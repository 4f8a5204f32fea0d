/**
 * A cell's stages, each measured on its own from the same progress messages
 * as the time series: the client processes cut their intervals at every
 * stage's end and say which stage each interval is of, so a stage's latency
 * is the exact merge of its intervals' histograms, its counters what each
 * process counted between the stage's first and last reading, and its window
 * the time those readings span. CPU and memory come from the orchestrator's
 * /proc samples taken while the stage ran. Server-side numbers (the server
 * reports once, at the end) are the whole window's only.
 */
import type {
  CellMeasurements,
  CellResources,
  EncodedHistogram,
  ProcessResources,
} from '../../shared/types/result-types.js';
import type { Stage } from '../../shared/types/declaration-types.js';
import type { ProgressTick } from '../../shared/measure/time-series.js';
import type { ResourceSample } from './proc-sampler.js';
import { mergeEncoded } from '../../shared/measure/metrics.js';
import { ResourceTally } from './resource-tally.js';
import { assembleMeasurements, sideBySide, type ClientPart } from './measurements.js';

/** One stage as measured: its bounds in the window, and the client side's numbers over it. */
export interface StageMeasured {
  index: number;
  /** Nominal bounds, in ms from the window's opening. */
  startMs: number;
  endMs: number;
  /** Where the stage took the load (its declared target, in the scenario's unit). */
  target: number;
  measurements: CellMeasurements;
  resources: CellResources;
}

interface ProcessStage {
  /** The process's cumulative counters at its last reading in this stage, and when that was (ms into the window). */
  counters: Record<string, number>;
  lastMs: number;
  histograms: Record<string, EncodedHistogram>;
}

export class StageCollector {
  /** By stage, by client process. */
  private readonly stages: Array<Map<number, ProcessStage>>;
  /** By stage: the server's samples, and each client's. */
  private readonly samples: Array<Map<string, { tally: ResourceTally; cpuSum: number }>>;
  private readonly bounds: Array<{ startMs: number; endMs: number }>;

  constructor(private readonly declared: readonly Stage[]) {
    let startMs = 0;
    this.bounds = declared.map((s) => {
      const bound = { startMs, endMs: startMs + s.durationMs };
      startMs = bound.endMs;
      return bound;
    });
    this.stages = declared.map(() => new Map());
    this.samples = declared.map(() => new Map());
  }

  /** Where the stages end, in ms from the window's opening: what the client processes cut their intervals at. */
  get endsMs(): number[] {
    return this.bounds.map((b) => b.endMs);
  }

  add(processIndex: number, tick: ProgressTick): void {
    const stage = tick.stage;
    if (stage === undefined || stage < 0 || stage >= this.stages.length) return;
    const byProcess = this.stages[stage]!;
    let known = byProcess.get(processIndex);
    if (!known) {
      known = { counters: {}, lastMs: 0, histograms: {} };
      byProcess.set(processIndex, known);
    }
    known.counters = tick.counters;
    known.lastMs = Math.max(known.lastMs, tick.tMs ?? 0);
    for (const [name, encoded] of Object.entries(tick.intervals)) {
      const had = known.histograms[name];
      known.histograms[name] = had ? mergeEncoded([had, encoded]) : encoded;
    }
  }

  /** One /proc sample of a process, `atMs` into the window. */
  sample(role: 'server' | 'client', process: number, sample: ResourceSample, atMs: number): void {
    const stage = this.bounds.findIndex((b) => atMs >= b.startMs && atMs < b.endMs);
    if (stage < 0) return;
    const key = `${role}:${process}`;
    let known = this.samples[stage]!.get(key);
    if (!known) {
      known = { tally: new ResourceTally(), cpuSum: 0 };
      this.samples[stage]!.set(key, known);
    }
    known.tally.add(sample.cpuPercent, sample.rssBytes);
    known.cpuSum += sample.cpuPercent;
  }

  /** Every stage that saw a reading, in order; none before the first. */
  build(): StageMeasured[] {
    const out: StageMeasured[] = [];
    /** Each process's counters at the end of the stage before, and when that was. */
    const before = new Map<number, { counters: Record<string, number>; atMs: number }>();
    this.declared.forEach((declared, index) => {
      const byProcess = this.stages[index]!;
      if (byProcess.size === 0) return;
      const parts = [...byProcess].map(([process, known]): ClientPart => {
        const prior = before.get(process) ?? { counters: {}, atMs: this.bounds[index]!.startMs };
        before.set(process, { counters: known.counters, atMs: known.lastMs });
        const counters = Object.fromEntries(
          Object.entries(known.counters).map(([name, value]) => [name, value - (prior.counters[name] ?? 0)]),
        );
        return { histograms: known.histograms, counters, windowMs: Math.max(0, known.lastMs - prior.atMs) };
      });
      out.push({
        index,
        ...this.bounds[index]!,
        target: declared.target,
        measurements: assembleMeasurements(parts, [], sideBySide),
        resources: this.resourcesOf(index),
      });
    });
    return out;
  }

  private resourcesOf(stage: number): CellResources {
    const samples = this.samples[stage]!;
    const of = (key: string): ProcessResources | null => {
      const known = samples.get(key);
      const stats = known?.tally.stats(known.cpuSum / known.tally.samples);
      return stats ? { ...stats, eventLoopUtilization: null } : null;
    };
    const clients = [...samples.keys()]
      .filter((key) => key.startsWith('client:'))
      .map((key) => Number(key.slice('client:'.length)))
      .sort((a, b) => a - b)
      .flatMap((process) => {
        const resources = of(`client:${process}`);
        return resources ? [resources] : [];
      });
    return { server: of('server:0'), clients };
  }
}

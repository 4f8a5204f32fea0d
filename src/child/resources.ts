/**
 * What a process can only measure from inside: how busy its event loop was
 * (performance.eventLoopUtilization, sampled every ~250 ms during the window),
 * and how late a 50 ms timer fired, which is how long any work waited for the
 * loop (a load generator that queues its own sends shows it here first). CPU
 * and memory are read from outside by the orchestrator (proc-sampler.ts), the
 * same way for every runtime.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { SampledStat } from '../shared/types/result-types.js';

const TICK_MS = 50;
/** Event-loop utilisation is sampled every this many ticks (250 ms). */
const TICKS_PER_LOOP_SAMPLE = 5;

export interface LoopStats {
  /** Null on runtimes without eventLoopUtilization. */
  utilization: SampledStat | null;
  /** How late the timer fired, in ms; null when it never fired. */
  timerLatenessMs: SampledStat | null;
}

export class EventLoopSampler {
  private timer: NodeJS.Timeout | null = null;
  private last: EventLoopUtilization | null = null;
  private readonly values: number[] = [];
  private lastTickMs = 0;
  private ticks = 0;
  private latenessSumMs = 0;
  private latenessMaxMs = 0;
  /** Runtimes without eventLoopUtilization report null. */
  private readonly supported = typeof performance.eventLoopUtilization === 'function';

  start(): void {
    if (this.supported) this.last = performance.eventLoopUtilization();
    this.lastTickMs = performance.now();
    this.timer = setInterval(() => this.tick(), TICK_MS);
    // A sampler must never keep a process alive on its own.
    this.timer.unref();
  }

  /** Takes a last sample (covering the tail of the window) and stops. */
  stop(): LoopStats {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.sampleLoop();
    }
    return { utilization: this.utilization(), timerLatenessMs: this.lateness() };
  }

  private tick(): void {
    const now = performance.now();
    const lateMs = Math.max(0, now - this.lastTickMs - TICK_MS);
    this.lastTickMs = now;
    this.ticks += 1;
    this.latenessSumMs += lateMs;
    this.latenessMaxMs = Math.max(this.latenessMaxMs, lateMs);
    if (this.ticks % TICKS_PER_LOOP_SAMPLE === 0) this.sampleLoop();
  }

  private sampleLoop(): void {
    if (!this.last) return;
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, this.last);
    this.last = now;
    if (delta.active + delta.idle >= 1) this.values.push(delta.utilization);
  }

  private utilization(): SampledStat | null {
    if (this.values.length === 0) return null;
    const mean = this.values.reduce((a, b) => a + b, 0) / this.values.length;
    return { mean: round(mean, 3), max: round(Math.max(...this.values), 3) };
  }

  private lateness(): SampledStat | null {
    if (this.ticks === 0) return null;
    return { mean: round(this.latenessSumMs / this.ticks, 1), max: round(this.latenessMaxMs, 1) };
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

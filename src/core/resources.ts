/**
 * The one resource a process can only measure from inside: how busy its event
 * loop was (Node's performance.eventLoopUtilization), sampled every ~250 ms
 * during the window. CPU and memory are read from outside by the orchestrator
 * (proc-sampler.ts), the same way for every runtime.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { SampledStat } from '../result-types.js';

const SAMPLE_INTERVAL_MS = 250;

export class EventLoopSampler {
  private timer: NodeJS.Timeout | null = null;
  private last: EventLoopUtilization | null = null;
  private readonly values: number[] = [];
  /** Runtimes without eventLoopUtilization report null. */
  private readonly supported = typeof performance.eventLoopUtilization === 'function';

  start(): void {
    if (!this.supported) return;
    this.last = performance.eventLoopUtilization();
    this.timer = setInterval(() => this.sample(), SAMPLE_INTERVAL_MS);
    // A sampler must never keep a process alive on its own.
    this.timer.unref();
  }

  /** Takes a last sample (covering the tail of the window) and stops. */
  stop(): SampledStat | null {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.sample();
    }
    if (this.values.length === 0) return null;
    const mean = this.values.reduce((a, b) => a + b, 0) / this.values.length;
    return { mean: Math.round(mean * 1000) / 1000, max: Math.round(Math.max(...this.values) * 1000) / 1000 };
  }

  private sample(): void {
    if (!this.last) return;
    const now = performance.eventLoopUtilization();
    const delta = performance.eventLoopUtilization(now, this.last);
    this.last = now;
    if (delta.active + delta.idle >= 1) this.values.push(delta.utilization);
  }
}

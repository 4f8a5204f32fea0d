/**
 * Samples this process's CPU %, RSS and event-loop utilisation every ~250 ms
 * during the measurement window. Runs inside every child process, so each role
 * (server, client) reports its own cost.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { ProcessResources, SampledStat } from '../result-types.js';

const SAMPLE_INTERVAL_MS = 250;

interface Accumulator {
  sum: number;
  max: number;
}

export class ResourceSampler {
  private timer: NodeJS.Timeout | null = null;
  private lastCpu = process.cpuUsage();
  private lastWallUs = 0;
  private lastElu: EventLoopUtilization = performance.eventLoopUtilization();
  private samples = 0;
  private readonly cpu: Accumulator = { sum: 0, max: 0 };
  private readonly rss: Accumulator = { sum: 0, max: 0 };
  private readonly elu: Accumulator = { sum: 0, max: 0 };

  start(): void {
    this.lastCpu = process.cpuUsage();
    this.lastWallUs = performance.now() * 1000;
    this.lastElu = performance.eventLoopUtilization();
    this.timer = setInterval(() => this.sample(), SAMPLE_INTERVAL_MS);
    // A sampler must never keep a process alive on its own.
    this.timer.unref();
  }

  /** Takes a last sample (covering the tail of the window) and stops. */
  stop(): ProcessResources {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.sample();
    }
    return this.summary();
  }

  private sample(): void {
    const wallUs = performance.now() * 1000;
    const elapsedUs = wallUs - this.lastWallUs;
    if (elapsedUs < 1000) return; // too short to say anything about CPU
    const cpu = process.cpuUsage(this.lastCpu);
    const elu = performance.eventLoopUtilization(this.lastElu);
    this.lastCpu = process.cpuUsage();
    this.lastElu = performance.eventLoopUtilization();
    this.lastWallUs = wallUs;
    add(this.cpu, ((cpu.user + cpu.system) / elapsedUs) * 100);
    add(this.rss, process.memoryUsage.rss());
    add(this.elu, elu.utilization);
    this.samples += 1;
  }

  private summary(): ProcessResources {
    return {
      cpuPercent: stat(this.cpu, this.samples, 1),
      rssBytes: stat(this.rss, this.samples, 0),
      eventLoopUtilization: stat(this.elu, this.samples, 3),
      samples: this.samples,
    };
  }
}

function add(acc: Accumulator, value: number): void {
  acc.sum += value;
  if (value > acc.max) acc.max = value;
}

function stat(acc: Accumulator, samples: number, digits: number): SampledStat {
  const scale = 10 ** digits;
  const mean = samples === 0 ? 0 : acc.sum / samples;
  return { mean: Math.round(mean * scale) / scale, max: Math.round(acc.max * scale) / scale };
}

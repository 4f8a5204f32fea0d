/**
 * How busy the thread that runs a page's script was: the main thread of the
 * browser's renderer processes, on a CPU for what share of each ~250 ms of the
 * window (/proc/<pid>/task/<pid>/schedstat). A page cannot read its own event
 * loop's utilisation; this is the nearest the client process can see, and it
 * stands in the report where a Node client's eventLoopUtilization would.
 * Each sample takes the busiest renderer of each browser (the one running the
 * scenario: the others are Chromium's own idle pages).
 */
import { readFileSync } from 'node:fs';
import type { SampledStat } from '../../../shared/types/result-types.js';
import { groupMembers } from './process-group.js';

const SAMPLE_MS = 250;

export class RendererLoad {
  private timer: NodeJS.Timeout | null = null;
  private renderers: number[][] = [];
  private last = new Map<number, number>();
  private lastAtMs = 0;
  private readonly shares: number[] = [];

  /** `groups`: the process group of each browser. */
  constructor(private readonly groups: readonly number[]) {}

  start(): void {
    const members = groupMembers(new Set(this.groups));
    this.renderers = this.groups.map((group) => (members.get(group) ?? []).filter(isRenderer));
    this.read();
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  /** Takes a last sample and stops; null when no sample was taken. */
  stop(): SampledStat | null {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.sample();
    }
    if (this.shares.length === 0) return null;
    const mean = this.shares.reduce((a, b) => a + b, 0) / this.shares.length;
    return { mean: Math.round(mean * 1000) / 1000, max: Math.round(Math.max(...this.shares) * 1000) / 1000 };
  }

  private sample(): void {
    const before = this.last;
    const beforeMs = this.lastAtMs;
    this.read();
    const elapsedNs = (this.lastAtMs - beforeMs) * 1e6;
    if (elapsedNs < SAMPLE_MS * 0.2 * 1e6) return;
    // The busiest page's thread: a load generator is as busy as its busiest part.
    let busiest: number | null = null;
    for (const renderers of this.renderers) {
      for (const pid of renderers) {
        const now = this.last.get(pid);
        const then = before.get(pid);
        if (now === undefined || then === undefined) continue;
        busiest = Math.max(busiest ?? 0, Math.min(1, (now - then) / elapsedNs));
      }
    }
    if (busiest !== null) this.shares.push(busiest);
  }

  private read(): void {
    this.last = new Map(
      this.renderers.flat().flatMap((pid) => {
        const onCpuNs = mainThreadOnCpuNs(pid);
        return onCpuNs === null ? [] : [[pid, onCpuNs] as const];
      }),
    );
    this.lastAtMs = performance.now();
  }
}

/** Time the main thread of `pid` spent on a CPU, in ns; null when it is gone. */
function mainThreadOnCpuNs(pid: number): number | null {
  try {
    const onCpu = Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]);
    return Number.isFinite(onCpu) ? onCpu : null;
  } catch {
    return null;
  }
}

function isRenderer(pid: number): boolean {
  try {
    // Chromium rewrites its command line into one string: the arguments are apart by spaces or NULs.
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).includes('--type=renderer');
  } catch {
    return false;
  }
}

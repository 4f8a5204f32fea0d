/**
 * CPU and memory of a process (or of its whole process tree), read from /proc
 * by the orchestrator every 250 ms during the window. Every server and client
 * is measured this way, whatever it runs on (Node, Bun, Deno, a Python server
 * started by command), so they are compared on equal terms.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import type { ResourceSample } from './events.js';
import { ResourceTally, type ProcStats } from './resource-tally.js';

export type { ProcStats } from './resource-tally.js';

const SAMPLE_INTERVAL_MS = 250;

/** Clock ticks per second and page size, from the system (100 and 4096 on usual Linux). */
const CLOCK_TICKS = systemNumber('CLK_TCK', 100);
const PAGE_BYTES = systemNumber('PAGESIZE', 4096);

function systemNumber(name: string, fallback: number): number {
  try {
    const value = Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim());
    return Number.isFinite(value) && value > 0 ? value : fallback;
  } catch {
    return fallback;
  }
}

export interface ProcReading {
  /** CPU time of the process (and its children, waited-for ones included), in clock ticks. */
  cpuTicks: number;
  rssBytes: number;
}

/** One process's counters from /proc/<pid>/stat; null when it is gone. */
export function readProcess(pid: number): ProcReading | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name may hold spaces and parentheses: fields are counted after its closing one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // Fields 14-17 (utime, stime, cutime, cstime) and 24 (rss, pages), counted from 1 with pid and comm.
  const at = (field: number): number => Number(fields[field - 3]);
  return { cpuTicks: at(14) + at(15) + at(16) + at(17), rssBytes: at(24) * PAGE_BYTES };
}

/** `pid` and every process below it, from the kernel's children lists. */
export function processTree(pid: number): number[] {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${tree[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${tree[i]}/task/${task}/children`, 'utf8').trim();
        if (children) tree.push(...children.split(' ').map(Number));
      } catch {
        // the task ended while we looked
      }
    }
  }
  return tree;
}

/** The sum over a process (or its tree) of CPU ticks and RSS; null when the root is gone. */
export function readTree(pid: number, tree: boolean): ProcReading | null {
  const root = readProcess(pid);
  if (!root || !tree) return root;
  let cpuTicks = 0;
  let rssBytes = 0;
  for (const member of processTree(pid)) {
    const reading = member === pid ? root : readProcess(member);
    if (!reading) continue;
    cpuTicks += reading.cpuTicks;
    rssBytes += reading.rssBytes;
  }
  return { cpuTicks, rssBytes };
}

/** The sum over several processes (a server of several processes), each alone or with its tree; null when any is gone. */
function readAll(pids: readonly number[], tree: boolean): ProcReading | null {
  let cpuTicks = 0;
  let rssBytes = 0;
  for (const pid of pids) {
    const reading = readTree(pid, tree);
    if (!reading) return null;
    cpuTicks += reading.cpuTicks;
    rssBytes += reading.rssBytes;
  }
  return { cpuTicks, rssBytes };
}

/** Samples one process (or tree, or several processes taken as one) from outside while the window is open. */
export class ProcSampler {
  private timer: NodeJS.Timeout | null = null;
  private first: { atMs: number; cpuTicks: number } | null = null;
  private last: { atMs: number; cpuTicks: number } | null = null;
  /** Running statistics, not the samples: a window of hours holds no growing list. */
  private readonly tally = new ResourceTally();

  private readonly pids: readonly number[];
  /** Hears every sample as it is taken (a live view); the window's statistics do not depend on it. */
  onSample: ((sample: ResourceSample) => void) | null = null;

  constructor(pid: number | readonly number[], private readonly tree = false) {
    this.pids = typeof pid === 'number' ? [pid] : pid;
  }

  start(): void {
    const reading = readAll(this.pids, this.tree);
    if (reading) this.first = this.last = { atMs: performance.now(), cpuTicks: reading.cpuTicks };
    this.timer = setInterval(() => this.sample(), SAMPLE_INTERVAL_MS);
    this.timer.unref();
  }

  /** Takes a last sample (the tail of the window) and stops; null when nothing could be read. */
  stop(): ProcStats | null {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.sample();
    }
    if (!this.first || !this.last) return null;
    const wallMs = this.last.atMs - this.first.atMs;
    return this.tally.stats(wallMs > 0 ? ((this.last.cpuTicks - this.first.cpuTicks) / CLOCK_TICKS / (wallMs / 1000)) * 100 : 0);
  }

  private sample(): void {
    const reading = readAll(this.pids, this.tree);
    if (!reading || !this.last) return;
    const atMs = performance.now();
    const elapsedMs = atMs - this.last.atMs;
    // Ticks are 10 ms: shorter than a few of them says nothing about CPU.
    if (elapsedMs < 50) return;
    const cpuPercent = ((reading.cpuTicks - this.last.cpuTicks) / CLOCK_TICKS / (elapsedMs / 1000)) * 100;
    this.tally.add(cpuPercent, reading.rssBytes);
    this.onSample?.({ cpuPercent, cpuSeconds: reading.cpuTicks / CLOCK_TICKS, rssBytes: reading.rssBytes });
    this.last = { atMs, cpuTicks: reading.cpuTicks };
  }
}

/**
 * CPU and memory of a process (or of its whole process tree), read from /proc
 * by the orchestrator when the window opens, every 250 ms while it is open, and
 * when it closes. Every server and client is measured this way, whatever it runs
 * on (Node, Bun, Deno, a Python server started by command), so they are compared
 * on equal terms. A window shorter than one interval (200 messages on a fast
 * machine) still has its readings at both ends: its CPU and its RSS.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { ResourceTally, type ProcStats } from './resource-tally.js';

/** One /proc reading of a process (or process tree) during the window. */
export interface ResourceSample {
  /** CPU over the time since the previous sample, in percent of one core. */
  cpuPercent: number;
  /** CPU time used since the process started (user + system, waited-for children included). */
  cpuSeconds: number;
  rssBytes: number;
}

export type { ProcStats } from './resource-tally.js';

const SAMPLE_INTERVAL_MS = 250;

/** Clock ticks per second and page size, from the system (100 and 4096 on usual Linux). */
export const CLOCK_TICKS = systemNumber('CLK_TCK', 100);
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
  /**
   * Time its main thread spent on a CPU plus waiting on a run queue for one, in ns, from
   * /proc/<pid>/schedstat: what it wanted, whether or not a core was free. Absent
   * where the kernel does not keep schedstat (or for a cgroup's reading).
   */
  demandNs?: number;
}

/**
 * On-CPU plus run-queue time of the main thread of `pid` (where its event loop runs), in ns;
 * undefined when /proc has no schedstat. Helper threads are left out: each wakes briefly and
 * waits for a core on a busy machine, and their waits added up say nothing about the loop.
 */
function readDemandNs(pid: number): number | undefined {
  try {
    // "<ns on cpu> <ns waiting on a run queue> <timeslices>"
    const [onCpu, waiting] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return Number.isFinite(onCpu) && Number.isFinite(waiting) ? onCpu! + waiting! : undefined;
  } catch {
    return undefined;
  }
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
  const demandNs = readDemandNs(pid);
  return {
    cpuTicks: at(14) + at(15) + at(16) + at(17),
    rssBytes: at(24) * PAGE_BYTES,
    ...(demandNs === undefined ? {} : { demandNs }),
  };
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
function readTree(pid: number, tree: boolean): ProcReading | null {
  const root = readProcess(pid);
  if (!root || !tree) return root;
  return sumOf(processTree(pid).map((member) => (member === pid ? root : readProcess(member))));
}

/** Readings added up; demand only when every one has it (a part without it would understate the sum). */
function sumOf(readings: Array<ProcReading | null>): ProcReading {
  const present = readings.filter((r): r is ProcReading => r !== null);
  const cpuTicks = present.reduce((sum, r) => sum + r.cpuTicks, 0);
  const rssBytes = present.reduce((sum, r) => sum + r.rssBytes, 0);
  const demand = present.every((r) => r.demandNs !== undefined)
    ? present.reduce((sum, r) => sum + r.demandNs!, 0)
    : undefined;
  return { cpuTicks, rssBytes, ...(demand === undefined ? {} : { demandNs: demand }) };
}

/** The sum over several processes (a server of several processes), each alone or with its tree; null when any is gone. */
function readAll(pids: readonly number[], tree: boolean): ProcReading | null {
  const readings = pids.map((pid) => readTree(pid, tree));
  return readings.includes(null) ? null : sumOf(readings);
}

/** What to sample: a process, several taken as one, or any reading (a cgroup's). */
export type ProcSource = number | readonly number[] | (() => ProcReading | null);

/** Samples one process (or tree, or several processes taken as one, or a cgroup) from outside while the window is open. */
export class ProcSampler {
  private timer: NodeJS.Timeout | null = null;
  private first: Mark | null = null;
  private last: Mark | null = null;
  /** Running statistics, not the samples: a window of hours holds no growing list. */
  private readonly tally = new ResourceTally();

  private readSource: () => ProcReading | null;
  /** What the processes followed before the current ones used, up to their last sample (a restarted server's earlier life). */
  private earlier = { cpuTicks: 0, demandNs: 0 };
  /** Hears every sample as it is taken (a live view); the window's statistics do not depend on it. */
  onSample: ((sample: ResourceSample) => void) | null = null;

  constructor(
    source: ProcSource,
    private readonly tree = false,
  ) {
    const pids = typeof source === 'number' ? [source] : source;
    this.readSource = typeof pids === 'function' ? pids : () => readAll(pids, tree);
  }

  /** Takes a sample now (before the process is killed, so its last CPU time counts). */
  sampleNow(): void {
    if (this.timer) this.sample();
  }

  /**
   * From now on samples `pids` instead (a restarted server): their CPU time adds to what the
   * processes before them used up to their last sample, so the window's mean covers both lives.
   */
  follow(pids: readonly number[]): void {
    if (this.last) this.earlier = { cpuTicks: this.last.cpuTicks, demandNs: this.last.demandNs ?? 0 };
    this.readSource = () => readAll(pids, this.tree);
  }

  /** Reads the process as the window opens: its RSS counts, and its CPU time is where the window's mean starts. */
  start(): void {
    const reading = this.read();
    if (reading) {
      this.first = this.last = markOf(reading);
      this.tally.addReading(reading.rssBytes);
    }
    this.timer = setInterval(() => this.sample(), SAMPLE_INTERVAL_MS);
    this.timer.unref();
  }

  /**
   * Reads the process as the window closes (however soon after the start) and stops; null when it could not be
   * read after the start (gone at once): one reading spans no time to say its CPU over.
   */
  stop(): ProcStats | null {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.sample(true);
    }
    if (!this.first || !this.last || this.last === this.first) return null;
    const wallMs = this.last.atMs - this.first.atMs;
    // The means are all CPU (or demand) time over all wall time: exact, whatever the tick rounding of single samples.
    const meanCpu = wallMs > 0 ? ((this.last.cpuTicks - this.first.cpuTicks) / CLOCK_TICKS / (wallMs / 1000)) * 100 : 0;
    const demandNs =
      this.first.demandNs !== undefined && this.last.demandNs !== undefined
        ? this.last.demandNs - this.first.demandNs
        : undefined;
    const meanDemand = demandNs !== undefined && wallMs > 0 ? (demandNs / 1e6 / wallMs) * 100 : undefined;
    return this.tally.stats(meanCpu, meanDemand);
  }

  private read(): ProcReading | null {
    const reading = this.readSource();
    if (!reading) return null;
    const { cpuTicks, demandNs } = this.earlier;
    return {
      cpuTicks: reading.cpuTicks + cpuTicks,
      rssBytes: reading.rssBytes,
      ...(reading.demandNs === undefined ? {} : { demandNs: reading.demandNs + demandNs }),
    };
  }

  /** One reading; `closing`: the window's last, which counts however soon it comes. */
  private sample(closing = false): void {
    const reading = this.read();
    if (!reading || !this.last) return;
    const atMs = performance.now();
    const elapsedMs = atMs - this.last.atMs;
    // Ticks are 10 ms: shorter than a few of them says nothing about CPU on its own. The window's last reading
    // still counts: its RSS, and its CPU time, which the window's mean (all CPU time over all wall time) ends at.
    if (elapsedMs < 50) {
      if (closing && elapsedMs > 0) {
        this.tally.addReading(reading.rssBytes);
        this.last = markOf(reading, atMs);
      }
      return;
    }
    const cpuPercent = ((reading.cpuTicks - this.last.cpuTicks) / CLOCK_TICKS / (elapsedMs / 1000)) * 100;
    const demandPercent =
      reading.demandNs !== undefined && this.last.demandNs !== undefined
        ? ((reading.demandNs - this.last.demandNs) / 1e6 / elapsedMs) * 100
        : undefined;
    this.tally.add(cpuPercent, reading.rssBytes, demandPercent);
    this.onSample?.({ cpuPercent, cpuSeconds: reading.cpuTicks / CLOCK_TICKS, rssBytes: reading.rssBytes });
    this.last = markOf(reading, atMs);
  }
}

interface Mark {
  atMs: number;
  cpuTicks: number;
  demandNs?: number;
}

function markOf(reading: ProcReading, atMs = performance.now()): Mark {
  return {
    atMs,
    cpuTicks: reading.cpuTicks,
    ...(reading.demandNs === undefined ? {} : { demandNs: reading.demandNs }),
  };
}

/**
 * A server that falls behind is a result, not a fault: when it cannot hand in
 * its report in time after the window, and the orchestrator saw it using a whole
 * core, the cell keeps every number the clients measured and says "server
 * saturated" with that evidence, instead of failing with "no report".
 *
 * A server stuck in a loop looks the same from its CPU alone, but it stops
 * answering: when no client counter moved through the end of the window, the
 * server is hung, and that is a fault (the cell fails, with the same evidence).
 * Clients that count their own sends on a timer (idle's pings) keep a counter
 * moving; a hung server then reads as saturated, its unanswered pings in view.
 */
import type {
  CellMeasurements,
  LoadSaturation,
  ProcessResources,
  TimeSeries,
} from '../../shared/types/result-types.js';
import type { ProcStats } from './proc-sampler.js';
import { behindAdvice, behindSchedule } from './schedule-lag.js';

/**
 * Mean CPU over the window, % of one core, from which a process counts as saturated: one event
 * loop uses one core at most, and past this it queues its own work, so what it measures is partly
 * its own delay. The one threshold for a server that went quiet, a capacity step's server and load
 * generator, and a shard's load generator.
 */
export const SATURATED_CPU_PERCENT = 85;
/** A server is hung when the clients saw nothing for this long at the window's end (or half a shorter window). */
const HUNG_QUIET_MS = 1000;
/**
 * A process whose event loop was busy (not waiting for I/O) at least this share
 * of the window while it was on CPU much less was starved: it had work and waited
 * for a core that other processes held. Its numbers say the machine was full, not
 * that it reached its own limit.
 */
export const STARVED_LOOP_SHARE = 0.9;

/** `processes` event loops whose CPU (or CPU demand), added up, leaves none of their cores to spare. */
function isCpuSaturated(cpuPercent: number, processes = 1): boolean {
  return cpuPercent >= SATURATED_CPU_PERCENT * processes;
}

/** What a process's busyness is judged on, and what that evidence is called. */
interface BusyMeasure {
  percent: number;
  max: number;
  /** demand: on-CPU plus run-queue time (/proc schedstat); cpu: on-CPU time alone. */
  kind: 'demand' | 'cpu';
}

/**
 * The CPU a process wanted where /proc says (on a shared machine a spinning process gets less than
 * a core, but it still wants a whole one), its CPU otherwise: the one measure every saturation
 * judgement (server, client, shard, capacity) reads.
 */
function busyMeasure(process: Pick<ProcStats, 'cpuPercent' | 'cpuDemandPercent'>): BusyMeasure {
  const demand = process.cpuDemandPercent;
  return demand
    ? { percent: demand.mean, max: demand.max, kind: 'demand' }
    : { percent: process.cpuPercent.mean, max: process.cpuPercent.max, kind: 'cpu' };
}

/**
 * Below this share of the window busy, by its own count, an event loop was mostly idle: on a crowded
 * machine it waited for a core after each wake-up (demand counts that wait), but it had no backlog.
 */
const IDLE_LOOP_SHARE = 0.5;

/**
 * The process (or `processes` taken as one) wanted, or used, every core it could. `eventLoop`, where the
 * process reports it: a loop mostly idle was woken late by a crowded machine, not saturated by its work.
 */
export function isSaturated(
  process: Pick<ProcStats, 'cpuPercent' | 'cpuDemandPercent'>,
  processes = 1,
  eventLoop: number | null = null,
): boolean {
  const busy = busyMeasure(process);
  if (busy.kind === 'demand' && eventLoop !== null && eventLoop < IDLE_LOOP_SHARE) return false;
  return isCpuSaturated(busy.percent, processes);
}

/** Busy event loop, yet short of saturated (over `processes` processes): waiting for a core, not using one. */
export function isStarved(
  process: Pick<ProcStats, 'cpuPercent' | 'cpuDemandPercent'> | null,
  eventLoop: number | null,
  processes = 1,
): boolean {
  return (
    eventLoop !== null &&
    eventLoop >= STARVED_LOOP_SHARE &&
    process !== null &&
    !isSaturated(process, processes, eventLoop)
  );
}

/** "CPU demand 98% of a core (peak 100%; on CPU 31%, the rest waiting for a core)" or "CPU 97% of a core (peak 99%)". */
export function busyEvidence(process: Pick<ProcStats, 'cpuPercent' | 'cpuDemandPercent'>, cores = 'a core'): string {
  const busy = busyMeasure(process);
  if (busy.kind === 'cpu') return `CPU ${busy.percent.toFixed(0)}% of ${cores} (peak ${busy.max.toFixed(0)}%)`;
  return `CPU demand ${busy.percent.toFixed(0)}% of ${cores} (peak ${busy.max.toFixed(0)}%; on CPU ${process.cpuPercent.mean.toFixed(0)}%, the rest waiting for a core)`;
}

/**
 * The load generator's judgement, the one `run`, `capacity` and `merge` read: which client
 * processes were saturated (a whole core) or starved (a busy loop without the CPU), with the
 * evidence and what to do; null when every one kept up. `spread`: the count the processes split
 * (connections), when known: past it, a process had nothing to do, and more processes cannot help.
 */
export function loadSaturationOf(
  clients: readonly ProcessResources[],
  spread: { name: string; total: number } | null = null,
): LoadSaturation | null {
  const saturated: number[] = [];
  const starved: number[] = [];
  clients.forEach((client, i) => {
    if (isSaturated(client, 1, client.eventLoopUtilization?.mean ?? null)) saturated.push(i + 1);
    else if (isStarved(client, client.eventLoopUtilization?.mean ?? null)) starved.push(i + 1);
  });
  if (saturated.length === 0 && starved.length === 0) return null;
  const named = clients.length > 1;
  const lines = [...saturated, ...starved]
    .sort((a, b) => a - b)
    .map((n) => `${named ? `client ${n}: ` : ''}${processEvidence(clients[n - 1]!)}`);
  const what =
    saturated.length > 0
      ? `load generator saturated (from ${SATURATED_CPU_PERCENT}% of a core)`
      : `load generator starved of CPU (event loop busy ${Math.round(STARVED_LOOP_SHARE * 100)}%+ of the window on less than ${SATURATED_CPU_PERCENT}% of a core: other processes held the cores)`;
  const idle = spread !== null && spread.total < clients.length ? idleText(spread, clients.length) : null;
  const advice =
    idle !== null
      ? `${idle}: more client processes cannot spread it further${saturated.length > 0 ? '' : "; free the machine's cores"}`
      : saturated.length > 0
        ? `spread the load over more client processes (--client-procs ${clients.length + 1} or more)`
        : `free the machine's cores, or spread the load (--client-procs ${clients.length + 1})`;
  return {
    saturated,
    starved,
    evidence: `${what}: ${lines.join('; ')}; its latencies include its own queueing; ${advice}`,
  };
}

/**
 * The load generator's judgement with its schedule read too (the open model): a generator that kept its CPU
 * below a core can still fall behind its sends (a process that sends on one thread while its timers run
 * late), and one that fell behind offered the server another load than the one asked.
 */
export function withScheduleLag(
  saturation: LoadSaturation | null,
  measurements: Pick<CellMeasurements, 'histograms' | 'counters'>,
): LoadSaturation | null {
  const behind = behindSchedule(measurements);
  if (behind === null) return saturation;
  const advice = behindAdvice((saturation?.saturated.length ?? 0) > 0);
  return saturation === null
    ? { saturated: [], starved: [], behindSchedule: true, evidence: `${behind} (${advice})` }
    : { ...saturation, behindSchedule: true, evidence: `${saturation.evidence}; ${behind} (${advice})` };
}

/** "client 2 had nothing to do (connections=1 over 2 client processes)": the processes past the count's share. */
function idleText(spread: { name: string; total: number }, processes: number): string {
  const first = spread.total + 1;
  const which = first === processes ? `client ${first}` : `clients ${first} to ${processes}`;
  return `${which} had nothing to do (${spread.name}=${spread.total} over ${processes} client processes)`;
}

function processEvidence(process: ProcessResources): string {
  const loop = process.eventLoopUtilization;
  const late = process.timerLatenessMs;
  return [
    busyEvidence(process),
    loop ? `event loop busy ${(loop.mean * 100).toFixed(1)}%` : null,
    late ? `timers late by ${formatMs(late.mean)} on average (at worst ${formatMs(late.max)})` : null,
  ]
    .filter((part): part is string => part !== null)
    .join(', ');
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
}

type ServerSilence = { saturated: string } | { hung: string } | null;

/**
 * Why a busy server did not report: saturated (a result), hung (a fault), or null when it was not busy (another fault).
 * `processes`: a server of several processes is busy when they used that many cores, near enough.
 */
export function silenceOf(
  server: ProcStats | null,
  reason: string,
  series: TimeSeries | undefined,
  processes = 1,
): ServerSilence {
  if (!server || !/no report within/.test(reason)) return null;
  if (!isSaturated(server, processes)) return null;
  const cores = processes === 1 ? 'a core' : `${processes} cores (${processes} processes)`;
  const cpu = `${busyEvidence(server, cores)} through the window`;
  const silence = reason.replace(/^server( \d+)?: /, '');
  const quiet = quietTail(series);
  if (quiet && quiet.quietMs >= Math.min(HUNG_QUIET_MS, quiet.windowMs / 2)) {
    return {
      hung: `server hung: ${cpu}, and no client counter moved in the last ${(quiet.quietMs / 1000).toFixed(1)} s of the window (${silence})`,
    };
  }
  return {
    saturated: `server saturated: ${cpu}, and it was still busy when asked for its report (${silence}); server-side counters are missing, the clients' numbers are complete`,
  };
}

/** How long before the window's end the clients' counters last moved, and the window's length; null without two points. */
function quietTail(series: TimeSeries | undefined): { quietMs: number; windowMs: number } | null {
  const points = series?.points ?? [];
  if (points.length < 2) return null;
  const last = points.length - 1;
  // Counters that first appear in the last point are tallies taken after the window (unanswered at the end): not movement.
  const names = Object.keys(points[last - 1]!.counters);
  const total = (i: number): number => names.reduce((sum, name) => sum + (points[i]!.counters[name] ?? 0), 0);
  let first = last;
  while (first > 0 && total(first - 1) === total(last)) first -= 1;
  // Counters last moved in the interval that ends at points[first]; if they never moved, the window was quiet throughout.
  const movedAtMs = first === 0 && total(0) === 0 ? 0 : points[first]!.tMs;
  return { quietMs: points[last]!.tMs - movedAtMs, windowMs: points[last]!.tMs };
}

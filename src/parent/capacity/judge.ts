/**
 * Turns one measured cell into a capacity step: did the SLO hold, what broke,
 * and was the server or the load generator out of CPU (measure/saturation.ts
 * holds that threshold) or starved of it (here). Both are written into the
 * capacity JSON.
 */
import { isMeasured, type CellResult, type ScenarioInfo } from '../../shared/types/result-types.js';
import { serverProcessCount } from '../engine/params.js';
import { isSaturated, isStarved, loadSaturationOf, STARVED_LOOP_SHARE } from '../measure/saturation.js';
import { checkSlo, type Slo } from '../slo/grammar.js';
import type { BreakCause, CapacityStep } from '../../shared/types/capacity-types.js';

export { STARVED_LOOP_SHARE, isStarved };

/** Step fields before the search places it (count, processes, phase and outcome are the search's). */
export type StepMeasurement = Omit<CapacityStep, 'phase' | 'outcome'>;

/** Judges one cell of a step against the SLO. */
export function judgeCell(
  cell: CellResult,
  slo: Slo,
  scenario: ScenarioInfo,
  latencyKey: string | null,
  count: number,
  clientProcesses: number,
): StepMeasurement {
  const base = { count, clientProcesses, elapsedMs: cell.elapsedMs, cellStatus: cell.status };
  if (!isMeasured(cell)) {
    const reason = cell.reason;
    return {
      ...base,
      ...empty(slo),
      verdict: 'broken',
      causes: ['failed'],
      breaches: [`cell ${cell.status}: ${reason}`],
      reason,
    };
  }
  const outcomes = checkSlo(slo, cell.metrics, cell.missing);
  // A cell without the engine's judgement (an older file) is judged the same way here.
  const loadSaturation = cell.loadSaturation ?? loadSaturationOf(cell.resources.clients);
  const server = cell.resources.server;
  const clientCpuPercent = cell.resources.clients.map((c) => c.cpuPercent.mean);
  const clientCpuDemandPercent = cell.resources.clients.map((c) => c.cpuDemandPercent?.mean ?? null);
  const clientEventLoop = cell.resources.clients.map((c) => c.eventLoopUtilization?.mean ?? null);
  const serverCpuPercent = server?.cpuPercent.mean ?? null;
  const serverCpuDemandPercent = server?.cpuDemandPercent?.mean ?? null;
  // Several server processes add up their CPU: each is saturated near a core of its own.
  const serverProcesses = serverProcessCount(cell.params);
  const serverEventLoop = server?.eventLoopUtilization?.mean ?? null;
  const causes: BreakCause[] = [...new Set(outcomes.filter((o) => !o.held).map((o) => o.clause.kind))];
  const breaches = outcomes.flatMap((o) => (o.why === null ? [] : [o.why]));
  // An `errors` cell is judged by the SLO (its errors-role metrics carry the lost and failed connections); its reason is kept.
  const reason = cell.status === 'ok' ? null : cell.reason;
  if (cell.status === 'failed') {
    causes.push('failed');
    breaches.push(`cell failed: ${reason}`);
  }
  return {
    ...base,
    verdict: causes.length === 0 ? 'within' : 'broken',
    // The load generator's judgement is the engine's, written into the cell: run and capacity read the same one.
    // A saturated generator is measured again with more processes. One behind its schedule without using its
    // core was held up by a full machine (more processes would not help): starved, below, and said so.
    clientSaturated: (loadSaturation?.saturated.length ?? 0) > 0,
    // Demand (on CPU plus waiting for a core) where /proc has it, CPU otherwise: the engine's one judgement.
    serverSaturated: server !== null && isSaturated(server, serverProcesses, serverEventLoop),
    serverStarved: isStarved(server, serverEventLoop, serverProcesses),
    clientEventLoop,
    clientStarved: (loadSaturation?.starved.length ?? 0) > 0 || loadSaturation?.behindSchedule === true,
    reason,
    sloValues: outcomes.map((o) => o.value),
    latencyMs: latencyKey === null ? null : numberOrNull(cell.metrics[latencyKey]),
    errors: errorsOf(scenario, cell.metrics),
    serverCpuPercent,
    serverCpuDemandPercent,
    serverEventLoop,
    serverRssBytes: server?.rssBytes.max ?? null,
    clientCpuPercent,
    clientCpuDemandPercent,
    causes,
    breaches,
  };
}

/**
 * A step whose cell the search's interrupt cut short (or never started): it neither held nor broke the SLO, whatever
 * its partial numbers say; they stay in the step, and the cell keeps them.
 */
export function interruptedStep(step: StepMeasurement): StepMeasurement {
  return { ...step, verdict: 'interrupted', causes: [], breaches: [] };
}

/** A count the scenario refuses (e.g. above the open-file limit): it cannot be held here, whatever the server. */
export function refusedStep(count: number, clientProcesses: number, reason: string, slo: Slo): StepMeasurement {
  return {
    count,
    clientProcesses,
    elapsedMs: 0,
    cellStatus: null,
    ...empty(slo),
    verdict: 'refused',
    causes: ['refused'],
    breaches: [reason],
    reason,
  };
}

/** The sum of every errors-role metric the cell has; null when it has none of them. */
function errorsOf(scenario: ScenarioInfo, metrics: Readonly<Record<string, number | null>>): number | null {
  const values = Object.entries(scenario.metrics)
    .filter(([, info]) => info.role === 'errors')
    .map(([key]) => metrics[key])
    .filter((v): v is number => typeof v === 'number');
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0);
}

/** The step fields a verdict cites. */
type Evidence = Pick<CapacityStep, 'serverCpuPercent' | 'serverCpuDemandPercent' | 'serverEventLoop'>;

/**
 * What broke at a step, in words, with the evidence it was judged on: "latency (p99 812 ms not < 500 ms);
 * server CPU saturated (CPU demand 97 % of a core, on CPU 47 %, event loop busy 99 %)".
 */
export function describeBreak(
  step: Pick<CapacityStep, 'causes' | 'breaches' | 'serverSaturated' | 'serverStarved' | 'clientStarved'> & Evidence,
): string {
  const words: Record<BreakCause, string> = {
    latency: 'latency',
    errors: 'errors',
    metric: 'metric',
    failed: 'cell failed',
    refused: 'not runnable',
  };
  const what = step.causes.map((c) => words[c]).join(' + ');
  const parts = [`${what} (${step.breaches.join('; ')})`];
  if (step.serverSaturated) parts.push(`server CPU saturated (${saturationEvidence(step)})`);
  if (step.serverStarved)
    parts.push(`server starved of CPU (${saturationEvidence(step)}: the cores were busy elsewhere)`);
  else if (step.clientStarved) parts.push('a client process starved of CPU (the machine was full)');
  return parts.join('; ');
}

/**
 * The numbers the server's saturation was judged on: its CPU demand where /proc gave it (what
 * measure/saturation.ts reads first), beside the CPU it got; its CPU alone otherwise; its event loop.
 */
export function saturationEvidence(step: Evidence): string {
  const { serverCpuPercent: cpu, serverCpuDemandPercent: demand, serverEventLoop: loop } = step;
  const busy =
    typeof demand === 'number'
      ? [`CPU demand ${Math.round(demand)} % of a core`, cpu === null ? null : `on CPU ${Math.round(cpu)} %`]
      : [cpu === null ? null : `CPU ${Math.round(cpu)} % of a core`];
  return [...busy, loop === null ? null : `event loop busy ${Math.round(loop * 100)} %`]
    .filter((s): s is string => s !== null)
    .join(', ');
}

/**
 * The numbers the load generator's saturation was judged on, as saturationEvidence says the server's: the CPU
 * demand of its processes where /proc gave it, beside the CPU they got; their CPU alone otherwise.
 * "CPU demand 97 % of a core, on CPU 22 %"; several processes: "CPU demand 97 %, 95 % of a core, on CPU 22 %, 28 %".
 */
export function clientSaturationEvidence(
  step: Pick<CapacityStep, 'clientCpuPercent' | 'clientCpuDemandPercent'>,
): string {
  const list = (values: number[]): string => values.map((v) => `${Math.round(v)} %`).join(', ');
  const demand = step.clientCpuDemandPercent ?? [];
  const cpu = step.clientCpuPercent;
  const judgedOn = cpu.map((_, i) => (typeof demand[i] === 'number' ? 'demand' : 'cpu'));
  if (judgedOn.every((k) => k === 'demand') && cpu.length > 0)
    return `CPU demand ${list(demand as number[])} of a core, on CPU ${list(cpu)}`;
  if (judgedOn.every((k) => k === 'cpu')) return `CPU ${list(cpu)} of a core`;
  // Some processes with a demand, some without: each by its own figure.
  return cpu
    .map((c, i) =>
      judgedOn[i] === 'demand'
        ? `client ${i + 1}: CPU demand ${Math.round(demand[i]!)} % of a core, on CPU ${Math.round(c)} %`
        : `client ${i + 1}: CPU ${Math.round(c)} % of a core`,
    )
    .join('; ');
}

type Unmeasured =
  | 'clientSaturated'
  | 'serverSaturated'
  | 'serverStarved'
  | 'clientStarved'
  | 'sloValues'
  | 'latencyMs'
  | 'errors'
  | 'serverCpuPercent'
  | 'serverCpuDemandPercent'
  | 'serverEventLoop'
  | 'serverRssBytes'
  | 'clientCpuPercent'
  | 'clientCpuDemandPercent'
  | 'clientEventLoop';

function empty(slo: Slo): Pick<StepMeasurement, Unmeasured> {
  return {
    sloValues: slo.clauses.map(() => null),
    clientSaturated: false,
    serverSaturated: false,
    serverStarved: false,
    clientStarved: false,
    latencyMs: null,
    errors: null,
    serverCpuPercent: null,
    serverCpuDemandPercent: null,
    serverEventLoop: null,
    serverRssBytes: null,
    clientCpuPercent: [],
    clientCpuDemandPercent: [],
    clientEventLoop: [],
  };
}

function numberOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The parameters that choose how a request/response scenario offers load, for
 * a scenario to spread into its own: the closed loop (each connection waits for
 * its replies before it sends again: the load is whatever the server lets
 * through, and a stall counts once per connection) unless a rate is given; then
 * the open model (every message goes out when it is due, whatever came back,
 * and is timed from its due time: no coordinated omission). Stages change the
 * rate, or in the closed loop the active connections, within the window.
 * docs/load-models.md explains both.
 */
import type { ParamValues } from '../../types/declaration-types.js';
import type { LoadModelInfo } from '../../types/result-types.js';
import { stagesOf } from '../../parsing/stages.js';
import type { ArrivalProcess, LoadPlan } from '../../types/connection-types.js';
import { RateCurve } from './rate-curve.js';
import { counter, histogram } from '../recorders.js';
import { LATE_SEND_MS, SEND_SCHEDULE } from '../../measure/send-schedule.js';

/**
 * The parameters that choose the load model (rate, ratePerConnection, arrivals, seed, stages), to spread into
 * `parameters`.
 */
export const OPEN_MODEL_PARAMETERS = {
  rate: {
    kind: 'integer',
    description:
      'messages per second over all connections, each sent when it is due whatever came back (the open model); 0: the closed loop',
    default: 0,
    min: 0,
    max: 10_000_000,
    sweepable: true,
  },
  ratePerConnection: {
    kind: 'number',
    description: 'messages per second on each connection (the open model), in place of rate',
    default: 0,
    min: 0,
    max: 1_000_000,
    sweepable: true,
  },
  arrivals: {
    kind: 'choice',
    description: 'how the open model spaces its sends: evenly, or with exponential gaps (a Poisson process, from seed)',
    choices: ['uniform', 'poisson'],
    default: 'uniform',
  },
  seed: {
    kind: 'integer',
    description: 'seed of the Poisson gaps: the same seed sends at the same times on every run',
    default: 1,
    min: 0,
    max: 2_147_483_647,
  },
  stages: {
    kind: 'stages',
    description:
      'how the load changes in the window, DURATION:TARGET each (the load goes in a line to TARGET): the rate in the open model (messages per second, per connection with ratePerConnection), the active connections in the closed loop; the window lasts their total',
    default: '',
  },
} as const;

/** The open model's parameters, as a scenario's params hold them. */
interface OpenModelParams {
  rate: number;
  ratePerConnection: number;
  arrivals: ArrivalProcess;
  seed: number;
  stages: string;
}

/** The load plan of a cell of `connections` connections. */
export function loadPlanOf(params: ParamValues, connections: number): LoadPlan {
  const p = params as unknown as OpenModelParams;
  const stages = stagesOf(p.stages ?? '');
  const perConnection = (p.ratePerConnection ?? 0) > 0;
  if ((p.rate ?? 0) === 0 && !perConnection) return { model: 'closed', stages };
  const scale = perConnection ? connections : 1;
  const startPerSec = perConnection ? p.ratePerConnection * connections : p.rate;
  return {
    model: 'open',
    curve: new RateCurve(
      startPerSec,
      stages.map((s) => ({ ...s, target: s.target * scale })),
    ),
    startPerSec,
    stages,
    arrivals: p.arrivals ?? 'uniform',
    seed: p.seed ?? 1,
  };
}

/** A problem with the open model's parameters together, naming one of them; null when they fit. */
export function openModelProblem(params: ParamValues): { parameter: string; message: string } | null {
  const p = params as unknown as OpenModelParams;
  if (p.rate > 0 && p.ratePerConnection > 0)
    return { parameter: 'ratePerConnection', message: 'give rate or ratePerConnection, not both' };
  const open = p.rate > 0 || p.ratePerConnection > 0;
  if (!open && p.arrivals === 'poisson')
    return { parameter: 'arrivals', message: 'poisson spaces the sends of the open model: give a rate too' };
  return null;
}

/**
 * What the table and the JSON say of the cell's load: "open model, 5000/s", "open model, from 1000/s in
 * stages, poisson", "closed loop, 10 conn x 1 in flight". `closedText` words the closed loop's shape.
 */
export function loadModelInfo(params: ParamValues, connections: number, closedText: string): LoadModelInfo {
  const plan = loadPlanOf(params, connections);
  const staged = plan.stages.length > 0 ? ' in stages' : '';
  // What the text leaves nothing more to say of; the stages themselves, and a Poisson seed, stay on the line.
  const says = ['rate', 'ratePerConnection', 'arrivals', ...(plan.stages.length === 0 ? ['stages'] : [])];
  if (plan.model === 'closed')
    return { model: 'closed', text: `closed loop, ${closedText}${staged}`, says: [...says, 'seed'] };
  const poisson = plan.arrivals === 'poisson' ? ', poisson' : '';
  const from = plan.stages.length > 0 ? 'from ' : '';
  return {
    model: 'open',
    ...(plan.stages.length === 0 ? { offeredPerSec: plan.startPerSec } : {}),
    text: `open model, ${from}${formatRate(plan.startPerSec)}/s${staged}${poisson}`,
    says: plan.arrivals === 'poisson' ? says : [...says, 'seed'],
  };
}

function formatRate(perSec: number): string {
  return Number.isInteger(perSec) ? String(perSec) : perSec.toPrecision(3);
}

/**
 * What the open model's sends record under fixed names (measure/send-schedule.ts), declared so a scenario
 * can show them: spread into `recorders`. In the closed loop nothing records them ("not recorded").
 */
export const SEND_SCHEDULE_RECORDERS = {
  [SEND_SCHEDULE.lag]: histogram({
    stats: ['p99', 'max'],
    label: 'send lag',
    description: 'how long after its due time each message went out (open model; about 1 ms is the timer clock)',
  }),
  [SEND_SCHEDULE.late]: counter({
    total: { header: 'late sends', description: `messages sent more than ${LATE_SEND_MS} ms after their due time` },
  }),
  [SEND_SCHEDULE.missed]: counter({
    total: {
      header: 'missed sends',
      description: 'messages that fell due in the window and never went out: the load generator could not keep up',
    },
  }),
} as const;

/** Whether a scenario's parameters are the kit's open model's (spread from OPEN_MODEL_PARAMETERS). */
export function declaresOpenModel(parameters: Readonly<Record<string, unknown>>): boolean {
  return parameters.rate === OPEN_MODEL_PARAMETERS.rate && parameters.stages === OPEN_MODEL_PARAMETERS.stages;
}

/** The load model of a scenario that spreads OPEN_MODEL_PARAMETERS and says nothing more: one step in flight per connection. */
export function defaultLoadModel(connections: (params: ParamValues) => number): (params: ParamValues) => LoadModelInfo {
  return (params) => {
    const count = connections(params);
    return loadModelInfo(params, count, `${count} conn x 1 in flight`);
  };
}

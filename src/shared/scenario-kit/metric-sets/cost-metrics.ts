/**
 * What a unit of work costs the machine, beside how fast it went: the server's
 * and the clients' CPU time per message (per delivery, for a scenario that
 * counts deliveries), and the server's memory per connection. On a shared
 * machine CPU time per message moves far less than wall-clock latency: a busy
 * neighbour delays every reply, but it does not make the server spend more
 * cycles on one (docs/reading-results.md measures how much less). Role `cost`:
 * each gets an interval from the rounds, is ranked in "what to pick" and
 * compared by `compare`, lower being better.
 *
 * CPU time is the process's CPU percent over the window (read from /proc by
 * wsbench, the same way for every runtime) times the window; the messages are
 * the client counter the scenario names, counted over the same window.
 */
import type { ParamValues } from '../../types/declaration-types.js';
import type { MetricDefinition, MetricInput } from '../../types/scenario-types.js';
import { scaleWithResolution, serverRssPerConnection } from './server-rss.js';

/** The CPU costs: keyed so that every scenario's columns read alike. */
export type CpuCostMetrics = {
  serverCpuUsPerMessage: MetricDefinition;
  clientCpuUsPerMessage: MetricDefinition;
};

/**
 * The server's and the clients' CPU time per unit of work, in µs: `counter` is the client counter of
 * the work done in the window (messages received, deliveries), `per` what one is called in a header
 * (`msg` gives `srv µs/msg`).
 */
export function cpuCostMetrics(counter: string, per: string): CpuCostMetrics {
  const cpuPer = (which: 'server' | 'clients', { resources, measurements }: MetricInput): number | null => {
    const processes = which === 'server' ? (resources.server ? [resources.server] : []) : resources.clients;
    const work = measurements.counters[counter] ?? 0;
    if (processes.length === 0 || !(work > 0) || !(measurements.windowMs > 0)) return null;
    const cpuShare = processes.reduce((sum, p) => sum + p.cpuPercent.mean, 0) / 100;
    // CPU-µs in the window (a share of one core times the window) over the work counted in it.
    return (cpuShare * measurements.windowMs * 1000) / work;
  };
  return {
    serverCpuUsPerMessage: {
      header: `srv µs/${per}`,
      unit: 'us',
      better: 'lower',
      role: 'cost',
      description: `CPU time the server spent per ${per}, in µs`,
      source: {
        custom: `server CPU time in the window (CPU % x window) / ${counter}`,
        compute: (input) => cpuPer('server', input),
      },
    },
    clientCpuUsPerMessage: {
      header: `cli µs/${per}`,
      unit: 'us',
      better: 'lower',
      role: 'cost',
      description: `CPU time the load-generating processes spent per ${per}, in µs, all of them added`,
      source: {
        custom: `client processes' CPU time in the window, added up / ${counter}`,
        compute: (input) => cpuPer('clients', input),
      },
    },
  };
}

/**
 * The server's memory per connection, in KB (1000 bytes): its peak RSS in the window minus its RSS
 * when the first connection arrived (the server half records it: serverRssBaseline), over
 * `connections(params)`, with its resolution (below it, the table shows `< most`).
 */
export function serverMemoryCostMetric(connections: (params: ParamValues) => number): MetricDefinition {
  return {
    header: 'srv KB/conn',
    unit: 'KB',
    better: 'lower',
    role: 'cost',
    // Each round has its own baseline: their counters add up over rounds, so the pool cannot be divided by one.
    acrossRounds: 'mean',
    description:
      'server peak RSS in the window minus its RSS when the first connection arrived, per connection, in KB (1000 bytes)',
    source: {
      custom: 'server peak RSS minus its RSS at the first connection, per connection, / 1000',
      compute: (input) => scaleWithResolution(serverRssPerConnection(input, connections(input.params)), 1 / 1000),
    },
  };
}

/**
 * A scenario's own server half on the uws adapter, in the calling process and
 * outside wsbench's server process, so a bare baseline client can be fed by
 * exactly the server code wsbench's client is measured against.
 */
import { monotonicUs } from '../src/core/clock.js';
import { MetricsRegistry } from '../src/core/metrics.js';
import { uwsServer } from '../src/servers/uws.js';
import type { AnyScenario, ParamValues, ServerConnection, ServerLogic, ServerScenarioContext } from '../src/index.js';

export interface ScenarioServer {
  url: string;
  logic: ServerLogic;
  metrics: MetricsRegistry;
}

export async function serveScenario(scenario: AnyScenario, params: ParamValues): Promise<ScenarioServer> {
  const metrics = new MetricsRegistry();
  const open = new Set<ServerConnection>();
  // The stack's own broadcast, once it listens (fanout streams through it).
  let broadcast: ServerScenarioContext['broadcast'] = () => undefined;
  const ctx: ServerScenarioContext = {
    params,
    nowUs: monotonicUs,
    histogram: (name) => metrics.histogram(name),
    sizeHistogram: (name) => metrics.sizeHistogram(name),
    counter: (name) => metrics.counter(name),
    broadcast: (data) => broadcast(data),
    connections: () => open,
    processIndex: 0,
    processCount: 1,
    tellSiblings: () => undefined,
  };
  const logic = scenario.server!(ctx);
  const running = await uwsServer.start({
    host: '127.0.0.1',
    handlers: {
      onConnection: (c) => {
        open.add(c);
        logic.onConnection?.(c);
      },
      onMessage: (c, data) => logic.onMessage?.(c, data),
      onClose: (c) => {
        open.delete(c);
        logic.onClose?.(c);
      },
    },
  });
  broadcast = running.broadcast;
  return { url: running.url, logic, metrics };
}

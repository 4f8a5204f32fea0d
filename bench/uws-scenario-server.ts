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
  const ctx: ServerScenarioContext = {
    params,
    nowUs: monotonicUs,
    histogram: (name) => metrics.histogram(name),
    sizeHistogram: (name) => metrics.sizeHistogram(name),
    counter: (name) => metrics.counter(name),
    broadcast: () => undefined,
    connections: () => open,
    processIndex: 0,
    processCount: 1,
    tellSiblings: () => undefined,
  };
  const logic = scenario.server!(ctx);
  const running = await uwsServer.start({
    host: '127.0.0.1',
    handlers: {
      onConnection: (c) => void open.add(c),
      onMessage: (c, data) => logic.onMessage?.(c, data),
      onClose: (c) => {
        open.delete(c);
        logic.onClose?.(c);
      },
    },
  });
  return { url: running.url, logic, metrics };
}

/**
 * A scenario's server half, given its context (recorders on one metrics
 * registry, the open connections, broadcast) and wired to the handlers a
 * server adapter calls. The server child and the bench's in-process baseline
 * server host it the same way, so the bare baseline is fed by the same code.
 */
import type { ServerConnection, ServerHandlers } from '../shared/types/adapter-types.js';
import type { JsonValue, ServerLogic, ServerScenarioContext } from '../shared/types/scenario-types.js';
import type { ParamValues } from '../shared/types/declaration-types.js';
import { monotonicUs } from '../shared/measure/clock.js';
import type { MetricsRegistry } from '../shared/measure/metrics.js';

interface ServerLogicHost {
  params: ParamValues;
  metrics: MetricsRegistry;
  processIndex: number;
  processCount: number;
  /** Passes a message to the cell's other server processes. */
  tellSiblings(data: JsonValue): void;
}

interface HostedServerLogic {
  logic: ServerLogic;
  handlers: ServerHandlers;
  /** Once the stack listens: broadcast() and publish() go through the stack's own from then on. */
  listening(stack: Pick<ServerScenarioContext, 'broadcast' | 'publish'>): void;
}

export function hostServerLogic(
  server: (ctx: ServerScenarioContext) => ServerLogic,
  host: ServerLogicHost,
): HostedServerLogic {
  const { metrics } = host;
  const open = new Set<ServerConnection>();
  let stack: Pick<ServerScenarioContext, 'broadcast' | 'publish'> = {
    broadcast: () => {
      throw new Error('broadcast() before the server listens');
    },
    publish: () => {
      throw new Error('publish() before the server listens');
    },
  };
  const ctx: ServerScenarioContext = {
    params: host.params,
    nowUs: monotonicUs,
    histogram: (name) => metrics.histogram(name),
    sizeHistogram: (name) => metrics.sizeHistogram(name),
    counter: (name) => metrics.counter(name),
    broadcast: (data) => stack.broadcast(data),
    publish: (topic, data) => stack.publish(topic, data),
    connections: () => open,
    processIndex: host.processIndex,
    processCount: host.processCount,
    tellSiblings: (data) => host.tellSiblings(data),
  };
  const logic = server(ctx);
  const handlers: ServerHandlers = {
    onConnection(connection) {
      open.add(connection);
      logic.onConnection?.(connection);
    },
    onMessage: logic.onMessage?.bind(logic) ?? (() => undefined),
    onClose(connection) {
      open.delete(connection);
      logic.onClose?.(connection);
    },
    routes: logic.routes,
  };
  return {
    logic,
    handlers,
    listening: (running) => {
      stack = { broadcast: (data) => running.broadcast(data), publish: (topic, data) => running.publish(topic, data) };
    },
  };
}

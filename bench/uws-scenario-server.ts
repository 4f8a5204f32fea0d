/**
 * A scenario's own server half on the uws adapter, in the calling process and
 * outside wsbench's server process, so a bare baseline client can be fed by
 * exactly the server code wsbench's client is measured against.
 */
import { hostServerLogic } from '../src/child/hosted-server-logic.js';
import { MetricsRegistry } from '../src/shared/measure/metrics.js';
import { uwsServer } from '../src/child/servers/uws.js';
import type { AnyScenario } from '../src/shared/types/scenario-types.js';
import type { ParamValues } from '../src/shared/types/declaration-types.js';
import type { ServerLogic } from '../src/shared/scenario-kit/index.js';

export interface ScenarioServer {
  url: string;
  logic: ServerLogic;
  metrics: MetricsRegistry;
}

export async function serveScenario(scenario: AnyScenario, params: ParamValues): Promise<ScenarioServer> {
  const metrics = new MetricsRegistry();
  const hosted = hostServerLogic(scenario.server!.bind(scenario), {
    params,
    metrics,
    processIndex: 0,
    processCount: 1,
    tellSiblings: () => undefined,
  });
  const running = await uwsServer.start({ host: '127.0.0.1', handlers: hosted.handlers });
  // fanout streams through the stack's own broadcast.
  hosted.listening(running);
  return { url: running.url, logic: hosted.logic, metrics };
}

/**
 * `wsbench/scenario`: what a scenario file needs, and nothing that draws or reports: the child
 * processes that run scenario code load this, not the whole library. Scenarios import it as
 * `wsbench/scenario` (the built-ins too). Every export is listed by name, and this list is the
 * kit's public contract (api/wsbench-scenario.api.md, checked by test/api-report.test.ts);
 * `wsbench` does not re-export it. What is not listed stays internal: wsbench's own code imports
 * it from its module.
 */
// Declaring a scenario, its recorders and its metrics.
export { defineScenario } from './define.js';
export { histogram, counter } from './recorders.js';
export { unreportedHistogram } from './unreported-histogram.js';
export { latencyMetrics, total, rate } from './metric-helpers.js';
export type {
  ScenarioDefinition,
  ConnectPlan,
  MetricDefinition,
  MetricInput,
  ValueWithResolution,
} from '../types/scenario-types.js';
export type { CounterOptions } from './recorders.js';
export type { CounterReport } from '../types/recorder-types.js';
export type { ChartRequest } from '../types/declaration-types.js';
// The halves of a scenario and what they are handed.
export type {
  ServerLogic,
  ServerScenarioContext,
  ClientScenarioContext,
  ScenarioConnectOptions,
  HttpClient,
  ConnectionContext,
  Recorder,
  SizeRecorder,
  Counter,
} from '../types/scenario-types.js';
export type { MessageData, ServerConnection, ClientConnection } from '../types/adapter-types.js';
export type { ScenarioConnection, RequestTracker, RequestOptions, SendOptions } from '../types/connection-types.js';
// Request/response for a client(ctx) scenario (issue 32).
export { Requests } from './request-tracker.js';
// Reading messages, waiting, test data.
export { messageText } from './message-text.js';
export { ProtocolGuard, parseJson } from './protocol-guard.js';
export { sleep, aborted, waitUntil } from './waiting.js';
export { streamEnd } from './stream-end.js';
export { seededRandom } from './seeded-random.js';
// Many connections: a paced connect phase and its failures (docs/scenario-kit.md).
export { openPaced } from './paced-connections.js';
export { connectionShare } from './many-connections/connection-share.js';
export {
  CONNECT_PHASE_PARAMETERS,
  connectPhaseProblem,
  connectPhaseReadyMs,
} from './many-connections/connect-phase.js';
export { connectFailureRecorders } from './connect-failure-counts.js';
export { connectFailureCounter } from './metric-sets/connect-failure-metrics.js';
export { classifyHandshakeFailure } from './handshake-failures.js';
export { handshakeFailureRecorders, handshakeFailureCounters } from './metric-sets/handshake-failure-metrics.js';
// What the process costs: resources read from /proc, memory per connection, CPU per message.
export { RESOURCE_METRICS } from './metric-sets/resource-metrics.js';
export { serverRssBaseline, serverRssPerConnection, scaleWithResolution } from './metric-sets/server-rss.js';
export { cpuCostMetrics, serverMemoryCostMetric } from './metric-sets/cost-metrics.js';
export { WireTelemetry, WIRE_METRICS } from './metric-sets/wire-telemetry.js';
// The open model: arrival rates, stages, due-time stamping (docs/load-models.md).
export {
  OPEN_MODEL_PARAMETERS,
  SEND_SCHEDULE_RECORDERS,
  loadModelInfo,
  openModelProblem,
} from './arrivals/open-model.js';

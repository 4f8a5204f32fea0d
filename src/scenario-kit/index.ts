/**
 * Everything a scenario file needs, and nothing that draws or reports: the
 * child processes that run scenario code load this, not the whole library.
 * Scenarios import it as `wsbench/scenario` (the built-ins too). Every export
 * is listed by name; `wsbench` re-exports them all.
 */
export { defineScenario } from './define.js';
export { isScenario } from '../scenario-types.js';
export { latencyMetrics, total, rate, ALL_STATS } from './metric-helpers.js';
export type { LatencyMetricOptions, CounterMetricOptions } from './metric-helpers.js';
// Declared recorders, the per-connection form and request/response (issue 32).
export { histogram, counter } from './recorders.js';
export type { HistogramOptions, CounterOptions } from './recorders.js';
export { connectFailureRecorders } from './connect-failure-counts.js';
export type { ConnectFailureKey } from './connect-failure-counts.js';
export { Requests } from './request-tracker.js';
export type { TrackerLink } from './request-tracker.js';
export type {
  HistogramUnit,
  HistogramDeclaration,
  CounterDeclaration,
  CounterReport,
  CounterRateReport,
  RecorderDeclaration,
  RecorderDeclarations,
  RecorderKeys,
  RecordersOf,
} from '../recorder-types.js';
export type {
  ScenarioConnection,
  RequestTracker,
  RequestOptions,
  SendOptions,
  JsonReply,
  IterationStep,
  IterateOptions,
  LoadPlan,
  OfferedRate,
  ArrivalProcess,
} from '../connection-types.js';
export type { ConnectionContext, ConnectPlan, WithRecorders, MetricKeysOf } from '../scenario-types.js';
export { messageText } from './message-text.js';
export { ProtocolGuard, parseJson } from './protocol-guard.js';
export { openPaced, classifyConnectError, CONNECT_FAILURES } from './paced-connections.js';
export type { ConnectFailure, PacedOpenOptions } from './paced-connections.js';
export { classifyHandshakeFailure, HANDSHAKE_FAILURES } from './handshake-failures.js';
export type { HandshakeFailure } from './handshake-failures.js';
export { sourceAddressCount, sourceAddressFor, localPortCount } from './source-addresses.js';
export { sleep, aborted, waitUntil } from './waiting.js';
export { FrameParser, OPCODE } from '../parsing/frame-parser.js';
export type { FrameParserEvents } from '../parsing/frame-parser.js';
export { openFileLimit } from '../open-file-limit.js';
export { wsbenchPubSub } from './brokers/wsbench-pubsub.js';
export { natsPubSub } from './brokers/nats.js';
export { mqttPubSub } from './brokers/mqtt.js';
export { stompPubSub } from './brokers/stomp.js';
export { graphqlWsPubSub } from './brokers/graphql-ws.js';
export type { BrokerProtocol, BrokerClient, BrokerConnectOptions, OpenSocket } from './brokers/broker-client.js';
// The building blocks the built-in scenarios share (docs/scenario-kit.md).
export { connectionShare } from './many-connections/connection-share.js';
export type { ConnectionShare } from './many-connections/connection-share.js';
export {
  CONNECT_PHASE_PARAMETERS,
  connectPhaseProblem,
  connectPhaseReadyMs,
} from './many-connections/connect-phase.js';
export type { ConnectPhase } from './many-connections/connect-phase.js';
export { CONNECT_FAILURE_METRICS, connectFailureCounter } from './metric-sets/connect-failure-metrics.js';
export {
  handshakeFailureKey,
  handshakeFailureMetrics,
  handshakeFailureCounters,
} from './metric-sets/handshake-failure-metrics.js';
export type { HandshakeFailureKey } from './metric-sets/handshake-failure-metrics.js';
export {
  SERVER_RSS_BASELINE,
  serverRssBaseline,
  serverRssPerConnection,
  scaleWithResolution,
} from './metric-sets/server-rss.js';
export { cpuCostMetrics, serverMemoryCostMetric } from './metric-sets/cost-metrics.js';
export type { CpuCostMetrics } from './metric-sets/cost-metrics.js';
export { WireTelemetry, WIRE_METRICS } from './metric-sets/wire-telemetry.js';
export {
  SERVER_CPU_METRIC,
  SERVER_RSS_METRIC,
  CLIENT_CPU_METRIC,
  CLIENT_RSS_METRIC,
} from './metric-sets/resource-metrics.js';
export { streamEnd } from './stream-end.js';
export type { StreamEnd } from './stream-end.js';
export { RECONNECT_POLICIES, reconnectDelays } from './reconnect-delays.js';
export type { ReconnectPolicy, ReconnectDelaySettings } from './reconnect-delays.js';
export { seededRandom } from './seeded-random.js';
// The open model: arrival rates, stages, due-time stamping (docs/load-models.md).
export {
  OPEN_MODEL_PARAMETERS,
  SEND_SCHEDULE_RECORDERS,
  loadModelInfo,
  openModelProblem,
} from './arrivals/open-model.js';
export type { OpenModelParams } from './arrivals/open-model.js';
export type { Stage } from '../parsing/stages.js';
export type {
  JsonValue,
  Clock,
  Recorder,
  SizeRecorder,
  Counter,
  MetricsApi,
  ServerLogic,
  ServerScenarioContext,
  ScenarioConnectOptions,
  HttpClient,
  ClientScenarioContext,
  ServerRestartTimes,
  MetricInput,
  ComputedSource,
  ValueWithResolution,
  MetricDefinition,
  ParameterProblem,
  ScenarioParams,
  ScenarioInputs,
  ScenarioDefinition,
  Scenario,
  AnyScenario,
} from '../scenario-types.js';
export type {
  MessageData,
  ServerConnection,
  ClientConnection,
  HttpRequest,
  HttpResponse,
  HttpHandler,
  HandshakePhases,
  SendQueueLimit,
} from '../adapter-types.js';
export type {
  DurationText,
  SizeText,
  IntegerParameter,
  NumberParameter,
  DurationParameter,
  DurationOverride,
  SizeParameter,
  BooleanParameter,
  ChoiceParameter,
  StringParameter,
  StagesParameter,
  ParameterSpec,
  ParameterKind,
  ParameterDeclarations,
  ParameterValue,
  ParamsOf,
  ParameterInput,
  ParamInputs,
  ParamValues,
  MetricUnit,
  MetricRole,
  HistogramStat,
  Side,
  HistogramSource,
  CounterSource,
  ResourceSource,
  CustomSource,
  MetricSource,
  MetricInfo,
  HistogramRef,
  ChartRequest,
  ChartKind,
} from '../declaration-types.js';
export type {
  CellMeasurements,
  CellResources,
  ProcessResources,
  SampledStat,
  LatencySummary,
  SizeSummary,
  EncodedHistogram,
  TimeSeries,
  TimeSeriesPoint,
  IntervalLatency,
  LoadModelInfo,
} from '../result-types.js';
// A histogram recorded but reporting no metric of its own (issue 40).
export { unreportedHistogram } from './unreported-histogram.js';

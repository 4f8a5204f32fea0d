/**
 * wsbench's library API. Every export is listed by name.
 *
 * Its declarations name Node's types (streams, servers, sockets). TypeScript 6 and later load
 * @types/node only when asked (`types` defaults to none), so the reference below asks for them:
 * without it a consumer's tsc fails inside these declarations (`Cannot find name 'node:http'`).
 * @types/node comes with wsbench's dependencies (engine.io's, a range that dedupes with the user's).
 */
/// <reference types="node" preserve="true" />
export { run, planRun, execute } from './run.js';
export type { RunOptions, RunPlan, ParamsFor } from './run.js';
export type {
  ResultOf,
  CellOf,
  MetricValuesOf,
  CellParamsOf,
  ScenarioOf,
  ScenarioRefInput,
  ScenarioPath,
} from './typed-results.js';
export type { TargetOption, ServerCommandOption } from './server-lifecycles/foreign-options.js';
export type { RunEvent, RunEventType } from './engine/events.js';
export type { ResourceSample } from './measure/proc-sampler.js';
export type { ScenarioRef } from './child/scenario-loader.js';
export type { BuiltInScenarios, BuiltInScenarioName } from './built-in-scenarios.js';
export {
  defineScenario,
  isScenario,
  latencyMetrics,
  total,
  rate,
  ALL_STATS,
  messageText,
  ProtocolGuard,
  parseJson,
  openPaced,
  classifyConnectError,
  CONNECT_FAILURES,
  classifyHandshakeFailure,
  HANDSHAKE_FAILURES,
  sourceAddressCount,
  sourceAddressFor,
  localPortCount,
  sleep,
  aborted,
  waitUntil,
  FrameParser,
  OPCODE,
  openFileLimit,
} from './scenario-kit/index.js';
export type {
  LatencyMetricOptions,
  CounterMetricOptions,
  ConnectFailure,
  PacedOpenOptions,
  HandshakeFailure,
  FrameParserEvents,
} from './scenario-kit/index.js';
// Declared recorders, the per-connection form and request/response (issue 32).
export { histogram, counter, connectFailureRecorders, Requests } from './scenario-kit/index.js';
export type {
  HistogramOptions,
  CounterOptions,
  ConnectFailureKey,
  TrackerLink,
  HistogramUnit,
  HistogramDeclaration,
  CounterDeclaration,
  CounterReport,
  CounterRateReport,
  RecorderDeclaration,
  RecorderDeclarations,
  RecorderKeys,
  RecordersOf,
  ScenarioConnection,
  RequestTracker,
  RequestOptions,
  SendOptions,
  JsonReply,
  ConnectionContext,
  ConnectPlan,
  WithRecorders,
  MetricKeysOf,
} from './scenario-kit/index.js';
export { renderTable, formatNumber } from './report/run/table.js';
export { buildCharts } from './charts/index.js';
export type { ChartSpec } from './charts/index.js';
export { renderHtml } from './report/html/html.js';
export type { RenderedScenario } from './report/html/html.js';
export type { RenderedChart } from './report/html/html-parts.js';
export { renderCharts, writeArtifacts } from './report/html/artifacts.js';
export type { ArtifactOptions } from './report/html/artifacts.js';
export { compareResults, compareServers } from './compare/compare.js';
export type {
  CellComparison,
  Comparison,
  CompareOptions,
  MetricDelta,
  UnmatchedCell,
  Verdict,
} from './compare/compare.js';
export { renderResultMarkdown } from './report/run/run-markdown.js';
export { CONFIDENCE_LEVEL } from './stats/confidence.js';
export { cellIntervals } from './stats/cell-intervals.js';
export { logRatio, ratioInterval, isTie } from './stats/ratio.js';
export type { LogRatio, Side as RatioSide } from './stats/ratio.js';
export { twoCellTest } from './stats/two-cells.js';
export type { TwoCellTest, TwoCellOutcome } from './stats/two-cells.js';
export { picksOf, isDecided } from './stats/ranking.js';
export type { Pick, Difference, Standing } from './stats/ranking.js';
export { judgeChange, DEFAULT_MARGIN_PCT } from './stats/verdict.js';
export type { ChangeInterval, ChangeVerdict } from './stats/verdict.js';
export { judgeCellSlo } from './slo/verdict.js';
export { renderComparison } from './compare/compare-text.js';
export { renderComparisonMarkdown } from './compare/compare-markdown.js';
export { gate, gateLines, regressionsBeyond, INCONCLUSIVE_EXIT_CODE } from './compare/compare-gate.js';
export type { Gate, GateRegression, InconclusivePolicy } from './compare/compare-gate.js';
export { percentileNoiseMs } from './compare/compare-noise.js';
export { createProgress, progressLine } from './live/progress.js';
export type { Progress, ProgressMode } from './live/progress.js';
export { LiveViews, LiveBindError } from './live/live-views.js';
export type { LiveViewOptions } from './live/live-views.js';
export type { ListenAddress } from './listening/listen-address.js';
export { writeResultFile, readResultFile, resultFromJson, saveResult } from './result-file.js';
export type { SavedResult } from './result-file.js';
export { writeResultAndReport, writeReportFiles, ResultWriteError } from './result-output.js';
export type { WrittenOutput, WrittenReport } from './result-output.js';
export { UsageError, ParameterError } from './errors.js';
export { parseDurationMs, parseSizeBytes } from './parsing/units.js';
export { decodeHistogram, encodeHistogram, mergeEncoded, summarizeEncoded } from './measure/metrics.js';
export { serverStacks, clientStacks } from './stacks.js';
export type { ServerStackName, ClientStackName, StackNameInput } from './stacks.js';
export { SCHEMA_VERSION, isMeasured } from './result-types.js';
export type {
  MessageData,
  ServerConnection,
  HttpRequest,
  HttpResponse,
  HttpHandler,
  ServerHandlers,
  ServerStartOptions,
  RunningServer,
  ServerAdapter,
  ClientConnection,
  ClientConnectOptions,
  ClientAdapter,
  ServerCapabilities,
  ClientCapabilities,
  ServerTls,
  ClientTls,
  TlsSession,
  HandshakePhases,
  SendQueueLimit,
} from './adapter-types.js';
export { makeCertificate, LOOPBACK_HOSTS } from './tls/certificate.js';
export type { TlsCertificate, CertificateOptions, CertificateKeyType } from './tls/certificate.js';
export { writePemFiles } from './tls/pem-files.js';
export type { PemFiles } from './tls/pem-files.js';
export type {
  Clock,
  Recorder,
  SizeRecorder,
  Counter,
  MetricsApi,
  ServerLogic,
  ServerScenarioContext,
  HttpClient,
  ScenarioConnectOptions,
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
} from './scenario-types.js';
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
  ParameterSpec,
  ParameterKind,
  ParameterDeclarations,
  ParameterValue,
  ParamsOf,
  ParameterInput,
  ParamInputs,
  ParamValues,
  ParameterInfo,
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
} from './declaration-types.js';
export type {
  Protocol,
  Runtime,
  RuntimeInfo,
  StackSettings,
  Availability,
  StackBuild,
  LatencySummary,
  SizeSummary,
  EncodedHistogram,
  SampledStat,
  ProcessResources,
  CellResources,
  ProcessReport,
  CellMeasurements,
  IntervalLatency,
  TimeSeriesPoint,
  TimeSeries,
  CellStatus,
  CellIdentity,
  MetricValueMap,
  Measured,
  OkCell,
  ErrorsCell,
  FailedMeasuredCell,
  FailedEmptyCell,
  SkippedCell,
  FailedCell,
  CellResult,
  MeasuredCell,
  MetricResolution,
  RoundResult,
  ValueInterval,
  RatioInterval,
  CellSloVerdict,
  SloClauseVerdict,
  SloVerdict,
  ControlSection,
  DecisionSection,
  DecisionLook,
  MachineLoad,
  StackInfo,
  Environment,
  ForeignServerInfo,
  ScenarioInfo,
  BenchResult,
  TlsOutcome,
  CapacityResult,
} from './result-types.js';
export { capacity, planCapacity, executeCapacity } from './capacity/run-capacity.js';
export type { CapacityOptions, CapacityEvent, CapacityPlan } from './capacity/run-capacity.js';
export { parseSlo, checkSlo } from './slo/grammar.js';
export type { Slo, ClauseOutcome } from './slo/grammar.js';
export { searchCapacity, tolerance } from './capacity/search.js';
export type { StepJudgement, SearchSettings, SearchStep, SearchOutcome, StepFunction } from './capacity/search.js';
export { judgeCell, STARVED_LOOP_SHARE } from './capacity/judge.js';
export { SATURATED_CPU_PERCENT } from './measure/saturation.js';
export type { StepMeasurement } from './capacity/judge.js';
export { renderCapacityTable } from './report/capacity/capacity-table.js';
export type {
  CapacitySection,
  CapacitySettings,
  CapacityStep,
  ServerCapacity,
  SloClause,
  SloKind,
  SloOperator,
  SearchEnd,
  BreakCause,
} from './capacity-types.js';
export { k8sManifest, manifestYaml, randomRunId } from './shard/k8s-manifest.js';
export type {
  K8sManifestOptions,
  K8sManifest,
  IndexedJob,
  HeadlessService,
  ShardContainer,
} from './shard/k8s-manifest.js';
export { mergeShards } from './shard/merge.js';
export type { ShardInput } from './shard/merge.js';
export { configHash, DEFAULT_BARRIER_LISTEN, DEFAULT_BARRIER_TIMEOUT_MS } from './shard/shard-options.js';
export type { ShardOptions, ShardStart } from './shard/shard-options.js';
export type { ShardInfo, ShardSummary, MergeInfo, HistogramSettings } from './shard-types.js';
export { BarrierServer } from './shard/barrier-server.js';
export type { CheckIn, Release } from './shard/barrier-protocol.js';
export { unreportedHistogram } from './scenario-kit/index.js';

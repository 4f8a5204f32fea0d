/** wsbench's library API. Every export is listed by name. */
export { run, planRun } from './core/runner.js';
export type { RunOptions } from './core/runner.js';
export { renderTable } from './report/table.js';
export { buildCharts, SCENARIO_CHARTS } from './report/charts/index.js';
export type { ChartBuilder, ChartSpec, ScenarioView } from './report/charts/common.js';
export { renderHtml } from './report/html.js';
export type { RenderedChart, RenderedScenario } from './report/html.js';
export { renderCharts, writeArtifacts } from './report/artifacts.js';
export type { ArtifactOptions } from './report/artifacts.js';
export { compareResults, regressionsBeyond, renderComparison, percentileNoiseMs } from './report/compare.js';
export type { CellComparison, Comparison, MetricDelta, Verdict } from './report/compare.js';
export { writeResultFile, readResultFile } from './result-file.js';
export { UsageError } from './errors.js';
export { messageText } from './message-text.js';
export { parseDurationMs, parseSizeBytes } from './core/params.js';
export { decodeHistogram, encodeHistogram, mergeEncoded, summarizeEncoded } from './core/metrics.js';
export { serverStacks, clientStacks } from './stacks.js';
export { SCHEMA_VERSION } from './result-types.js';
export type {
  Availability,
  ClientAdapter,
  ClientConnection,
  ClientConnectOptions,
  ClientScenarioContext,
  Clock,
  ColumnSpec,
  Counter,
  HttpClient,
  HttpHandler,
  HttpRequest,
  HttpResponse,
  MessageData,
  MetricsApi,
  ParameterKind,
  ParameterSpec,
  ParamValues,
  Protocol,
  Recorder,
  RunningServer,
  Scenario,
  ServerAdapter,
  ServerConnection,
  ServerHandlers,
  ServerLogic,
  ServerScenarioContext,
  ServerStartOptions,
  StackBuild,
  SummaryContext,
} from './types.js';
export type {
  BenchResult,
  CellMeasurements,
  CellResult,
  CellStatus,
  EncodedHistogram,
  Environment,
  LatencySummary,
  ProcessReport,
  ProcessResources,
  SampledStat,
  ScenarioInfo,
  StackInfo,
} from './result-types.js';

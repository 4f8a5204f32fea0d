/**
 * `wsbench`: the library API, what a program that runs, reads, compares and merges benchmarks needs.
 * Every export is listed by name, and this list is the public contract (api/wsbench.api.md, checked by
 * test/api-report.test.ts). A scenario file imports `wsbench/scenario` (src/shared/scenario-kit/index.ts)
 * instead; this module does not re-export the kit. What is not listed stays internal: wsbench's own
 * code and its tests import it from its module.
 *
 * Its declarations name Node's types (streams, servers, sockets). TypeScript 6 and later load
 * @types/node only when asked (`types` defaults to none), so the reference below asks for them:
 * without it a consumer's tsc fails inside these declarations (`Cannot find name 'node:http'`).
 * @types/node comes with wsbench's dependencies (engine.io's, a range that dedupes with the user's).
 */
/// <reference types="node" preserve="true" />
// Running: a scenario over stacks and parameters, planned then executed, or both at once.
export { run, planRun, execute } from './run.js';
export type { RunOptions, RunPlan, ParamsFor } from './run.js';
export type { ResultOf, CellOf } from './results/typed-results.js';
export type { TargetOption, ServerCommandOption } from './server-lifecycles/foreign-options.js';
export type { RunEvent } from './engine/events.js';
export type { BuiltInScenarioName } from './results/built-in-scenarios.js';
export { serverStacks, clientStacks } from '../child/stacks.js';
export type { ServerStackName, ClientStackName } from '../child/stacks.js';
// The result: the JSON's shape, one source of truth for everything downstream.
export { SCHEMA_VERSION, isMeasured } from '../shared/types/result-types.js';
export type {
  BenchResult,
  CellResult,
  MeasuredCell,
  CellStatus,
  CellMeasurements,
  LatencySummary,
  EncodedHistogram,
  ScenarioInfo,
  CapacityResult,
} from '../shared/types/result-types.js';
export { decodeHistogram } from '../shared/measure/metrics.js';
// Files: the result's JSON and its report folder, written as the CLI writes them.
export { writeResultFile, readResultFile, saveResult } from './results/result-file.js';
export type { SavedResult } from './results/result-file.js';
export { writeResultAndReport, ResultWriteError } from './result-output.js';
export type { WrittenOutput } from './result-output.js';
export { writeArtifacts } from './report/html/artifacts.js';
export type { ArtifactOptions } from './report/html/artifacts.js';
// Errors a caller can tell apart.
export { UsageError, ParameterError } from '../shared/types/errors.js';
// Reports of one result, returned as text.
export { renderTable } from './report/run/table.js';
export { renderResultMarkdown } from './report/run/run-markdown.js';
// Comparing two results, and the gate CI reads.
export { compareResults, compareServers } from './compare/compare.js';
export type { Comparison, CompareOptions, CellComparison, MetricDelta, Verdict } from './compare/compare.js';
export { renderComparison } from './compare/compare-text.js';
export { renderComparisonMarkdown } from './compare/compare-markdown.js';
export { gate, gateLines, INCONCLUSIVE_EXIT_CODE } from './compare/compare-gate.js';
export type { Gate, InconclusivePolicy } from './compare/compare-gate.js';
// Capacity: the highest load a stack serves within an SLO (docs/capacity.md).
export { capacity, planCapacity, executeCapacity } from './capacity/run-capacity.js';
export type { CapacityOptions, CapacityPlan, CapacityEvent } from './capacity/run-capacity.js';
export { renderCapacityTable } from './report/capacity/capacity-table.js';
// Sharded runs: merging the shards' results, and the Kubernetes manifest that runs them (docs/sharding.md).
export { mergeShards } from './shard/merge.js';
export type { ShardInput } from './shard/merge.js';
export { k8sManifest, manifestYaml } from './shard/k8s-manifest.js';
export type { K8sManifestOptions, K8sManifest } from './shard/k8s-manifest.js';
export type { ShardOptions } from './shard/shard-options.js';
// Watching a run: the terminal's progress and the live dashboard (docs/live.md).
export { createProgress } from './live/progress.js';
export type { Progress, ProgressMode } from './live/progress.js';
export { LiveViews, LiveBindError } from './live/live-views.js';
export type { LiveViewOptions } from './live/live-views.js';

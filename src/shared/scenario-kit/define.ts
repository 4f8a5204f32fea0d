/**
 * defineScenario(): the one way to make a scenario. It infers the parameter and
 * metric types from the object, derives the metrics its recorders declare,
 * checks that the declarations hang together (table and chart requests name
 * declared metrics, defaults are in range), turns a per-connection scenario into
 * a client half, and records which module defined it, so child processes can
 * import the same one.
 */
import type { ParameterDeclarations } from '../types/declaration-types.js';
import type { RecorderDeclarations, RecorderKeys } from '../types/recorder-types.js';
import {
  SCENARIO_BRAND,
  type MetricDefinition,
  type Scenario,
  type ScenarioDefinition,
  type ScenarioParams,
} from '../types/scenario-types.js';
import { checkDeclarations } from './check-declarations.js';
import { formProblem, recordersProblem } from './check-recorders.js';
import { bindRecorders } from './recorder-binding.js';
import { recorderMetrics } from './recorders.js';
import { perConnectionClient, perConnectionReadyMs } from './per-connection.js';
import { declaresOpenModel, defaultLoadModel } from './arrivals/open-model.js';

/** The metrics of a scenario: its own (none when only recorders were given: see MetricKeysOf) and those its recorders derive. */
export type AllMetrics<D extends ParameterDeclarations, M, R> = [keyof R] extends [never]
  ? M
  : // biome-ignore lint/complexity/noBannedTypes: {} is the empty set of recorders, the identity of the intersection
    (string extends keyof M ? {} : M) & {
      [K in RecorderKeys<R> extends infer Keys ? Keys & string : never]: MetricDefinition<ScenarioParams<D>>;
    };

/**
 * Makes a scenario from its declarations and halves, typed by them; checks the declarations at once (one line naming
 * what is wrong).
 */
export function defineScenario<
  const D extends ParameterDeclarations,
  const M extends Record<string, MetricDefinition<ScenarioParams<D>>>,
  // biome-ignore lint/complexity/noBannedTypes: {} is the empty set of recorders, the identity of the intersection
  const R extends RecorderDeclarations = {},
  S = undefined,
>(definition: ScenarioDefinition<D, M, R, S>): Scenario<D, AllMetrics<D, M, R>> {
  // biome-ignore lint/suspicious/noExplicitAny: any scenario, whatever its parameter and metric types
  const loose = definition as unknown as ScenarioDefinition<any, any, RecorderDeclarations, unknown>;
  const early = formProblem(loose) ?? recordersProblem(loose);
  if (early)
    throw new Error(`scenario ${typeof loose.name === 'string' && loose.name ? loose.name : '(unnamed)'}: ${early}`);
  const recorders = loose.recorders ?? {};
  // Without recorders, `metrics` is checked as given (the old form: it must be there).
  const metrics = loose.recorders === undefined ? loose.metrics : { ...recorderMetrics(recorders), ...loose.metrics };
  // The per-connection parts live on in the client half made of them: a scenario spread into another is a client(ctx) one.
  const { connection, setup, connect: _plan, recorders: _declared, ...rest } = loose;
  const whole = { ...rest, metrics };
  checkDeclarations(whole);
  const hasRecorders = Object.keys(recorders).length > 0;
  const client = connection
    ? perConnectionClient({
        connection,
        ...(setup ? { setup } : {}),
        plan: loose.connect ?? {},
        recorders,
        scenarioMetrics: metrics,
        ...(loose.windowMs ? { windowMs: loose.windowMs } : {}),
        ...(loose.subprotocols ? { subprotocols: loose.subprotocols } : {}),
      })
    : hasRecorders
      ? (ctx: Parameters<NonNullable<typeof loose.client>>[0]) =>
          loose.client!(Object.assign(ctx, { recorders: bindRecorders(ctx, recorders, 'client') }))
      : loose.client!;
  const server =
    loose.server && hasRecorders
      ? (ctx: Parameters<NonNullable<typeof loose.server>>[0]) =>
          loose.server!(Object.assign(ctx, { recorders: bindRecorders(ctx, recorders, 'server') }))
      : loose.server;
  const readyTimeoutMs = loose.readyTimeoutMs ?? (connection ? perConnectionReadyMs(loose.connect ?? {}) : undefined);
  // A scenario that spreads the open model's parameters says how each cell offered its load without a word more.
  const loadModel =
    loose.loadModel ??
    (declaresOpenModel(loose.parameters)
      ? defaultLoadModel((p) => (loose.connect?.count ? loose.connect.count(p) : Number(p.connections ?? 1)))
      : undefined);
  return Object.freeze({
    ...whole,
    client,
    ...(server ? { server } : {}),
    ...(readyTimeoutMs ? { readyTimeoutMs } : {}),
    ...(loadModel ? { loadModel } : {}),
    ...(hasRecorders ? { recorders } : {}),
    [SCENARIO_BRAND]: true as const,
    moduleUrl: callerModuleUrl(),
  }) as unknown as Scenario<D, AllMetrics<D, M, R>>;
}

const THIS_MODULE = import.meta.url;

/**
 * The file:// URL of the module that called defineScenario, read off the call
 * stack (ES modules name their URL in every frame); null when it was not a file.
 */
function callerModuleUrl(): string | null {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  for (const frame of frames) {
    const match = /(file:\/\/[^\s)]+?):\d+:\d+\)?\s*$/.exec(frame);
    if (match && match[1] !== THIS_MODULE) return match[1]!;
  }
  return null;
}

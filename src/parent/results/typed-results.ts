/**
 * Results typed by their scenario's declarations: run(echo) or run('echo') returns cells whose
 * `metrics` hold exactly echo's metric keys and whose `params` hold echo's parameters, so a
 * misspelt key is a compile error rather than an `undefined` at run time. Everything here is
 * derived from the scenario's type (what defineScenario() returns, or a built-in's entry in
 * src/parent/results/built-in-scenarios.ts); a scenario not known when compiling (a path, a name read from
 * input) gives the untyped result.
 */
import type { BuiltInScenarioName, BuiltInScenarios } from './built-in-scenarios.js';
import type { ParameterDeclarations, ParamValues } from '../../shared/types/declaration-types.js';
import type { BenchResult, CellResult, MetricValueMap } from '../../shared/types/result-types.js';
import type { AnyScenario, ScenarioParams } from '../../shared/types/scenario-types.js';

/**
 * A scenario named by a string that the loader reads as a file (src/child/scenario-loader.ts): a path
 * with a folder in it, a module's file name, or a file: URL.
 */
export type ScenarioPath =
  | `${string}/${string}`
  | `${string}\\${string}`
  | `${string}.${'js' | 'mjs' | 'cjs' | 'ts' | 'mts' | 'cts'}`
  | `file:${string}`;

/**
 * A scenario as code gives it: a literal string must be a built-in's name or a path (`'echoo'` is a
 * compile error naming the built-ins), while a plain `string` (a name read from input) passes and is
 * checked when the run is planned. `S` is the scenario as the caller wrote it, inferred. Not
 * distributive, so a caller's own type parameter narrower than ScenarioRef (`S extends 'echo' | 'chat'`)
 * passes through.
 */
export type ScenarioRefInput<S> = [S] extends [string]
  ? string extends S
    ? S
    : [S] extends [BuiltInScenarioName | ScenarioPath]
      ? S
      : BuiltInScenarioName | ScenarioPath
  : S;

/** The scenario's type that a run of `S` (a built-in's name, or a scenario object) runs; unknown for a path or URL. */
export type ScenarioOf<S> = S extends BuiltInScenarioName ? BuiltInScenarios[S] : S extends AnyScenario ? S : unknown;

/**
 * A cell's `metrics` for scenario `S`: every metric key it declares, each a number or null (nothing
 * to measure). Mapped over the declarations, so an editor shows each key's own documentation.
 */
export type MetricValuesOf<S> =
  ScenarioOf<S> extends { metrics: infer M }
    ? 0 extends 1 & M // a scenario of any metrics (AnyScenario): any key
      ? MetricValueMap
      : { -readonly [K in keyof M]: number | null }
    : MetricValueMap;

/** A cell's `params` for scenario `S`: its parameters and the common ones, validated (durations in ms, sizes in bytes). */
export type CellParamsOf<S> =
  ScenarioOf<S> extends { parameters: infer D }
    ? 0 extends 1 & D // a scenario of any parameters (AnyScenario): no narrower than ParamValues
      ? ParamValues
      : D extends ParameterDeclarations
        ? ScenarioParams<D>
        : ParamValues
    : ParamValues;

/** One cell of a run of `S`. */
export type CellOf<S> = CellResult<MetricValuesOf<S>, CellParamsOf<S>>;

/** What run() of `S` returns: `ResultOf<'echo'>`, `ResultOf<typeof myScenario>`. */
export type ResultOf<S> = BenchResult<MetricValuesOf<S>, CellParamsOf<S>>;

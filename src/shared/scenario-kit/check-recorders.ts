/**
 * What TypeScript would have caught, for a scenario written in JavaScript: the
 * client half given in exactly one form, and recorder declarations made by
 * histogram() and counter() with statistics that exist. Each problem is one
 * line naming its key path; the rest of the declarations (table, charts,
 * parameters) are checked by check-declarations.ts once the recorders'
 * metrics are derived.
 */
import type { HistogramStat } from '../types/declaration-types.js';
import { STAT_KEYS, type RecorderDeclarations } from '../types/recorder-types.js';
import type { ScenarioDefinition } from '../types/scenario-types.js';
import { recorderMetrics } from './recorders.js';

const RECORDER_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const STATS = Object.keys(STAT_KEYS) as HistogramStat[];

// biome-ignore lint/suspicious/noExplicitAny: any scenario, whatever its parameter and metric types
type AnyDefinition = ScenarioDefinition<any, any, RecorderDeclarations, unknown>;

/** The client half in exactly one form, and the per-connection form's parts only with it. */
export function formProblem(definition: AnyDefinition): string | null {
  const client = typeof definition.client === 'function';
  const connection = typeof definition.connection === 'function';
  if (client && connection) return 'give client(ctx) or connection(conn, ctx), not both';
  if (!client && !connection)
    return 'has no client half: give client(ctx), or connection(conn, ctx) to run once per connection';
  if (!connection) {
    const stray = (['setup', 'connect'] as const).find((key) => definition[key] !== undefined);
    if (stray) return `${stray} belongs to the per-connection form: it is read only with connection(conn, ctx)`;
    return null;
  }
  const plan = (definition.connect ?? {}) as Record<string, unknown>;
  if (typeof plan !== 'object' || plan === null)
    return 'connect must be an object ({ count, ratePerSec, timeoutMs, sourceAddresses, drainMs, textAsBytes })';
  for (const [key, value] of Object.entries(plan)) {
    const expected =
      key === 'textAsBytes'
        ? 'boolean'
        : ['count', 'ratePerSec', 'timeoutMs', 'sourceAddresses', 'drainMs'].includes(key)
          ? 'function'
          : null;
    if (expected === null)
      return `connect.${key} is not a field of the connect plan (count, ratePerSec, timeoutMs, sourceAddresses, drainMs, textAsBytes)`;
    if (typeof value !== expected)
      return `connect.${key} must be a ${expected === 'function' ? 'function of the parameters' : 'boolean'}`;
  }
  const parameters = (definition.parameters ?? {}) as Record<string, { kind?: string }>;
  if (plan.count === undefined && parameters.connections?.kind !== 'integer') {
    return 'connection(conn, ctx) needs an integer `connections` parameter, or connect.count(params) saying how many connections to open';
  }
  if (definition.setup !== undefined && typeof definition.setup !== 'function')
    return 'setup must be a function (ctx) returning what the connections of a process share';
  return null;
}

/** Every recorder made by histogram() or counter(), with statistics that exist, deriving keys no other metric has. */
export function recordersProblem(definition: AnyDefinition): string | null {
  const recorders = definition.recorders as unknown;
  if (recorders === undefined) return null;
  if (typeof recorders !== 'object' || recorders === null || Array.isArray(recorders))
    return 'recorders must be an object of histogram() and counter() declarations';
  for (const [name, declaration] of Object.entries(recorders as Record<string, unknown>)) {
    const at = `recorders.${name}`;
    if (!RECORDER_NAME.test(name)) return `${at}: a recorder's name is letters, digits and _ , starting with a letter`;
    const kind = (declaration as { recorder?: unknown } | null)?.recorder;
    if (kind !== 'histogram' && kind !== 'counter')
      return `${at} must be made by histogram() or counter() (it is ${JSON.stringify(declaration) ?? 'undefined'})`;
    const { side } = declaration as { side: unknown };
    if (side !== 'client' && side !== 'server')
      return `${at}.side must be 'client' or 'server' (it is ${JSON.stringify(side)})`;
    if (kind === 'histogram') {
      const { stats, primary, unit } = declaration as { stats: unknown[]; primary: unknown[]; unit: unknown };
      // An empty list is unreportedHistogram()'s: recorded, its metrics (if any) written in `metrics`.
      if (!Array.isArray(stats)) return `${at}.stats must be a list of statistics (${STATS.join(', ')})`;
      const bad = stats.findIndex((stat) => !STATS.includes(stat as HistogramStat));
      if (bad >= 0) return `${at}.stats[${bad}] "${String(stats[bad])}" is not a statistic (${STATS.join(', ')})`;
      const stray = (Array.isArray(primary) ? primary : []).findIndex((stat) => !stats.includes(stat));
      if (stray >= 0)
        return `${at}.primary[${stray}] "${String(primary[stray])}" is not one of its stats (${stats.join(', ')})`;
      if (unit !== 'ms' && unit !== 'bytes')
        return `${at}.unit must be 'ms' or 'bytes' (it is ${JSON.stringify(unit)})`;
    }
  }
  // Two declarations deriving one key, or a key `metrics` declares otherwise (the same definition, as a spread scenario has, is no clash).
  const seen = new Map<string, string>();
  for (const [name, declaration] of Object.entries(recorders as RecorderDeclarations)) {
    for (const key of Object.keys(recorderMetrics({ [name]: declaration }))) {
      if (seen.has(key)) return `recorders.${name} and recorders.${seen.get(key)} both derive the metric "${key}"`;
      seen.set(key, name);
    }
  }
  const derived = recorderMetrics(recorders as RecorderDeclarations);
  const own = (definition.metrics ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(own)) {
    if (key in derived && JSON.stringify(own[key]) !== JSON.stringify(derived[key]))
      return `metrics.${key} is also the metric recorders.${seen.get(key)} derives: rename one`;
  }
  return null;
}

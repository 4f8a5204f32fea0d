/**
 * Finds a scenario by built-in name, file path, file URL or as an object made by
 * defineScenario(), and checks that it really is one. Children import the same
 * module URL and pick the scenario by name, so both halves come from one file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError } from '../shared/types/errors.js';
import { readChecked } from '../shared/safe-files.js';
import { isScenario, type AnyScenario } from '../shared/types/scenario-types.js';
import { didYouMean } from '../shared/near-name.js';

/** Built-in scenarios live in scenarios/, compiled next to dist/src. */
const BUILT_IN_DIR = new URL('../../scenarios/', import.meta.url);

/** A scenario as run() takes it: a built-in name, a path, a file URL, or the scenario itself. */
export type ScenarioRef = string | URL | AnyScenario;

export interface LoadedScenario {
  scenario: AnyScenario;
  /** file:// URL of the module children import. */
  url: string;
}

/** Every module in scenarios/ is a built-in scenario, named after its file. */
export function builtInScenarios(): string[] {
  return readdirSync(fileURLToPath(BUILT_IN_DIR))
    .filter((file) => file.endsWith('.js'))
    .map((file) => file.slice(0, -'.js'.length))
    .sort();
}

export async function loadScenario(ref: ScenarioRef): Promise<LoadedScenario> {
  if (typeof ref === 'object' && !(ref instanceof URL)) {
    if (!isScenario(ref)) throw new UsageError('scenario: not made by defineScenario()');
    if (!ref.moduleUrl)
      throw new UsageError(
        `scenario ${ref.name}: defined outside a module file; child processes load scenarios from files, so define it in one`,
      );
    // Not imported here: the module may be the very script that is calling run().
    return { scenario: ref, url: ref.moduleUrl };
  }
  const url = scenarioUrl(ref);
  return { scenario: await importScenario(url), url };
}

function scenarioUrl(ref: string | URL): string {
  if (ref instanceof URL || ref.startsWith('file:')) return checkedFile(fileURLToPath(ref), String(ref));
  if (looksLikePath(ref)) return checkedFile(resolve(ref), ref);
  const known = builtInScenarios();
  if (!known.includes(ref))
    throw new UsageError(
      `unknown scenario "${ref}"${didYouMean(ref, known)} (known: ${known.join(', ')}, or a path to a .js file)`,
    );
  return new URL(`${ref}.js`, BUILT_IN_DIR).href;
}

function looksLikePath(ref: string): boolean {
  return ref.includes('/') || ref.includes('\\') || /\.[cm]?[jt]s$/.test(ref);
}

/**
 * Refuses what cannot be a scenario before importing it: importing runs a
 * module's top level, and a script that is not a scenario may start work there.
 */
function checkedFile(path: string, label: string): string {
  if (!existsSync(path)) throw new UsageError(`scenario file not found: ${label}`);
  if (/\.[cm]?ts$/.test(path)) {
    throw new UsageError(
      `${label} is TypeScript: compile it to JavaScript first (tsc), then run the .js file (Node 20 cannot run .ts files)`,
    );
  }
  // A regular file within the scenario limit: a FIFO or a device is one line, not a wait.
  if (!readChecked(path, 'scenario').toString('utf8').includes('defineScenario')) {
    throw new UsageError(`${label} is not a wsbench scenario: it never calls defineScenario() (not run)`);
  }
  return pathToFileURL(path).href;
}

/**
 * Imports a module and returns its scenario: the export named `name` when
 * given, else the default export, else the only scenario it exports.
 */
export async function importScenario(url: string, name?: string): Promise<AnyScenario> {
  let module: Record<string, unknown>;
  try {
    module = (await unlessStuck(import(url))) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof NeverLoaded)
      throw new UsageError(
        `scenario ${shortName(url)} never finished loading: its module's top-level await waits for something that can never happen`,
      );
    throw new UsageError(`cannot load scenario ${shortName(url)}: ${(error as Error).message.split('\n')[0]}`);
  }
  const found = [...new Set(Object.values(module).filter(isScenario))];
  const pick =
    name !== undefined
      ? found.find((s) => s.name === name)
      : isScenario(module.default)
        ? module.default
        : found.length === 1
          ? found[0]
          : undefined;
  if (pick) return pick;
  if (name !== undefined)
    throw new UsageError(
      `${shortName(url)} does not export scenario "${name}" (export it: child processes import it from there)`,
    );
  if (found.length > 1)
    throw new UsageError(
      `${shortName(url)} exports several scenarios (${found.map((s) => s.name).join(', ')}); make one the default export`,
    );
  throw new UsageError(`${shortName(url)} does not export a scenario made with defineScenario()`);
}

class NeverLoaded extends Error {}

/** The imports under way, each with the rejection it gets should Node run out of work first. */
const loading = new Set<() => void>();
const rejectAllLoading = (): void => {
  for (const stuck of loading) stuck();
};

/**
 * `pending`, or a NeverLoaded rejection once Node is about to exit with it still pending: nothing (no
 * timer, socket or child) is left that could settle it, as with a top-level await of a promise nobody
 * resolves. Prepended, so the CLI's own check of unfinished work hears of it after this rejection.
 */
function unlessStuck<T>(pending: Promise<T>): Promise<T> {
  let stuck: () => void = () => undefined;
  const never = new Promise<never>((_, reject) => (stuck = () => reject(new NeverLoaded())));
  if (loading.size === 0) process.prependListener('beforeExit', rejectAllLoading);
  loading.add(stuck);
  return Promise.race([pending, never]).finally(() => {
    loading.delete(stuck);
    if (loading.size === 0) process.removeListener('beforeExit', rejectAllLoading);
  });
}

function shortName(url: string): string {
  return url.startsWith('file:') ? fileURLToPath(url) : url;
}

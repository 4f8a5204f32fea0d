/**
 * Finds a scenario by built-in name or by file path, and checks that the module
 * really exports one. Children import the same module URL, so the scenario's
 * server half and client half always come from the same file.
 */
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { UsageError } from '../errors.js';
import type { Scenario } from '../types.js';

/** Built-in scenarios live in scenarios/, compiled next to dist/src. */
const BUILT_IN_DIR = new URL('../../scenarios/', import.meta.url);

/** Every module in scenarios/ is a built-in scenario, named after its file. */
export function builtInScenarios(): string[] {
  return readdirSync(fileURLToPath(BUILT_IN_DIR))
    .filter((file) => file.endsWith('.js'))
    .map((file) => file.slice(0, -'.js'.length))
    .sort();
}

export interface LoadedScenario {
  scenario: Scenario;
  /** file:// URL children import. */
  url: string;
}

function looksLikePath(nameOrPath: string): boolean {
  return nameOrPath.includes('/') || nameOrPath.includes('\\') || /\.[cm]?js$/.test(nameOrPath);
}

export function scenarioUrl(nameOrPath: string): string {
  if (looksLikePath(nameOrPath)) {
    const path = resolve(nameOrPath);
    if (!existsSync(path)) throw new UsageError(`scenario file not found: ${nameOrPath}`);
    return pathToFileURL(path).href;
  }
  const known = builtInScenarios();
  if (!known.includes(nameOrPath)) {
    throw new UsageError(`unknown scenario "${nameOrPath}" (known: ${known.join(', ')}, or a path to a .js file)`);
  }
  return new URL(`${nameOrPath}.js`, BUILT_IN_DIR).href;
}

export async function loadScenario(nameOrPath: string): Promise<LoadedScenario> {
  const url = scenarioUrl(nameOrPath);
  return { scenario: await importScenario(url, nameOrPath), url };
}

export async function importScenario(url: string, label = url): Promise<Scenario> {
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(`cannot load scenario ${label}: ${(error as Error).message.split('\n')[0]}`);
  }
  const candidate = module.default ?? module.scenario;
  const problem = whyNotScenario(candidate);
  if (problem) throw new UsageError(`${label} does not export a scenario (default or "scenario" export): ${problem}`);
  return candidate as Scenario;
}

function whyNotScenario(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'no object exported';
  const s = value as Partial<Scenario>;
  if (typeof s.name !== 'string' || s.name === '') return 'missing name';
  if (typeof s.server !== 'function') return 'missing server(ctx)';
  if (typeof s.client !== 'function') return 'missing client(ctx)';
  if (typeof s.summarize !== 'function') return 'missing summarize(cell, params)';
  if (typeof s.parameters !== 'object' || s.parameters === null) return 'missing parameters';
  if (!Array.isArray(s.columns)) return 'missing columns';
  return null;
}

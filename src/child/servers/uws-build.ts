/**
 * Loads uWebSockets.js and tells the native build from the package's silent
 * JavaScript fallback (the trufflesuite build swaps in a ws-based imitation when
 * its binary does not load, and only says so on the console).
 */
import { createRequire } from 'node:module';
import { basename } from 'node:path';
import { installedPackage } from '../../shared/package-version.js';
import type { StackBuild } from '../../shared/types/result-types.js';

const require = createRequire(import.meta.url);
const UWS_IMPORT_NAME = 'uWebSockets.js';

interface UwsLoad {
  module: typeof import('uWebSockets.js') | null;
  version: string | null;
  build: StackBuild | null;
  /** Set when the native build is not what loaded. */
  problem: string | null;
}

let cached: UwsLoad | null = null;

export function loadUws(): UwsLoad {
  cached ??= detect();
  return cached;
}

function detect(): UwsLoad {
  const identity = installedPackage(UWS_IMPORT_NAME);
  if (!identity) return { module: null, version: null, build: null, problem: `${UWS_IMPORT_NAME} is not installed` };
  const console_ = captureConsole();
  let module: typeof import('uWebSockets.js');
  try {
    module = require(UWS_IMPORT_NAME) as typeof import('uWebSockets.js');
  } catch (error) {
    return {
      module: null,
      version: identity.version,
      build: null,
      problem: `cannot load: ${(error as Error).message}`,
    };
  } finally {
    console_.restore();
  }
  const binary = nativeBinaryPath();
  const native = isNativeFunction(module.App) && binary !== null;
  const build: StackBuild = { packageName: identity.name, native, ...(binary ? { binary: basename(binary) } : {}) };
  if (native) return { module, version: identity.version, build, problem: null };
  const said = console_.text().replace(/\s+/g, ' ').trim();
  return {
    module,
    version: identity.version,
    build,
    problem: `native uWebSockets.js binary did not load; ${identity.name} fell back to its JavaScript (ws-based) implementation${said ? ` (${said.slice(0, 200)})` : ''}`,
  };
}

/** A binding compiled from C++ prints as `function () { [native code] }`. */
export function isNativeFunction(value: unknown): boolean {
  return typeof value === 'function' && /\{\s*\[native code\]\s*\}/.test(Function.prototype.toString.call(value));
}

function nativeBinaryPath(): string | null {
  return Object.keys(require.cache).find((path) => /uws_[^/\\]*\.node$/.test(path)) ?? null;
}

/** The fallback announces itself with console.log/warn; keep that text for the reason. */
function captureConsole() {
  const original = { log: console.log, warn: console.warn };
  let text = '';
  console.log = console.warn = (...args: unknown[]) => {
    text += `${args.map(String).join(' ')}\n`;
  };
  return {
    restore: () => Object.assign(console, original),
    text: () => text,
  };
}

/** probe() of the bun and deno stacks: available when the runtime is found (or is the one running). */
import type { Availability, Runtime } from '../../shared/types/result-types.js';
import { bunApi, denoApi } from '../../shared/runtime-globals.js';
import { locateRuntime } from './locate.js';

export async function probeRuntime(name: Exclude<Runtime, 'node'>): Promise<Availability> {
  const running = name === 'bun' ? bunApi()?.version : denoApi()?.version.deno;
  if (running) return { available: true, version: running };
  const info = locateRuntime(name);
  if (info.available && info.version) return { available: true, version: info.version };
  return { available: false, version: info.version, reason: `${name} not found: ${info.reason ?? 'unknown'}` };
}

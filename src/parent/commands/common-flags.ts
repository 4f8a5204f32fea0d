/**
 * What `run` and `capacity` make of the flags they share (declared in
 * src/parent/commands/flags/): the stacks, the preset, the host, the client
 * processes, and one flag per scenario parameter, turned into the typed
 * values the library takes.
 */
import type { ScenarioInfo } from '../../shared/types/result-types.js';
import { inputFromText } from './parameter-flags.js';
import { readFlag } from './flags/index.js';
import type { FormatFlags } from './format-flags.js';

export interface CommonFlags extends FormatFlags {
  servers?: string;
  clients?: string;
  clientProcs?: string;
  out: string;
  preset?: string;
  host?: string;
  png?: boolean;
  /** The test plan file (--config), already read into the other flags. */
  config?: string;
  /** The scenario's parameters, by name, as commander read them. */
  [param: string]: unknown;
}

/** The scenario's parameter flags that were given, as the library's typed inputs. */
export function paramsFromFlags(info: ScenarioInfo, flags: CommonFlags): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [name, parameter] of Object.entries(info.parameters)) {
    const value = flags[name];
    if (value !== undefined) params[name] = inputFromText(name, parameter, value === true ? true : String(value));
  }
  return params;
}

/** The shared flags as the library's options (client processes from --client-procs, default 1). */
export function commonOptionsFromFlags(flags: CommonFlags) {
  return {
    clientProcesses: readFlag<number>(flags, '--client-procs') ?? 1,
    ...(flags.servers !== undefined ? { servers: splitList(flags.servers) } : {}),
    ...(flags.clients !== undefined ? { clients: splitList(flags.clients) } : {}),
    ...(flags.preset !== undefined ? { preset: flags.preset } : {}),
    ...(flags.host !== undefined ? { host: flags.host } : {}),
  };
}

/** A comma list of stack names; empty items are kept so the library can refuse them. */
function splitList(text: string): string[] {
  return text.split(',').map((s) => s.trim());
}

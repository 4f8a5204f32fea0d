/**
 * The flags `run` and `capacity` share, and the text parsers behind them:
 * which stacks, output, preset, host, charts, and one flag per scenario
 * parameter turned into the typed values the library takes. A command adds
 * the groups it wants, in the order its --help should list them.
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { ScenarioInfo } from '../result-types.js';
import { inputFromText } from './parameter-flags.js';
import { addFormatOptions, FORMAT_FLAG_NAMES, type FormatFlags } from './format-flags.js';

export interface CommonFlags extends FormatFlags {
  servers?: string;
  clients?: string;
  clientProcs?: string;
  out: string;
  preset?: string;
  host?: string;
  png?: boolean;
  /** The scenario's parameters, by name, as commander read them. */
  [param: string]: unknown;
}

/** Flag names (as commander stores them) of the shared groups; a scenario parameter may not reuse them. */
export const COMMON_FLAG_NAMES = ['servers', 'clients', 'clientProcs', 'out', ...FORMAT_FLAG_NAMES, 'preset', 'host', 'png', 'help'];

/** --servers and --clients, with what each command makes of them. */
export function addStackOptions(command: Command, help: { servers: string; clients: string }): void {
  command.option('--servers <list>', help.servers).option('--clients <list>', help.clients);
}

/** --out, the output formats (--format, --json, and --json-line where `jsonLine` gives its help), --preset, --host and --png. */
export function addOutputOptions(command: Command, help: { out: string; defaultOut: string; json: string; jsonLine?: string; presets: string[] }): void {
  command.option('--out <file>', help.out, help.defaultOut);
  addFormatOptions(command, help);
  command
    .option('--preset <name>', `parameter preset (${help.presets.join(', ') || 'none'})`)
    .option('--host <address>', 'loopback address the server binds', '127.0.0.1')
    .option('--png', 'also write charts/*.png beside the SVGs');
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
    clientProcesses: readCount('--client-procs', flags.clientProcs ?? '1'),
    ...(flags.servers !== undefined ? { servers: splitList(flags.servers) } : {}),
    ...(flags.clients !== undefined ? { clients: splitList(flags.clients) } : {}),
    ...(flags.preset !== undefined ? { preset: flags.preset } : {}),
    ...(flags.host !== undefined ? { host: flags.host } : {}),
  };
}

/** A comma list of stack names; empty items are kept so the library can refuse them. */
export function splitList(text: string): string[] {
  return text.split(',').map((s) => s.trim());
}

export function readCount(flag: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${flag}: "${text}" is not a whole number`);
  return Number(text);
}

/** "10%" or "0.1" as 0.1. */
export function readShare(flag: string, text: string): number {
  const percent = text.trim().endsWith('%');
  const value = Number(text.trim().replace(/%$/, ''));
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`${flag}: "${text}" is not a share such as 10% or 0.1`);
  return percent ? value / 100 : value;
}

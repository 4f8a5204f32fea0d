/**
 * What one flag is, declared once (src/parent/commands/flags/index.ts lists them all):
 * its name, its value, its help in each command that takes it, the library
 * option it sets and how its text becomes that option's value. Commander's
 * options, the names a scenario parameter may not take, the flag a library
 * error names and the keys a test plan (--config) may hold all come from here.
 */

/** The commands whose flags are declared here (`init` has none). */
export type CommandName = 'run' | 'capacity' | 'recover' | 'merge' | 'compare' | 'report' | 'k8s' | 'list';

export const COMMAND_NAMES: readonly CommandName[] = [
  'run',
  'capacity',
  'recover',
  'merge',
  'compare',
  'report',
  'k8s',
  'list',
];

/** What --help shows of a flag in one command: only what differs from the declaration. */
interface FlagUse {
  help?: string;
  /** Its value's placeholder, when this command's differs (`--out <dir>` for report). */
  value?: string;
  default?: string;
  /** The command refuses to run without it (commander's mandatory option). */
  required?: true;
}

/** What a command's --help knows of the scenario it was built for. */
export interface HelpContext {
  presets: string[];
}

export interface FlagDeclaration {
  /** As typed: `--client-procs`; `--no-journal` for a switch that turns something on by default off. */
  flag: `--${string}`;
  /** The value's placeholder in --help: `<n>` a value it needs, `[host:port]` one it may take; none for a switch. */
  value?: string;
  /** Several values: `comma` a comma list in one word (--servers a,b), `repeat` the flag given once for each (--target). */
  many?: 'comma' | 'repeat';
  help?: string | ((context: HelpContext) => string);
  default?: string;
  /**
   * The library option it sets, by the name a library error uses (`clientProcesses`); absent when it is
   * the flag's own name in camel case, or when only the command line reads it.
   */
  parameter?: string;
  /** The text as the typed value the library takes; throws FlagProblem (the flag's name is put in front). */
  read?: (text: string) => unknown;
  /** The commands that take it: `true`, or how that command words it. */
  commands: Partial<Record<CommandName, FlagUse | true>>;
}

/** A value a flag's reader refuses: the problem alone; whoever reads it says which flag (or plan key) it came from. */
export class FlagProblem extends Error {
  override readonly name = 'FlagProblem';
}

/** The name commander stores the value under: `--client-procs` -> `clientProcs`, `--no-journal` -> `journal`. */
export function attributeOf(flag: string): string {
  return flag.replace(/^--(no-)?/, '').replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** A camel-case name as a flag's words: `clientProcs` -> `client-procs`. */
export function toKebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** The key a test plan writes it as: the flag without its dashes (`client-procs`, `no-journal`). */
export function planKeyOf(flag: string): string {
  return flag.slice(2);
}

/** The value placeholder in `command`. */
export function placeholderOf(declaration: FlagDeclaration, command: CommandName): string | undefined {
  return useOf(declaration, command)?.value ?? declaration.value;
}

/** How `command` words the flag; undefined when it does not take it. */
export function useOf(declaration: FlagDeclaration, command: CommandName): FlagUse | undefined {
  const use = declaration.commands[command];
  return use === undefined ? undefined : use === true ? {} : use;
}

/**
 * Every flag of every command, each declared once, in the order --help lists
 * them. From this list come commander's options (addFlags), the names a
 * scenario parameter may not take (reservedNames), the flag a library error
 * names (flagFor), the typed value of a flag (readFlag) and the keys a test
 * plan may hold (plan/plan-words.ts). A new flag is one declaration in one of
 * the group files; test/flag-declarations.test.ts fails on a flag declared
 * twice or an option commander has that no declaration made.
 */
import { Option, type Command } from 'commander';
import { UsageError } from '../../../shared/types/errors.js';
import {
  attributeOf,
  FlagProblem,
  toKebab,
  useOf,
  type CommandName,
  type FlagDeclaration,
  type HelpContext,
} from './flag-types.js';
import { SELECTION_FLAGS } from './selection-flags.js';
import { OUTPUT_FLAGS } from './output-flags.js';
import { SERVER_FLAGS } from './server-flags.js';
import { K8S_FLAGS, SHARD_FLAGS } from './cluster-flags.js';
import { WATCH_FLAGS } from './watch-flags.js';

export const FLAGS: readonly FlagDeclaration[] = [
  ...SELECTION_FLAGS,
  ...OUTPUT_FLAGS,
  ...SERVER_FLAGS,
  ...K8S_FLAGS,
  ...SHARD_FLAGS,
  ...WATCH_FLAGS,
];

/** Names a command's parameters may not take besides its flags: commander's --help, and the plan's scenario. */
const ALSO_RESERVED = ['help', 'scenario'];

const byFlag = indexed(FLAGS);
const byParameter = new Map(FLAGS.filter((d) => d.parameter !== undefined).map((d) => [d.parameter!, d.flag]));

/** The declarations by flag; two of one flag (or of one commander attribute) are a mistake caught at load. */
function indexed(flags: readonly FlagDeclaration[]): Map<string, FlagDeclaration> {
  const map = new Map<string, FlagDeclaration>();
  const attributes = new Map<string, string>();
  for (const declaration of flags) {
    const attribute = attributeOf(declaration.flag);
    if (map.has(declaration.flag)) throw new Error(`${declaration.flag} is declared twice`);
    if (attributes.has(attribute))
      throw new Error(`${declaration.flag} and ${attributes.get(attribute)} are stored under one name (${attribute})`);
    map.set(declaration.flag, declaration);
    attributes.set(attribute, declaration.flag);
  }
  return map;
}

/** The declarations of the flags `command` takes, in --help order. */
export function flagsOf(command: CommandName): FlagDeclaration[] {
  return FLAGS.filter((declaration) => declaration.commands[command] !== undefined);
}

/** The declaration of `flag`; an undeclared one is a bug in wsbench, not bad input. */
function declarationOf(flag: string): FlagDeclaration {
  const declaration = byFlag.get(flag);
  if (!declaration) throw new Error(`${flag} is not declared in src/parent/commands/flags/`);
  return declaration;
}

/** Adds `name`'s flags to its commander command, each worded as its declaration says for that command. */
export function addFlags(command: Command, name: CommandName, context: HelpContext = { presets: [] }): void {
  for (const declaration of flagsOf(name)) {
    const use = useOf(declaration, name)!;
    const value = use.value ?? declaration.value;
    const help = use.help ?? declaration.help ?? '';
    const words = value === undefined ? declaration.flag : `${declaration.flag} ${value}`;
    const option = new Option(words, typeof help === 'function' ? help(context) : help);
    const fallback = use.default ?? declaration.default;
    if (fallback !== undefined) option.default(fallback);
    if (declaration.many === 'repeat')
      option.argParser((text: string, previous: string[] | undefined) => [...(previous ?? []), text]);
    if (use.required) option.makeOptionMandatory();
    command.addOption(option);
  }
}

/** Names (as commander stores them) a scenario parameter of `command` may not take. */
export function reservedNames(command: CommandName): string[] {
  return [...flagsOf(command).map((declaration) => attributeOf(declaration.flag)), ...ALSO_RESERVED];
}

/** The flag a library error's parameter or option name stands for: its declaration's, else the name in kebab case (a scenario parameter). */
export function flagFor(name: string): string {
  return byParameter.get(name) ?? `--${toKebab(name)}`;
}

/** The typed value of `flag` as commander read it (undefined when not given and without a default); bad text is one line naming the flag. */
export function readFlag<T>(flags: object, flag: string): T | undefined {
  const declaration = declarationOf(flag);
  const text = (flags as Record<string, unknown>)[attributeOf(flag)];
  if (text === undefined) return undefined;
  if (!declaration.read) throw new Error(`${flag} declares no reader`);
  try {
    return declaration.read(String(text)) as T;
  } catch (error) {
    throw error instanceof FlagProblem ? new UsageError(`${flag}: ${error.message}`) : error;
  }
}

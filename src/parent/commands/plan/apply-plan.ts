/**
 * A test plan turned into the words of the command line it stands for, read
 * through the same flag declarations as typed flags: a key is a flag of the
 * command without its dashes (or one of the scenario's parameters, or an
 * operand such as `scenario`), and its value becomes `--flag=value`, which
 * commander and the command's own checks then read as if typed. So a plan can
 * say what the command line can, and nothing the flags refuse. Flags given on
 * the command line override the plan's keys (a repeatable flag's list is
 * replaced, not added to).
 */
import type { Command } from 'commander';
import { UsageError } from '../../../shared/types/errors.js';
import type { ParameterInfo } from '../../../shared/types/declaration-types.js';
import type { TestPlanInfo } from '../../../shared/types/result-types.js';
import { redactUrlsIn } from '../../redact/url-secrets.js';
import { FLAGS, flagsOf } from '../flags/index.js';
import {
  COMMAND_NAMES,
  planKeyOf,
  toKebab,
  placeholderOf,
  type CommandName,
  type FlagDeclaration,
} from '../flags/flag-types.js';
import { flagFromPlan } from './plan-naming.js';
import { didYouMean } from '../../../shared/near-name.js';
import { isFlagShaped, planIn, shownValue, type PlanSource } from './read-plan.js';
import { readStages, stagesText } from '../../../shared/parsing/stages.js';

/** How a key's value is written as words. */
type Shape = 'switch' | 'optional' | 'text' | 'comma' | 'repeat' | 'boolean' | 'stages';

/** An operand of the command, as a plan key: `base`, or `shards` (a list). */
interface OperandKey {
  key: string;
  many?: true;
}

interface PlanTarget {
  command: CommandName;
  /** A fresh commander command with every flag the command takes (the scenario's parameters too). */
  build: () => Command;
  operands?: readonly OperandKey[];
  /** The scenario's parameters (run and capacity), and its name for messages. */
  parameters?: Record<string, ParameterInfo>;
  scenario?: string;
  /** The command whose --help lists the keys, for the message on an unknown one. */
  helpCommand: string;
}

/** The plan as it ran: its file, its keys with the command line's values where that gave them, and which keys those were. */
export type PlanRecord = TestPlanInfo;

/** `args` with the plan's words in front of them, and the plan as it ran. */
export function argsWithPlan(
  source: PlanSource,
  target: PlanTarget,
  args: string[],
): { args: string[]; record: PlanRecord } {
  const probe = target.build();
  const { operands } = probe.parseOptions(args);
  const typed = new Map(
    probe.options
      .filter((o) => o.long && probe.getOptionValueSource(o.attributeName()) === 'cli')
      .map((o) => [o.long!, o]),
  );
  const shapes = keyShapes(target);
  const operandKeys = target.operands ?? [];
  const operandWords: string[] = [];
  const words: string[] = [];
  const contents: Record<string, unknown> = {};
  const fromCommandLine = new Set<string>();
  for (const [key, value] of Object.entries(source.values)) {
    const where = keyPlace(source, key);
    const operand = operandKeys.find((o) => o.key === key);
    if (operand) {
      const items = itemsOf(value, operand.many === true ? 'comma' : 'text', where);
      // When the command line names its own operands, they replace the plan's (recorded below, in the key's place).
      contents[key] = operands.length > 0 ? undefined : value;
      if (operands.length === 0) operandWords.push(...items);
      continue;
    }
    const shape = shapes.get(key);
    if (shape === undefined) throw new UsageError(unknownKey(key, where, target));
    const flag = `--${key}`;
    const keyWords = wordsOf(flag, shape, value, where); // its shape is checked even when the command line overrides it
    if (typed.has(flag)) {
      contents[key] = undefined; // the command line's value, recorded below, keeps the key's place
      continue;
    }
    words.push(...keyWords);
    flagFromPlan(flag, source.path, `${source.prefix}${key}`);
    contents[key] = value;
  }
  if (operands.length > 0) {
    operandKeys.forEach((o, i) => {
      const given = o.many ? operands.slice(i) : operands[i];
      if (given === undefined || (Array.isArray(given) && given.length === 0)) return;
      contents[o.key] = given;
      fromCommandLine.add(o.key);
    });
  }
  for (const [flag, option] of typed) {
    if (flag === '--config') continue;
    const key = planKeyOf(flag);
    const value = probe.getOptionValue(option.attributeName()) as unknown;
    contents[key] = option.negate ? value === false : value;
    fromCommandLine.add(key);
  }
  const commandLine = Object.keys(contents).filter((key) => fromCommandLine.has(key));
  const record = {
    path: source.path,
    contents: redacted(withoutUnset(contents)) as Record<string, unknown>,
    commandLine,
  };
  return { args: [...operandWords, ...words, ...args], record };
}

/** Every key the command takes, with how its value is written. */
function keyShapes(target: PlanTarget): Map<string, Shape> {
  const shapes = new Map<string, Shape>();
  for (const declaration of flagsOf(target.command)) {
    if (declaration.flag !== '--config') shapes.set(planKeyOf(declaration.flag), shapeOf(declaration, target.command));
  }
  for (const [name, info] of Object.entries(target.parameters ?? {})) {
    shapes.set(
      toKebab(name),
      info.kind === 'boolean' ? 'boolean' : info.kind === 'stages' ? 'stages' : info.sweepable ? 'comma' : 'text',
    );
  }
  return shapes;
}

function shapeOf(declaration: FlagDeclaration, command: CommandName): Shape {
  if (declaration.many !== undefined) return declaration.many;
  const value = placeholderOf(declaration, command);
  return value === undefined ? 'switch' : value.startsWith('[') ? 'optional' : 'text';
}

/** The words of one key: `--flag=value` (one per item for a repeatable flag), the flag alone for a switch that is on. */
function wordsOf(flag: string, shape: Shape, value: unknown, where: string): string[] {
  switch (shape) {
    case 'switch':
      if (typeof value !== 'boolean')
        throw new UsageError(`${where}: ${described(value)}, where true or false goes (a switch)`);
      return value ? [flag] : [];
    case 'optional':
      if (value === true) return [flag];
      if (value === false) return [];
      return [`${flag}=${scalar(value, where, 'true, or a value')}`];
    case 'boolean':
      if (typeof value === 'boolean') return [`${flag}=${value}`];
      return [`${flag}=${scalar(value, where, 'true or false')}`];
    case 'repeat':
      return itemsOf(value, 'repeat', where).map((item) => `${flag}=${item}`);
    case 'stages':
      return [`${flag}=${stagesWords(value, where)}`];
    default:
      return [`${flag}=${itemsOf(value, shape, where).join(',')}`];
  }
}

/** A value's items as text: one for `text`; for a comma list or a repeatable flag, a list's items (or one value). */
function itemsOf(value: unknown, shape: 'text' | 'comma' | 'repeat', where: string): string[] {
  if (!Array.isArray(value)) return [scalar(value, where, shape === 'text' ? 'a value' : 'a value or a list of them')];
  if (shape === 'text') throw new UsageError(`${where}: a list, where one value goes`);
  if (value.length === 0) throw new UsageError(`${where}: an empty list: leave the key out instead`);
  return value.map((item, i) => scalar(item, `${where}[${i}]`, 'a value'));
}

/** Stages as text (`30s:1000,1m:5000`) or a list of `{ duration, target }`, as the flag's text; checked there. */
function stagesWords(value: unknown, where: string): string {
  if (!Array.isArray(value)) return scalar(value, where, 'stages (30s:1000,1m:5000, or a list of duration and target)');
  const stages = readStages(value);
  if (typeof stages === 'string') throw new UsageError(`${where}: ${stages}`);
  if (stages.length === 0) throw new UsageError(`${where}: an empty list: leave the key out instead`);
  return stagesText(stages);
}

/** Text or a finite number, as text. */
function scalar(value: unknown, where: string, expected: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new UsageError(`${where}: ${described(value)}, where ${expected} goes (text or a number)`);
}

function described(value: unknown): string {
  if (value === null || value === undefined) return 'no value';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${shownValue(value)}`;
}

/**
 * How messages name a key: `plan.yaml: duration`; a key that is no flag's name (a line of some file that is not a
 * plan) by its place alone, `plan.yaml: line 1, column 1`, so that no text of such a file is shown.
 */
function keyPlace(source: PlanSource, key: string): string {
  if (isFlagShaped(key)) return `${source.path}: ${source.prefix}${key}`;
  const position = source.positions.get(`${source.prefix}${key}`);
  const place = position
    ? `line ${position.line}, column ${position.column}`
    : `a key of ${source.prefix || 'the plan'}`;
  return `${source.path}: ${place}`;
}

/** Why a key is not one of the command's: not a name at all, dashes, camel case, another command's flag, or unknown. */
function unknownKey(key: string, where: string, target: PlanTarget): string {
  if (!isFlagShaped(key))
    return `${where}: a key that is no flag's name (a plan's keys are flags without their dashes, e.g. duration): is it a plan?`;
  if (key === 'config') return `${where}: a plan names no other plan (--config goes on the command line)`;
  if (key.startsWith('-')) return `${where}: write the flag without its dashes (${key.replace(/^-+/, '')})`;
  const kebab = toKebab(key);
  if (kebab !== key && keyShapes(target).has(kebab)) return `${where}: write it as the flag is spelled (${kebab})`;
  const others = COMMAND_NAMES.filter((name) =>
    FLAGS.some((d) => d.flag === `--${key}` && d.commands[name] !== undefined),
  );
  if (others.length > 0) return `${where}: a flag of ${others.join(' and ')}, not of ${target.command}`;
  const parameters = target.parameters ? ` nor a parameter of ${target.scenario ?? 'the scenario'}` : '';
  const near = didYouMean(key, [...keyShapes(target).keys()]);
  return `${where}: not a flag of ${target.command}${parameters}${near} (${target.helpCommand} lists them)`;
}

/** The keys that hold a value (an operand the command line left out of its own is not one). */
function withoutUnset(contents: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(contents).filter(([, value]) => value !== undefined));
}

/** Secrets in URLs redacted wherever they sit, as argv's are. */
function redacted(value: unknown): unknown {
  if (typeof value === 'string') return redactUrlsIn(value);
  if (Array.isArray(value)) return value.map(redacted);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redacted(v)]));
  return value;
}

/** The words a command without a scenario reads: `args` with the plan of their --config (if any) in front. */
export async function argsWithPlanOf(
  command: CommandName,
  args: string[],
  build: () => Command,
  operands: readonly OperandKey[] = [],
): Promise<string[]> {
  const source = await planIn(args);
  return source === null
    ? args
    : argsWithPlan(source, { command, build, operands, helpCommand: `wsbench ${command} --help` }, args).args;
}

/**
 * A test plan file (`--config plan.yaml` or `.json`): found among a command's
 * words, read as a regular file of bounded size (safe-files.ts: never a FIFO
 * or a device), parsed, and checked to be a mapping of keys. What the keys may
 * be is the flags' business (apply-plan.ts).
 */
import { extname } from 'node:path';
import { UsageError } from '../../../shared/types/errors.js';
import { readChecked } from '../../../shared/safe-files.js';

/** A plan's keys, and where they came from: the file, and the key path they sit under in it ('' at the top). */
export interface PlanSource {
  path: string;
  values: Record<string, unknown>;
  /** Put before each key in messages: '' for the file's own keys, `run.` for k8s's run section. */
  prefix: string;
  /** Where each key stands in the file, by its path as messages name it (`duration`, `run.duration`); empty when not known. */
  positions: ReadonlyMap<string, KeyPosition>;
}

/** A key's place in its file, both from 1. */
interface KeyPosition {
  line: number;
  column: number;
}

/** The most of a value (or of a key that is a flag's name) a message shows: a plan may be any file, a secret one too. */
const SHOWN_CHARACTERS = 40;

/**
 * Whether a key looks like what a plan's keys are: a flag without its dashes or a parameter's name (letters,
 * digits, dashes; with dashes or camel case too, which have their own messages). Only such a key is named in a
 * message; any other text (a line of some other file that --config was pointed at) is named by its place.
 */
export function isFlagShaped(key: string): boolean {
  return key.length <= SHOWN_CHARACTERS && /^-{0,2}[A-Za-z][A-Za-z0-9_-]*$/.test(key);
}

/** A value as a message shows it: JSON, cut to a few dozen characters. */
export function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}... (cut)` : text;
}

const FLAG = '--config';

/** The path after --config (or --config=PATH) among `args`, before any `--`; null without one. */
export function configPathIn(args: readonly string[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--') return null;
    if (word === FLAG) {
      if (args[i + 1] === undefined) throw new UsageError(`${FLAG}: give the plan file (${FLAG} plan.yaml)`);
      return args[i + 1]!;
    }
    if (word.startsWith(`${FLAG}=`)) return word.slice(FLAG.length + 1);
  }
  return null;
}

/** The plan `args` name with --config, read and parsed; null when they name none. */
export async function planIn(args: readonly string[]): Promise<PlanSource | null> {
  const path = configPathIn(args);
  return path === null ? null : { path, ...(await readPlanFile(path)), prefix: '' };
}

/**
 * The file's top-level mapping, and where its keys stand; anything else (not YAML or JSON, a list, a bare value)
 * is one line naming the file.
 */
async function readPlanFile(
  path: string,
): Promise<{ values: Record<string, unknown>; positions: Map<string, KeyPosition> }> {
  const extension = extname(path).toLowerCase();
  if (!['.yaml', '.yml', '.json'].includes(extension))
    throw new UsageError(`${FLAG}: ${path}: a plan is a .yaml, .yml or .json file`);
  const text = readChecked(path, 'plan', { flag: FLAG }).toString('utf8');
  let data: unknown;
  try {
    data = extension === '.json' ? JSON.parse(text) : (await import('yaml')).parse(text);
  } catch (error) {
    // V8 quotes the start of the text it could not read ("root:*:190"... is not valid JSON): the file's, not shown.
    const first = (error as Error).message
      .split('\n')[0]!
      .trim()
      .replace(/, ".*" is not valid JSON$|, ".*"\.\.\. is not valid JSON$/, '');
    throw new UsageError(`${path}: not ${extension === '.json' ? 'JSON' : 'YAML'} (${cut(first)})`);
  }
  if (data === null || data === undefined)
    throw new UsageError(`${path}: the plan is empty: write its keys, one per flag (docs/test-plans.md)`);
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new UsageError(
      `${path}: the plan is ${Array.isArray(data) ? 'a list' : `a bare ${typeof data}`}: write it as keys and values, one key per flag`,
    );
  }
  return { values: data as Record<string, unknown>, positions: await keyPositions(text) };
}

/**
 * Where each key of the top mapping and of the mappings under it stands, by its dotted path (`run.duration`).
 * JSON is read as the YAML it also is; a key whose place cannot be told is left out.
 */
async function keyPositions(text: string): Promise<Map<string, KeyPosition>> {
  const { LineCounter, isMap, isScalar, parseDocument } = await import('yaml');
  const lines = new LineCounter();
  const positions = new Map<string, KeyPosition>();
  const walk = (node: unknown, prefix: string, depth: number): void => {
    if (!isMap(node) || depth > 1) return;
    for (const pair of node.items) {
      if (!isScalar(pair.key) || pair.key.range === undefined || pair.key.range === null) continue;
      const key = `${prefix}${String(pair.key.value)}`;
      const { line, col } = lines.linePos(pair.key.range[0]);
      positions.set(key, { line, column: col });
      walk(pair.value, `${key}.`, depth + 1);
    }
  };
  walk(parseDocument(text, { lineCounter: lines }).contents, '', 0);
  return positions;
}

/** A line of someone else's text (a parser's message), cut as values are. */
function cut(text: string): string {
  const most = SHOWN_CHARACTERS * 3;
  return text.length > most ? `${text.slice(0, most)}... (cut)` : text;
}

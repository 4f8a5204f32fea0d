/**
 * A test plan file (`--config plan.yaml` or `.json`): found among a command's
 * words, read as a regular file of bounded size (safe-files.ts: never a FIFO
 * or a device), parsed, and checked to be a mapping of keys. What the keys may
 * be is the flags' business (apply-plan.ts).
 */
import { extname } from 'node:path';
import { UsageError } from '../../errors.js';
import { readChecked } from '../../safe-files.js';

/** A plan's keys, and where they came from: the file, and the key path they sit under in it ('' at the top). */
export interface PlanSource {
  path: string;
  values: Record<string, unknown>;
  /** Put before each key in messages: '' for the file's own keys, `run.` for k8s's run section. */
  prefix: string;
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
  return path === null ? null : { path, values: await readPlanFile(path), prefix: '' };
}

/** The file's top-level mapping; anything else (not YAML or JSON, a list, a bare value) is one line naming the file. */
export async function readPlanFile(path: string): Promise<Record<string, unknown>> {
  const extension = extname(path).toLowerCase();
  if (!['.yaml', '.yml', '.json'].includes(extension))
    throw new UsageError(`${FLAG}: ${path}: a plan is a .yaml, .yml or .json file`);
  const text = readChecked(path, 'plan', { flag: FLAG }).toString('utf8');
  let data: unknown;
  try {
    data = extension === '.json' ? JSON.parse(text) : (await import('yaml')).parse(text);
  } catch (error) {
    const first = (error as Error).message.split('\n')[0]!.trim();
    throw new UsageError(`${path}: not ${extension === '.json' ? 'JSON' : 'YAML'} (${first})`);
  }
  if (data === null || data === undefined)
    throw new UsageError(`${path}: the plan is empty: write its keys, one per flag (docs/test-plans.md)`);
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new UsageError(
      `${path}: the plan is ${Array.isArray(data) ? 'a list' : `a bare ${typeof data}`}: write it as keys and values, one key per flag`,
    );
  }
  return data as Record<string, unknown>;
}

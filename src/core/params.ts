/**
 * Reads scenario parameters from text (command line, presets) into validated
 * values, and expands comma lists into one parameter set per cell.
 */
import { UsageError } from '../errors.js';
import type { ParamValues, ParameterSpec, Scenario } from '../types.js';

const DURATION_UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const SIZE_UNITS_BYTES: Record<string, number> = {
  b: 1, kb: 1000, mb: 1_000_000, gb: 1_000_000_000, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3,
};

/** "500ms", "5s", "1m", "1.5h"; a bare number is seconds. */
export function parseDurationMs(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(us|ms|s|m|h)?\s*$/i.exec(text);
  if (!match) return null;
  return Number(match[1]) * DURATION_UNITS_MS[(match[2] ?? 's').toLowerCase()]!;
}

/** "32", "4kb", "64KiB", "1mb"; a bare number is bytes. */
export function parseSizeBytes(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|kib|mib|gib)?\s*$/i.exec(text);
  if (!match) return null;
  const bytes = Number(match[1]) * SIZE_UNITS_BYTES[(match[2] ?? 'b').toLowerCase()]!;
  return Number.isInteger(bytes) ? bytes : null;
}

const HINTS: Record<ParameterSpec['kind'], string> = {
  integer: 'a whole number',
  number: 'a number',
  duration: 'a duration such as 500ms, 5s, 1m',
  size: 'a size in bytes such as 32, 4kb, 64KiB',
  boolean: 'true or false',
  string: 'text',
};

/** Parses one value of one parameter, or throws a UsageError naming the flag. */
export function parseParameter(name: string, spec: ParameterSpec, text: string): number | boolean | string {
  const flag = `--${toKebab(name)}`;
  const value = readKind(spec, text.trim());
  if (value === null) throw new UsageError(`${flag}: "${text}" is not ${HINTS[spec.kind]}`);
  if (typeof value === 'number') {
    if (spec.min !== undefined && value < spec.min) {
      throw new UsageError(`${flag}: ${text} is below the minimum ${describe(spec, spec.min)}`);
    }
    if (spec.max !== undefined && value > spec.max) {
      throw new UsageError(`${flag}: ${text} is above the maximum ${describe(spec, spec.max)}`);
    }
  }
  if (typeof value === 'string' && spec.choices && !spec.choices.includes(value)) {
    throw new UsageError(`${flag}: "${text}" is not one of ${spec.choices.join(', ')}`);
  }
  return value;
}

function readKind(spec: ParameterSpec, text: string): number | boolean | string | null {
  switch (spec.kind) {
    case 'integer':
      return /^-?\d+$/.test(text) ? Number(text) : null;
    case 'number':
      return text !== '' && Number.isFinite(Number(text)) ? Number(text) : null;
    case 'duration':
      return parseDurationMs(text);
    case 'size':
      return parseSizeBytes(text);
    case 'boolean':
      return text === 'true' || text === '' ? true : text === 'false' ? false : null;
    case 'string':
      return text;
  }
}

function describe(spec: ParameterSpec, value: number): string {
  if (spec.kind === 'duration') return `${value}ms`;
  if (spec.kind === 'size') return `${value} bytes`;
  return String(value);
}

export function toKebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/**
 * Builds the parameter sets of a run: defaults, then the preset, then explicit
 * values; a comma list on a sweepable parameter multiplies the sets.
 */
export function resolveParameterSets(
  scenario: Scenario,
  explicit: Record<string, string>,
  presetName?: string,
): ParamValues[] {
  const texts: Record<string, string> = {};
  if (presetName !== undefined) {
    const preset = scenario.presets?.[presetName];
    if (!preset) {
      const known = Object.keys(scenario.presets ?? {});
      throw new UsageError(
        `--preset: "${presetName}" is not a preset of ${scenario.name} (${known.length ? known.join(', ') : 'it has none'})`,
      );
    }
    Object.assign(texts, preset);
  }
  Object.assign(texts, explicit);

  let sets: ParamValues[] = [{}];
  for (const [name, spec] of Object.entries(scenario.parameters)) {
    const text = texts[name];
    const values =
      text === undefined
        ? [spec.default]
        : splitList(name, spec, text).map((part) => parseParameter(name, spec, part));
    sets = sets.flatMap((set) => values.map((value) => ({ ...set, [name]: value })));
  }
  for (const name of Object.keys(texts)) {
    if (!(name in scenario.parameters)) {
      throw new UsageError(`--${toKebab(name)}: not a parameter of ${scenario.name} (${Object.keys(scenario.parameters).map(toKebab).join(', ')})`);
    }
  }
  return sets;
}

function splitList(name: string, spec: ParameterSpec, text: string): string[] {
  if (!text.includes(',')) return [text];
  if (!spec.sweepable) throw new UsageError(`--${toKebab(name)}: takes one value, not a list ("${text}")`);
  return text.split(',');
}

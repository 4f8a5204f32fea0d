/**
 * One parameter value as code gives it (a number in ms or bytes, or text with a
 * unit), checked against its declaration and turned into the parameter's unit;
 * and the same value printed back for people. The engine, the scenario kit and
 * the command line all read and print values here.
 */
import { ParameterError } from '../types/errors.js';
import type { ParameterInfo, ParameterSpec } from '../types/declaration-types.js';
import { formatDuration, formatSize, parseDurationMs, parseSizeBytes } from './units.js';
import { readStages, stagesText } from './stages.js';

type Value = number | boolean | string;

/**
 * The longest duration any parameter takes: 7 days. Node's timers hold at most
 * 2^31-1 ms (24.8 days) and silently fire after 1 ms beyond that, so no window,
 * plus its drain and wrap-up, may come near it.
 */
const MAX_DURATION_MS = 7 * 24 * 3_600_000;

/** A value for people, with its unit: "5s", "32B", "true". */
export function formatValue(kind: ParameterInfo['kind'], value: Value): string {
  if (kind === 'stages' && value === '') return 'none';
  if (typeof value === 'number' && kind === 'duration') return formatDuration(value);
  if (typeof value === 'number' && kind === 'size') return formatSize(value);
  return String(value);
}

/** Checks one value given by code and returns it in the parameter's unit (ms, bytes). */
export function readValue(name: string, spec: ParameterSpec, input: unknown, checkRange = true): Value {
  if (spec.kind === 'stages') {
    const stages = readStages(input);
    if (typeof stages === 'string') throw new ParameterError(name, stages);
    return stagesText(stages);
  }
  const value = convert(spec, input);
  if (value === null) throw new ParameterError(name, `${show(input)} is not ${EXPECTED[spec.kind]}`);
  if (spec.kind === 'choice' && !spec.choices.includes(value as string)) {
    throw new ParameterError(name, `${show(input)} is not one of ${spec.choices.join(', ')}`);
  }
  if (checkRange && typeof value === 'number' && 'min' in spec) {
    const min = spec.min === undefined ? undefined : boundOf(name, spec, spec.min);
    const declaredMax = spec.max === undefined ? undefined : boundOf(name, spec, spec.max);
    const max = spec.kind === 'duration' ? Math.min(declaredMax ?? MAX_DURATION_MS, MAX_DURATION_MS) : declaredMax;
    if (min !== undefined && value < min)
      throw new ParameterError(name, `${show(input)} is below the minimum ${formatValue(spec.kind, min)}`);
    if (max !== undefined && value > max)
      throw new ParameterError(name, `${show(input)} is above the maximum ${formatValue(spec.kind, max)}`);
  }
  return value;
}

/** A declared bound (min or max) in the parameter's unit. */
export function boundOf(name: string, spec: ParameterSpec, bound: unknown): number {
  return readValue(name, spec, bound, false) as number;
}

/** An input as an error message quotes it. */
export function show(input: unknown): string {
  return typeof input === 'string' ? `"${input}"` : String(input);
}

const EXPECTED: Record<ParameterSpec['kind'], string> = {
  integer: 'a whole number',
  number: 'a number',
  duration: 'a duration such as 500ms, 5s, 1m',
  size: 'a size such as 32, 4kb, 64KiB',
  boolean: 'true or false',
  choice: 'one of the choices',
  string: 'text',
  stages: 'stages such as 30s:1000,1m:5000',
};

function convert(spec: ParameterSpec, input: unknown): Value | null {
  switch (spec.kind) {
    case 'integer':
      return typeof input === 'number' && Number.isSafeInteger(input) ? input : null;
    case 'number':
      return typeof input === 'number' && Number.isFinite(input) ? input : null;
    case 'duration':
      if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : null;
      return typeof input === 'string' ? parseDurationMs(input) : null;
    case 'size':
      if (typeof input === 'number') return Number.isSafeInteger(input) && input >= 0 ? input : null;
      return typeof input === 'string' ? parseSizeBytes(input) : null;
    case 'boolean':
      return typeof input === 'boolean' ? input : null;
    case 'choice':
    case 'string':
      return typeof input === 'string' ? input : null;
    case 'stages':
      return null; // read by readStages above
  }
}

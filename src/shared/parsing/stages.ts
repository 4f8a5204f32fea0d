/**
 * Stages: how the load changes within one window, as k6 writes them. Each stage
 * has a duration and a target, and the load goes in a straight line from where
 * the previous stage left it (the scenario's own starting value for the first)
 * to the target by the stage's end: a ramp when the target differs, a hold when
 * it repeats, a spike when a short stage climbs far. What the target counts
 * (messages per second, active connections) is the scenario's to say.
 *
 * A parameter value stays a plain string in the result and across processes:
 * `30s:1000,1m:5000,10s:20000,30s:0`, '' for none. Code and test plans may also
 * give a list of `{ duration, target }`, which becomes the same text.
 */
import { formatDuration, parseDurationMs } from './units.js';
import type { Stage } from '../types/declaration-types.js';

/** Shorter than this, a stage would have no interval of its own to report on (progress is read every 100 ms). */
export const MIN_STAGE_MS = 100;
/** More stages than this are surely a mistake, and each one is reported on its own. */
const MAX_STAGES = 100;

/** The stages of a value, or a one-line problem; '' (or an empty list) is no stages. */
export function readStages(input: unknown): Stage[] | string {
  if (typeof input === 'string') return input.trim() === '' ? [] : parseStagesText(input);
  if (Array.isArray(input)) return stagesFromList(input);
  return 'stages are text such as 30s:1000,1m:5000 or a list of { duration, target }';
}

/** The one text of a list of stages, as the result records it. */
export function stagesText(stages: readonly Stage[]): string {
  return stages.map((s) => `${formatDuration(s.durationMs)}:${s.target}`).join(',');
}

/** The stages of a recorded value (already checked); none for ''. */
export function stagesOf(text: string): Stage[] {
  const stages = readStages(text);
  if (typeof stages === 'string') throw new Error(`stages: ${stages}`);
  return stages;
}

/** The window the stages fill, in ms. */
export function stagesTotalMs(stages: readonly Stage[]): number {
  return stages.reduce((sum, s) => sum + s.durationMs, 0);
}

function parseStagesText(text: string): Stage[] | string {
  const items = text.split(',');
  if (items.length > MAX_STAGES) return `${items.length} stages: at most ${MAX_STAGES}`;
  const stages: Stage[] = [];
  for (const [i, item] of items.entries()) {
    const match = /^\s*([^:\s]+)\s*:\s*([^:\s]+)\s*$/.exec(item);
    if (!match) return `stage ${i + 1} "${item.trim()}" is not DURATION:TARGET (such as 30s:1000)`;
    const stage = checkedStage(match[1]!, match[2]!, i);
    if (typeof stage === 'string') return stage;
    stages.push(stage);
  }
  return stages;
}

function stagesFromList(list: unknown[]): Stage[] | string {
  if (list.length > MAX_STAGES) return `${list.length} stages: at most ${MAX_STAGES}`;
  const stages: Stage[] = [];
  for (const [i, item] of list.entries()) {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return `stage ${i + 1} is not a mapping of duration and target`;
    const { duration, target, ...rest } = item as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) return `stage ${i + 1}: "${extra}" is not duration or target`;
    if (duration === undefined || target === undefined) return `stage ${i + 1} needs both duration and target`;
    const stage = checkedStage(duration, target, i);
    if (typeof stage === 'string') return stage;
    stages.push(stage);
  }
  return stages;
}

function checkedStage(duration: unknown, target: unknown, i: number): Stage | string {
  const durationMs = typeof duration === 'string' ? parseDurationMs(duration) : null;
  if (durationMs === null) return `stage ${i + 1}: duration ${show(duration)} is not a duration such as 500ms, 30s, 1m`;
  if (durationMs < MIN_STAGE_MS) return `stage ${i + 1}: ${show(duration)} is shorter than ${MIN_STAGE_MS}ms`;
  const value = typeof target === 'string' && /^\d+(\.\d+)?$/.test(target.trim()) ? Number(target) : target;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    return `stage ${i + 1}: target ${show(target)} is not a number of 0 or more`;
  return { durationMs, target: value };
}

function show(value: unknown): string {
  return typeof value === 'string' ? `"${value.trim()}"` : String(value);
}

/**
 * The stages a cell runs: the value of the scenario's stages parameter (kind `stages`), if it declares one
 * and it is set; none otherwise. The engine sizes the window by them and the client processes cut their
 * progress intervals at their bounds, both from this one reading.
 */
export function declaredStages(
  parameters: Readonly<Record<string, { kind: string }>>,
  params: Readonly<Record<string, unknown>>,
): Stage[] {
  const name = Object.keys(parameters).find((key) => parameters[key]!.kind === 'stages');
  const value = name === undefined ? undefined : params[name];
  return typeof value === 'string' ? stagesOf(value) : [];
}

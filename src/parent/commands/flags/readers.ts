/**
 * How a flag's text becomes the typed value the library takes, for the flags
 * whose one value stands alone. Each throws the problem only (FlagProblem);
 * the flag's name, or the test plan's key, is put in front by whoever read it.
 */
import { parseDurationMs } from '../../../shared/parsing/units.js';
import { FlagProblem } from './flag-types.js';

/** Digits only: "12" -> 12. `what` says what the flag wants, when more than "a whole number". */
export function wholeNumber(what = 'a whole number'): (text: string) => number {
  return (text) => {
    if (!/^\d+$/.test(text)) throw new FlagProblem(`"${text}" is not ${what}`);
    return Number(text);
  };
}

/** "10%" or "0.1" as 0.1. */
export function share(text: string): number {
  const trimmed = text.trim();
  const value = Number(trimmed.replace(/%$/, ''));
  if (trimmed === '' || !Number.isFinite(value)) throw new FlagProblem(`"${text}" is not a share such as 10% or 0.1`);
  return trimmed.endsWith('%') ? value / 100 : value;
}

/** "10" or "10%" as 10, at least 0. */
export function percentage(text: string): number {
  const value = Number(text.replace(/%$/, ''));
  if (text.trim() === '' || !Number.isFinite(value) || value < 0)
    throw new FlagProblem(`"${text}" is not a percentage (a number >= 0)`);
  return value;
}

/** A duration with its unit, in ms; `examples` are what the message suggests. */
export function duration(examples: string): (text: string) => number {
  return (text) => {
    const ms = parseDurationMs(text);
    if (ms === null) throw new FlagProblem(`"${text}" is not a duration such as ${examples}`);
    return ms;
  };
}

/** One of `choices`, as given. */
export function oneOf<T extends string>(choices: readonly T[]): (text: string) => T {
  return (text) => {
    const found = choices.find((choice) => choice === text);
    if (found === undefined) throw new FlagProblem(`"${text}" is not one of ${choices.join(', ')}`);
    return found;
  };
}

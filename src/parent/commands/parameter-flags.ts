/**
 * The command-line edge of scenario parameters: one flag per parameter, with
 * its default and unit in --help, and the flag's text turned into the typed
 * values the library takes. This is the only place parameter text is parsed.
 */
import { Option, type Command } from 'commander';
import { ParameterError } from '../../shared/types/errors.js';
import type { ParameterInfo } from '../../shared/types/declaration-types.js';
import { formatValue } from '../../shared/parsing/parameter-values.js';
import { terminalText } from '../escape/terminal.js';
import { toKebab, type CommandName } from './flags/flag-types.js';
import { flagFor, reservedNames } from './flags/index.js';

/** A scenario parameter's flag: `serverProcesses` -> `--server-processes`. */
export { toKebab };

/** A library ParameterError, reworded for the command line: `--duration: ...`, and each parameter it mentions as its flag. */
export function asFlagMessage(error: ParameterError): string {
  const problem = error.mentions.reduce(
    (text, name) => text.replace(new RegExp(`(?<![\\w-])${name}(?![\\w-])`, 'g'), flagFor(name)),
    error.problem,
  );
  return `${flagFor(error.parameter)}: ${problem}`;
}

/** "(duration; default 5s; comma list sweeps)": what --help and `list` say about a parameter. */
function describeParameter(info: ParameterInfo): string {
  const unit =
    info.kind === 'duration'
      ? 'duration with unit: 500ms, 5s, 1m'
      : info.kind === 'size'
        ? 'size: 32, 4kb, 64KiB'
        : info.kind === 'stages'
          ? 'stages DURATION:TARGET,...: 30s:1000,1m:5000 ramps to 1000 then to 5000'
          : info.kind;
  const choices = info.choices ? `: ${info.choices.join(', ')}` : '';
  const sweep = info.sweepable ? '; comma list sweeps' : '';
  const fallback = info.kind === 'stages' ? 'none' : formatValue(info.kind, info.default);
  return `${unit}${choices}; default ${fallback}${sweep}`;
}

/** One flag per parameter; a parameter named like one of `commandName`'s own flags is a scenario that cannot be run. */
export function addParameterOptions(
  command: Command,
  parameters: Record<string, ParameterInfo>,
  commandName: CommandName,
): void {
  const reserved = reservedNames(commandName);
  for (const [name, info] of Object.entries(parameters)) {
    if (reserved.includes(name)) throw new Error(`parameter "${name}" clashes with a wsbench flag`);
    const value = info.kind === 'boolean' ? '[bool]' : '<value>';
    // A user scenario's words, shown by --help in a terminal.
    command.addOption(
      new Option(`--${toKebab(name)} ${value}`, terminalText(`${info.description} (${describeParameter(info)})`)),
    );
  }
}

/**
 * Flag text into the values code would pass: numbers for numbers, arrays for
 * comma lists. A duration needs its unit (a bare "5000" is refused with a hint,
 * since it could mean seconds or ms); a bare size is bytes.
 */
export function inputFromText(name: string, info: ParameterInfo, text: string | true): unknown {
  if (text === true) return inputOf(name, info, '');
  // Stages are one value whose commas part the stages (30s:1000,1m:5000), never a sweep.
  if (info.kind === 'stages') return text;
  const parts = text.split(',');
  if (parts.length > 1 && parts.some((p) => p.trim() === ''))
    throw new ParameterError(name, `an empty item in the list "${text}"`);
  const values = parts.map((part) => inputOf(name, info, part.trim()));
  return values.length === 1 ? values[0] : values;
}

function inputOf(name: string, info: ParameterInfo, text: string): unknown {
  const numeric = /^-?\d+(\.\d+)?$/.test(text);
  switch (info.kind) {
    case 'integer':
    case 'number':
      if (!numeric)
        throw new ParameterError(name, `"${text}" is not ${info.kind === 'integer' ? 'a whole number' : 'a number'}`);
      return Number(text);
    case 'duration':
      if (numeric) throw new ParameterError(name, `"${text}" has no unit: write ${text}s or ${text}ms`);
      return text;
    case 'size':
      return numeric ? Number(text) : text;
    case 'boolean':
      if (text === '' || text === 'true') return true;
      if (text === 'false') return false;
      throw new ParameterError(name, `"${text}" is not true or false`);
    default:
      return text;
  }
}

/**
 * `--format NAME[=FILE]`, the one output flag of run, capacity, recover, merge
 * and compare (declared once, in flags/output-flags.ts), read here: repeatable, each format to FILE, or to
 * stdout without one (at most one format there; the table when none is). The
 * names are the registry's (src/parent/formats/); a format refuses, in one line, a
 * command whose kind of result it does not render. `--json` is the same as
 * `--format json`, and `--json-line` (on `run`) as `--format json-line`.
 * Files are written new through a temp file and a rename, never through a link
 * (write-atomically.ts), after the result file.
 */
import { resolve, sep } from 'node:path';
import { ParameterError, UsageError } from '../../shared/types/errors.js';
import { checkWritable, writeProblem } from '../results/result-file.js';
import { writeAtomically } from '../results/write-atomically.js';
import { DEFAULT_STDOUT_FORMAT, FORMAT_ALIASES, outputFormats } from '../formats/index.js';
import { RESULT_KIND_WORDS, type FormatInputs, type OutputFormat, type ResultKind } from '../formats/format-types.js';
import { terminalText } from '../escape/terminal.js';
import { lockPathOf } from '../results/result-lock.js';
import { journalPathOf } from '../journal/records.js';
import { artifactsDirOf } from '../report/html/artifacts.js';

export interface FormatFlags {
  format?: string[];
  json?: boolean;
  jsonLine?: boolean;
}

/** A format chosen for stdout or a file: its name as the registry has it. */
interface ChosenFormat {
  name: string;
  format: OutputFormat;
}

interface FormatFile extends ChosenFormat {
  path: string;
}

/** Where a command's output goes: one format on stdout, any number to files. */
export interface Outputs<K extends ResultKind = ResultKind> {
  kind: K;
  stdout: ChosenFormat;
  files: FormatFile[];
}

/** A file a --format file must not be: the result file, an input, a file of the run's own, or a folder's every file. */
interface ReservedPath {
  path: string;
  flag: string;
  /** How the refusal names it, after "is" (or "is in", a path inside a folder): `the lock of the --out file`; `the <flag> file` when not given. */
  what?: string;
  /** Every path inside `path` is reserved too (the report folder). */
  folder?: true;
}

/** The files a run writes beside its result file `out`: that file, its lock, its journal, and its report folder. */
export function runFilesOf(out: string): ReservedPath[] {
  return [
    { path: out, flag: '--out' },
    { path: lockPathOf(out), flag: '--out', what: 'the lock of the --out file' },
    { path: journalPathOf(out), flag: '--out', what: 'the journal of the --out file' },
    { path: artifactsDirOf(out), flag: '--out', what: 'the report folder of the --out file', folder: true },
  ];
}

/**
 * The flags read and checked before anything runs: known names, the `kind` each renders, one
 * format at most on stdout, files that can be written (in a folder that takes a new file) and are not
 * `reserved` (the result file and the run's own files beside it, or an input).
 */
export function outputsFromFlags<K extends ResultKind>(
  flags: FormatFlags,
  kind: K,
  reserved: ReservedPath[] = [],
): Outputs<K> {
  const asked = [
    ...(flags.format ?? []).map((text) => ({ said: `--format ${text}`, ...readSpec(text) })),
    ...(flags.json ? [{ said: '--json', name: 'json', path: null }] : []),
    ...(flags.jsonLine ? [{ said: '--json-line', name: 'json-line', path: null }] : []),
  ];
  for (const { said, name } of asked) {
    const format = outputFormats[name]!;
    if (format.render[kind] === undefined) {
      const renders = (Object.keys(format.render) as ResultKind[]).map((k) => RESULT_KIND_WORDS[k]).join(' and ');
      throw new UsageError(`${said}: ${name} renders ${renders}, not ${RESULT_KIND_WORDS[kind]}`);
    }
  }
  const toStdout = asked.filter((a) => a.path === null);
  const distinct = [...new Map(toStdout.map((a) => [a.name, a])).values()];
  if (distinct.length > 1) {
    throw new UsageError(
      `${distinct.map((a) => a.said).join(' and ')}: at most one format goes to stdout; send the others to files (--format NAME=FILE)`,
    );
  }
  const files: FormatFile[] = [];
  for (const { said, name, path } of asked) {
    if (path === null) continue;
    const taken = reserved.find((r) => isOrIsIn(path, r)) ?? files.find((f) => resolve(f.path) === resolve(path));
    if (taken) {
      const inside = 'flag' in taken && taken.folder === true && resolve(path) !== resolve(taken.path);
      const what =
        'flag' in taken
          ? inside
            ? `in ${taken.what} (${taken.path})`
            : (taken.what ?? `the ${taken.flag} file`)
          : `also --format ${taken.name}'s file`;
      throw new UsageError(`${said}: ${path} is ${what}; give each output its own file`);
    }
    try {
      checkWritable(path);
    } catch (error) {
      throw error instanceof ParameterError ? new UsageError(`${said}: ${error.problem}`) : error;
    }
    files.push({ name, format: outputFormats[name]!, path });
  }
  const stdoutName = distinct[0]?.name ?? DEFAULT_STDOUT_FORMAT;
  return { kind, stdout: { name: stdoutName, format: outputFormats[stdoutName]! }, files };
}

function isOrIsIn(path: string, reserved: ReservedPath): boolean {
  const [target, place] = [resolve(path), resolve(reserved.path)];
  return target === place || (reserved.folder === true && target.startsWith(`${place}${sep}`));
}

/** `NAME` or `NAME=FILE`, the name resolved through the aliases. */
function readSpec(text: string): { name: string; path: string | null } {
  const at = text.indexOf('=');
  const given = at < 0 ? text : text.slice(0, at);
  const path = at < 0 ? null : text.slice(at + 1);
  const name = FORMAT_ALIASES[given] ?? given;
  if (outputFormats[name] === undefined)
    throw new UsageError(`--format: "${given}" is not one of ${Object.keys(outputFormats).join(', ')}`);
  if (path !== null && path.trim() === '')
    throw new UsageError(`--format ${text}: give a file after =, or no = for stdout`);
  return { name, path };
}

/** The stdout format's text of `input`. */
export function renderStdout<K extends ResultKind>(outputs: Outputs<K>, input: FormatInputs[K]): string {
  return render(outputs.stdout.format, outputs.kind, input);
}

/**
 * Writes every --format file, saying on stderr where each went; a file that cannot be written is one
 * line there (what was measured is in the result file already). Returns how many could not be written.
 */
export function writeFormatFiles<K extends ResultKind>(outputs: Outputs<K>, input: FormatInputs[K]): number {
  let failed = 0;
  for (const file of outputs.files) {
    try {
      writeAtomically(file.path, render(file.format, outputs.kind, input));
      process.stderr.write(`${file.name}: ${terminalText(file.path)}\n`);
    } catch (error) {
      failed++;
      process.stderr.write(
        `${terminalText(`--format ${file.name}=${file.path}: could not write it (${writeProblem(error)})`)}\n`,
      );
    }
  }
  return failed;
}

function render<K extends ResultKind>(format: OutputFormat, kind: K, input: FormatInputs[K]): string {
  // outputsFromFlags refused every format without a renderer for `kind`.
  const renderer = format.render[kind] as ((input: FormatInputs[K]) => string) | undefined;
  return renderer!(input);
}

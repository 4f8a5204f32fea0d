/**
 * Where results go and what shapes the run around them: the result file, the
 * output formats (`--format NAME[=FILE]`, `--json` and `--json-line` its
 * aliases: format-flags.ts reads them), the preset, the host, the PNG charts.
 */
import type { FlagDeclaration } from './flag-types.js';
import { FORMAT_ALIASES, outputFormats } from '../../formats/index.js';

const JSON_STDOUT = 'print the result JSON on stdout instead of the table (--format json)';
const PNG_BESIDE_SVGS = 'also write charts/*.png beside the SVGs';

const aliases = Object.entries(FORMAT_ALIASES).map(([alias, name]) => `${alias} = ${name}`);
const formatNames = `${Object.keys(outputFormats).join(', ')}${aliases.length ? `; ${aliases.join(', ')}` : ''}`;

export const OUTPUT_FLAGS: readonly FlagDeclaration[] = [
  {
    flag: '--out',
    value: '<file>',
    commands: {
      run: { help: 'result JSON file', default: 'wsbench-results.json' },
      capacity: { help: "result JSON: the steps' cells and the search", default: 'wsbench-capacity.json' },
      recover: {
        help: "result JSON file (default: the journal's name without .journal, where the run was to write it)",
      },
      merge: { help: 'merged result JSON file', default: 'wsbench-merged.json' },
      report: {
        value: '<dir>',
        help: 'directory for report.html and charts/ (default: <name>.report/ beside <name>.json)',
      },
    },
  },
  {
    flag: '--format',
    value: '<name[=file]>',
    many: 'repeat',
    help: `an output format (${formatNames}) to stdout, or with =FILE to that file; repeatable, at most one to stdout (default: table on stdout)`,
    commands: { run: true, capacity: true, recover: true, merge: true, compare: true },
  },
  {
    flag: '--json',
    commands: {
      run: { help: JSON_STDOUT },
      capacity: { help: JSON_STDOUT },
      recover: { help: JSON_STDOUT },
      merge: { help: 'print the merged result JSON on stdout instead of the table (--format json)' },
      compare: { help: 'the same as --format json' },
      list: { help: 'print as JSON' },
    },
  },
  {
    flag: '--json-line',
    help: 'print the result as one line of JSON on stdout, for kubectl logs, then wsbench merge (--format json-line)',
    commands: { run: true },
  },
  {
    flag: '--preset',
    value: '<name>',
    help: ({ presets }) => `parameter preset (${presets.join(', ') || 'none'})`,
    commands: { run: true, capacity: true },
  },
  {
    flag: '--host',
    value: '<address>',
    help: 'loopback address the server binds (127.x.x.x, or ::1 for IPv6)',
    default: '127.0.0.1',
    commands: { run: true, capacity: true },
  },
  {
    flag: '--png',
    help: PNG_BESIDE_SVGS,
    commands: { run: true, capacity: true, recover: true, report: { help: 'also write charts/*.png' } },
  },
];

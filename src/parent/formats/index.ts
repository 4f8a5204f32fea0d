/**
 * The output format registry: one line per format. `--format NAME[=FILE]` on
 * run, capacity, recover, merge and compare takes these names; each format
 * renders the kinds of result its file declares and refuses the others.
 * Adding a format is its file and its line here (docs/design.md).
 */
import type { OutputFormat } from './format-types.js';
import { tableFormat } from './table.js';
import { jsonFormat } from './json.js';
import { jsonLineFormat } from './json-line.js';
import { markdownFormat } from './markdown.js';
import { csvFormat } from './csv.js';
import { junitFormat } from './junit.js';

export const outputFormats: Readonly<Record<string, OutputFormat>> = {
  table: tableFormat,
  json: jsonFormat,
  'json-line': jsonLineFormat,
  markdown: markdownFormat,
  csv: csvFormat,
  junit: junitFormat,
};

/** Other names a format answers to: `compare --format text`, as it was before there was a table format. */
export const FORMAT_ALIASES: Readonly<Record<string, string>> = { text: 'table' };

/** What stdout gets when no --format sends anything there. */
export const DEFAULT_STDOUT_FORMAT = 'table';

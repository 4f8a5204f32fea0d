/**
 * Every output format is registered, documented and exercised. A format file
 * in src/parent/formats/ without its registry line, a registered format without its
 * row in docs/output-formats.md, or a format that renders a kind it declares
 * badly (no final line break, a raw control character from a hostile name,
 * different text for the same input) fails here. The fixtures are made in the
 * test, so a new format is covered by its file and its line alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { outputFormats, FORMAT_ALIASES, DEFAULT_STDOUT_FORMAT } from '../src/parent/formats/index.js';
import type { FormatInputs, OutputFormat, ResultKind } from '../src/parent/formats/format-types.js';
import type { MetricInfo } from '../src/shared/types/declaration-types.js';
import { compareResults } from '../src/parent/compare/compare.js';
import { gate } from '../src/parent/compare/compare-gate.js';
import { histogramStat } from '../src/parent/measure/metric-values.js';
import { cell, exponentialHistogram, result, scenarioInfo } from './fixtures/synthetic-results.js';
import { capacityResult } from './fixtures/synthetic-capacity.js';
import { REPO_ROOT } from './support.js';
import { HOSTILE } from './hostile-strings.js';
import { latencyMetric, rateMetric } from './fixtures/metric-declarations.js';

const FORMATS_DIR = join(REPO_ROOT, 'dist', 'src', 'parent', 'formats');
/** The files of src/parent/formats/ that are not a format. */
const NOT_FORMATS = new Set(['index.js', 'format-types.js']);

test('every format file of src/parent/formats/ has its registry line', async () => {
  const registered = new Set(Object.values(outputFormats));
  const files = readdirSync(FORMATS_DIR).filter((name) => name.endsWith('.js') && !NOT_FORMATS.has(name));
  assert.ok(files.length >= 6, `the format files: ${files.join(', ')}`);
  for (const file of files) {
    const exports = Object.values(await import(pathToFileURL(join(FORMATS_DIR, file)).href)) as unknown[];
    const formats = exports.filter(
      (value): value is OutputFormat => typeof value === 'object' && value !== null && 'render' in value,
    );
    assert.equal(formats.length, 1, `src/parent/formats/${file.replace(/\.js$/, '.ts')} exports one format`);
    assert.ok(
      registered.has(formats[0]!),
      `src/parent/formats/${file.replace(/\.js$/, '.ts')}: its format has no line in src/parent/formats/index.ts`,
    );
  }
  assert.ok(outputFormats[DEFAULT_STDOUT_FORMAT], 'the default stdout format is registered');
  for (const [alias, name] of Object.entries(FORMAT_ALIASES))
    assert.ok(outputFormats[name], `alias ${alias} names a registered format`);
});

test('every registered format has its row in docs/output-formats.md, saying what it renders', () => {
  const docs = readFileSync(join(REPO_ROOT, 'docs', 'output-formats.md'), 'utf8');
  for (const [name, format] of Object.entries(outputFormats)) {
    const row = docs.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    assert.ok(row, `docs/output-formats.md has no row for --format ${name}`);
    for (const kind of ['run', 'capacity', 'comparison'] as const) {
      const says = row.includes(`${kind}: yes`);
      assert.equal(
        says,
        format.render[kind] !== undefined,
        `docs/output-formats.md, --format ${name}: "${kind}: yes" only where it renders ${kind}`,
      );
    }
  }
});

const METRICS: Record<string, MetricInfo> = {
  rttP99Ms: latencyMetric('rtt', 'p99'),
  messagesPerSec: rateMetric(),
};

/** A run of one scenario whose servers are named by the hostile strings, one of them skipped with a hostile reason. */
function hostileRun(meanUs: number): FormatInputs['run'] {
  const cells = HOSTILE.map((name, i) => {
    const rtt = exponentialHistogram(2000, meanUs, i + 1, 50);
    return cell('echo', {
      server: name,
      client: 'ws',
      params: { label: name, fixed: HOSTILE[16]! },
      histograms: { rtt },
      metrics: { rttP99Ms: histogramStat(rtt, 'p99'), messagesPerSec: 1000 + i },
    });
  });
  cells.push({
    scenario: 'echo',
    server: 'skipped',
    client: HOSTILE[10]!,
    params: { label: 'x', fixed: HOSTILE[16]! },
    status: 'skipped',
    reason: HOSTILE[15]!,
    elapsedMs: 0,
  });
  return result(scenarioInfo('echo', { metrics: METRICS, table: Object.keys(METRICS), charts: [] }), cells);
}

function inputs(): FormatInputs {
  const base = hostileRun(200);
  const next = hostileRun(600);
  const comparison = compareResults(base, next, { marginPct: 10 });
  return {
    run: base,
    capacity: capacityResult([{ server: HOSTILE[14]!, capacity: 800, brokeAt: 1600 }]),
    comparison: {
      comparison,
      names: { base: HOSTILE[16]!, next: 'next.json' },
      gate: gate(comparison, 10, 'fail'),
      inconclusive: 'fail',
    },
  };
}

/** C0 controls other than tab, line feed and carriage return: what no format may let through from a name. */
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

test('every format renders each kind it declares from fixtures with hostile names: whole lines, no raw control character, the same text twice', () => {
  const given = inputs();
  for (const [name, format] of Object.entries(outputFormats)) {
    const kinds = Object.keys(format.render) as ResultKind[];
    assert.ok(kinds.length > 0, `--format ${name} renders nothing`);
    for (const kind of kinds) {
      const render = format.render[kind] as (input: FormatInputs[typeof kind]) => string;
      const text = render(given[kind]);
      assert.ok(text.length > 1 && text.endsWith('\n'), `--format ${name} (${kind}) ends with a line break`);
      assert.doesNotMatch(text, RAW_CONTROL, `--format ${name} (${kind}) lets a control character through`);
      assert.equal(render(inputs()[kind]), text, `--format ${name} (${kind}) is a function of its input`);
    }
  }
});

/**
 * One escaper per output format (src/parent/escape/), fed the same hostile strings:
 * each output stays inside its format's syntax. HTML has no character that
 * could open an element or end an attribute; a Vega-Lite spec carrying the
 * text everywhere (titles, data, sort, filter, an expression wsbench writes)
 * compiles, parses and renders; a Markdown table keeps its column count and a
 * code span holds its text to the end; an OpenMetrics sample parses back to its
 * label (and promtool accepts it, where installed); terminal text holds no
 * control character; a CSV row keeps its fields and starts no formula; an XML
 * document parses back to its text and attributes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { compile, type TopLevelSpec } from 'vega-lite';
import * as vega from 'vega';
import { escapeHtml } from '../src/parent/escape/html.js';
import { vegaSafeSpec, vegaString, vegaText } from '../src/parent/escape/vega.js';
import { markdownCode, markdownTableCell, markdownText } from '../src/parent/escape/markdown.js';
import { openMetricsLabelValue } from '../src/parent/escape/openmetrics.js';
import { terminalLines, terminalText } from '../src/parent/escape/terminal.js';
import { visibleControls } from '../src/parent/escape/controls.js';
import { csvNumber, csvRecord, csvText } from '../src/parent/escape/csv.js';
import { xmlAttribute, xmlText } from '../src/parent/escape/xml.js';
import { parseCsv, parseXml } from './format-parsers.js';
import { HOSTILE } from './hostile-strings.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

test('HTML: no raw character can open an element or end an attribute, and the text decodes back', () => {
  const decode = (html: string): string =>
    html.replace(
      /&(amp|lt|gt|quot|#39);/g,
      (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!,
    );
  for (const text of HOSTILE) {
    const html = escapeHtml(text);
    assert.doesNotMatch(html, /[<>"']/, JSON.stringify(text));
    assert.doesNotMatch(html, /&(?!(amp|lt|gt|quot|#39);)/, `every & is an entity it wrote: ${JSON.stringify(text)}`);
    assert.doesNotMatch(html, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/, JSON.stringify(text));
    assert.equal(decode(html), visibleControls(text, '\n\t'), JSON.stringify(text));
  }
});

test('Vega: a spec with the text in every place compiles, parses and renders, and an expression wsbench writes yields the text', async () => {
  for (const text of HOSTILE) {
    const spec = vegaSafeSpec({
      title: { text, subtitle: [text] },
      description: text,
      data: {
        values: [
          { server: text, client: 'ws', variant: text, value: 1 },
          { server: 'ws', client: text, variant: 'other', value: 2 },
        ],
      },
      transform: [
        { filter: { field: 'variant', oneOf: [text, 'other'] } },
        { calculate: vegaString(text), as: 'said' },
      ],
      facet: { row: { field: 'variant', type: 'nominal', title: text, sort: [text, 'other'] } },
      spec: {
        mark: 'rect',
        encoding: {
          x: { field: 'client', type: 'nominal', title: text, sort: ['ws', text] },
          y: { field: 'server', type: 'nominal', title: `server ${text}` },
          color: { field: 'value', type: 'quantitative', title: text },
        },
      },
    } as TopLevelSpec);
    const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
    try {
      await view.runAsync();
      const svg = await view.toSVG();
      assert.doesNotMatch(svg, /<(script|img)\b/, JSON.stringify(text));
      assert.doesNotMatch(svg, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/, `well-formed XML: ${JSON.stringify(text)}`);
      const said = (view.data('data_0') as Array<{ said: string }>)[0]?.said;
      assert.equal(said, vegaText(text), JSON.stringify(text));
    } finally {
      view.finalize();
    }
  }
});

/** A GFM table row's cells, as cmark-gfm splits them: a pipe ends a cell unless a backslash escapes it. */
function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < row.length; i++) {
    if (row[i] === '\\' && i + 1 < row.length) cell += row[i]! + row[++i]!;
    else if (row[i] === '|') {
      cells.push(cell);
      cell = '';
    } else cell += row[i]!;
  }
  cells.push(cell);
  return cells.slice(1, -1).map((c) => c.trim());
}

/** Unescaped: what a CommonMark backslash escape leaves of markdownText's output. */
const unescaped = (text: string): string => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

test('Markdown: a table keeps its columns, inline text starts no syntax, a code span holds its text to the end', () => {
  for (const text of HOSTILE) {
    const inline = markdownText(text);
    assert.doesNotMatch(inline, CONTROL, JSON.stringify(text));
    // Every character that can start inline syntax is escaped (CommonMark: any ASCII punctuation may be).
    assert.doesNotMatch(inline.replace(/\\[!-/:-@[-`{-~]/g, ''), /[\\`*_[\]<>&|~!#$]/, JSON.stringify(text));
    assert.equal(unescaped(inline), visibleControls(text), JSON.stringify(text));

    const row = `| ${[inline, markdownCode(text), 'after'].map(markdownTableCell).join(' | ')} |`;
    assert.equal(row.split('\n').length, 1, JSON.stringify(text));
    assert.deepEqual(tableCells(row).length, 3, `three columns: ${row}`);
    assert.equal(tableCells(row)[2], 'after');

    // The span closes at the first backtick run as long as its opening one: that must be its own last run.
    const span = markdownCode(text);
    const fence = /^`+/.exec(span)![0];
    const close = span.slice(fence.length).search(new RegExp(`(?<!\`)${fence}(?!\`)`));
    assert.equal(fence.length + close, span.length - fence.length, `the span ends where it should: ${span}`);
    assert.equal(span.slice(fence.length + 1, -fence.length - 1), visibleControls(text));
  }
});

/** One sample line parsed by the text format's grammar: name{label="value",...} number. */
function parseSample(line: string): { name: string; labels: Record<string, string>; value: number } {
  const head = /^([a-zA-Z_:][a-zA-Z0-9_:]*)\{/.exec(line);
  assert.ok(head, line);
  const labels: Record<string, string> = {};
  let i = head[0].length;
  for (;;) {
    const name = /^([a-zA-Z_][a-zA-Z0-9_]*)="/.exec(line.slice(i));
    assert.ok(name, `a label at ${i}: ${line}`);
    i += name[0].length;
    let value = '';
    for (;;) {
      const ch = line[i++];
      assert.ok(ch !== undefined && ch !== '\n', `an unterminated value: ${line}`);
      if (ch === '"') break;
      if (ch === '\\') {
        const next = line[i++];
        assert.ok(next === '\\' || next === '"' || next === 'n', `an escape the format has: \\${next}`);
        value += next === 'n' ? '\n' : next;
      } else value += ch;
    }
    labels[name[1]!] = value;
    if (line[i] === ',') i++;
    if (line[i] === '}') break;
  }
  const rest = /^\} (\S+)$/.exec(line.slice(i));
  assert.ok(rest, line);
  return { name: head[1]!, labels, value: Number(rest[1]) };
}

test('OpenMetrics: every sample parses back to its label, and promtool accepts the lot', () => {
  const lines = HOSTILE.map((text, i) => `wsbench_test{server="${openMetricsLabelValue(text)}",n="${i}"} 1`);
  for (const [i, line] of lines.entries()) {
    assert.equal(line.split('\n').length, 1);
    const sample = parseSample(line);
    assert.equal(sample.labels.server, visibleControls(HOSTILE[i]!, '\n'), JSON.stringify(HOSTILE[i]));
    assert.equal(sample.value, 1);
  }
  const promtool = spawnSync('promtool', ['check', 'metrics'], {
    input: ['# HELP wsbench_test Test.', '# TYPE wsbench_test gauge', ...lines, ''].join('\n'),
    encoding: 'utf8',
  });
  if (promtool.error) return; // not installed here: the grammar above is the check
  assert.equal(promtool.status, 0, `${promtool.stdout}${promtool.stderr}`);
});

test('terminal: no control character reaches the terminal, and a line stays one line', () => {
  for (const text of HOSTILE) {
    const line = terminalText(text);
    assert.doesNotMatch(line, CONTROL, JSON.stringify(text));
    assert.equal(line.length, text.length, 'each control character has one visible stand-in');
    const lines = terminalLines(`${text}\nnext`);
    assert.deepEqual(lines.split('\n').at(-1), 'next');
    assert.doesNotMatch(lines.replace(/\n/g, ''), CONTROL);
  }
});

test('CSV: a row keeps its fields, each reads back as shown, and none starts a formula', () => {
  const text = HOSTILE.map((h) => csvRecord([csvText(h), csvNumber(-1.5), csvText('after')])).join('');
  const rows = parseCsv(text);
  assert.equal(rows.length, HOSTILE.length);
  for (const [i, row] of rows.entries()) {
    const shown = visibleControls(HOSTILE[i]!);
    assert.deepEqual(row, [/^[=+\-@]/.test(shown) ? `'${shown}` : shown, '-1.5', 'after'], JSON.stringify(HOSTILE[i]));
    assert.doesNotMatch(row[0]!, /^[=+\-@]/, 'a spreadsheet would read it as a formula');
  }
  assert.equal(csvNumber(null), '');
  assert.equal(csvNumber(Number.NaN), '');
});

test('XML: element text and attributes parse back to what was shown, in a document a strict parser accepts', () => {
  const doc = `<?xml version="1.0" encoding="UTF-8"?>\n<all>${HOSTILE.map((h) => `<item name="${xmlAttribute(h)}">${xmlText(h)}</item>`).join('')}</all>\n`;
  const parsed = parseXml(doc);
  const items = parsed.children;
  assert.equal(items.length, HOSTILE.length);
  for (const [i, item] of items.entries()) {
    assert.equal(item.attributes.name, visibleControls(HOSTILE[i]!), JSON.stringify(HOSTILE[i]));
    // XML folds CR to LF in content; the escaper shows CR as a stand-in already.
    assert.equal(item.text, visibleControls(HOSTILE[i]!, '\n\t'), JSON.stringify(HOSTILE[i]));
  }
});

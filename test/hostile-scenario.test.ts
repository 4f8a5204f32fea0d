/**
 * A user scenario whose description, parameter values, metric keys and
 * headers, histogram and counter names and chart titles are hostile to every
 * output format (test/fixtures/hostile-scenario.ts) runs, draws every chart it
 * asks for, and writes a report with nothing injected; its table and progress
 * reach the terminal with no control character; /metrics parses; `report` of
 * the result works; and `compare --format markdown` of it, under a file name
 * holding backticks and <img>, keeps its code spans and its table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCli } from './live-cli.js';
import { runCli, tempDir, runArgs } from './support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

const SCENARIO = fileURLToPath(new URL('./fixtures/hostile-scenario.js', import.meta.url));
const KINDS = ['heatmap', 'percentiles', 'over-time', 'by-parameter', 'resources'];
/** Anything a terminal would obey rather than show (line breaks of the output itself aside). */
const TERMINAL_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function noControl(where: string, text: string): void {
  const found = TERMINAL_CONTROL.exec(text);
  assert.equal(
    found,
    null,
    `a control character in ${where}: ...${found ? JSON.stringify(text.slice(Math.max(0, found.index - 60), found.index + 20)) : ''}`,
  );
}

/** The report folder: every requested kind drawn (an .svg and a .vl.json each), nothing injected in report.html. */
function checkReport(dir: string): void {
  const charts = readdirSync(join(dir, 'charts'));
  for (const kind of KINDS) {
    assert.ok(
      charts.includes(`hostile-${kind}.svg`) && charts.includes(`hostile-${kind}.vl.json`),
      `${kind} drawn: ${charts.join(', ')}`,
    );
  }
  for (const svg of charts.filter((c) => c.endsWith('.svg'))) {
    const text = readFileSync(join(dir, 'charts', svg), 'utf8');
    assert.match(text, /^<svg[\s\S]*<\/svg>\s*$/, svg);
    assert.doesNotMatch(text, /<(script|img)\b/, svg);
    assert.doesNotMatch(text, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/, `${svg} is well-formed XML`);
  }
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  assert.doesNotMatch(html, /<(script|img)\b/i, 'no element a result put there');
  assert.match(html, /&lt;\/script&gt;&lt;img src=x&gt;/, 'the text is shown');
  assert.doesNotMatch(html, /not drawn/, 'every chart request drawn');
}

test('a scenario with hostile declarations runs, draws, reports, scrapes and compares without breaking out', {
  timeout: 240_000,
}, async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const cli = startCli(
    runArgs(
      SCENARIO,
      'ws',
      'ws',
      '--preset',
      'both',
      '--metrics-listen',
      ':0',
      '--metrics-linger',
      '60s',
      '--out',
      out,
    ),
    { timeoutMs: 180_000 },
  );
  try {
    await cli.waitForStderr(/waiting up to 60 s for a last scrape/, 150_000);
    const scrape = await (await fetch(/metrics: (http:\S+)/.exec(cli.stderr())![1]!)).text();
    assert.match(scrape, /wsbench_cell_state\{scenario="hostile"/);
    noControl('/metrics', scrape.replace(/\n/g, ''));
    for (const line of scrape.split('\n').filter((l) => l !== '' && !l.startsWith('#')))
      assert.match(
        line,
        /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*",?)*\})? \S+$/,
        line,
      );
    const promtool = spawnSync('promtool', ['check', 'metrics'], { input: scrape, encoding: 'utf8' });
    // Exit 1 and "parsing error" are a scrape it cannot read; its style lints (exit 3) are not this test's.
    if (!promtool.error)
      assert.ok(
        promtool.status !== 1 && !/parsing error/.test(promtool.stderr + promtool.stdout),
        `promtool parses the scrape: ${promtool.stderr}`,
      );
  } catch (error) {
    cli.child.kill('SIGKILL');
    throw error;
  }
  const { code } = await cli.finished;
  assert.equal(code, 0, cli.stderr());
  noControl('the table on stdout', cli.stdout());
  noControl('stderr', cli.stderr());
  assert.match(cli.stdout(), /␛\[31mred␛\[0m/, 'the escape sequence is shown, not obeyed');
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  assert.deepEqual(
    result.cells.map((c) => c.status),
    ['ok', 'ok'],
  );
  checkReport(join(dir, 'r.report'));

  const again = await runCli(['report', out, '--out', join(dir, 'again')]);
  assert.equal(again.code, 0, again.stderr);
  noControl("report's output", again.stdout + again.stderr);
  checkReport(join(dir, 'again'));

  // A file name that would close a code span and open an element.
  const named = join(dir, 'base `x` <img src=x>.json');
  copyFileSync(out, named);
  const compared = await runCli(['compare', named, out, '--format', 'markdown']);
  assert.equal(compared.code, 0, compared.stderr);
  const markdown = compared.stdout;
  const base = /^base (`+) (.*?) \1, new/m.exec(markdown);
  assert.ok(base && base[2] === named, `the base path whole in its code span: ${markdown.split('\n')[2]}`);
  // Outside that code span, every < is escaped: no raw HTML reaches the page.
  assert.doesNotMatch(markdown.replace(base[0], ''), /(?<!\\)</, 'no raw HTML outside the code span');
  const rows = markdown.split('\n').filter((l) => l.startsWith('|'));
  const columns = (row: string): number => row.replace(/\\./g, '').split('|').length - 2;
  assert.ok(rows.length >= 4, markdown);
  for (const row of rows) assert.equal(columns(row), columns(rows[0]!), `every row as wide as the header: ${row}`);
  noControl('the Markdown', markdown.replace(/\n/g, ''));
});

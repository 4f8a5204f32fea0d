#!/usr/bin/env node
/**
 * Opens a wsbench report.html in headless Chromium (Debian's `chromium`
 * package, not in CI: it is large) with the network cut off, and checks that
 * every chart the page declares rendered with a real size and that the page
 * raised no error. Also writes a screenshot to look at.
 *
 *   node scripts/check-report.mjs path/to/report.html [screenshot.png]
 *
 * The report itself has no script; the check runs on a temporary copy with
 * one inline probe appended, which writes what it measured into the DOM
 * that --dump-dom prints. Exit 0 = all charts shown, 1 = a problem, 2 = usage.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

const [htmlArg, screenshotArg] = process.argv.slice(2);
if (!htmlArg) {
  process.stderr.write('usage: node scripts/check-report.mjs report.html [screenshot.png]\n');
  process.exit(2);
}
const htmlPath = resolve(htmlArg);
const screenshot = resolve(screenshotArg ?? join(dirname(htmlPath), 'report-screenshot.png'));
const browser = process.env.CHROMIUM ?? 'chromium';

const probe = `<script>
window.__errors = [];
window.addEventListener('error', (e) => window.__errors.push(String(e.message)));
window.addEventListener('load', () => {
  const figures = [...document.querySelectorAll('figure')].map((f) => {
    const svg = f.querySelector('svg');
    const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
    return { id: f.id, width: Math.round(box.width), height: Math.round(box.height), marks: svg ? svg.querySelectorAll('[role="graphics-symbol"]').length : 0 };
  });
  const out = document.createElement('pre');
  out.id = 'wsbench-check';
  out.textContent = JSON.stringify({ figures, errors: window.__errors, resources: performance.getEntriesByType('resource').map((r) => r.name) });
  document.body.appendChild(out);
});
</script>`;

const work = mkdtempSync(join(tmpdir(), 'wsbench-check-'));
const flags = (profile) => [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Any name lookup fails: a page that needed the network would show it.
  '--host-resolver-rules=MAP * ~NOTFOUND',
  `--user-data-dir=${join(work, profile)}`,
  '--window-size=1200,3000',
];
try {
  const source = readFileSync(htmlPath, 'utf8');
  const declared = (source.match(/<figure\b/g) ?? []).length;
  const probed = join(work, basename(htmlPath));
  writeFileSync(probed, source.replace('</body>', `${probe}\n</body>`));
  const dom = execFileSync(browser, [...flags('a'), '--virtual-time-budget=5000', '--dump-dom', `file://${probed}`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
    timeout: 60_000,
  });
  const match = /<pre id="wsbench-check">([^<]*)<\/pre>/.exec(dom);
  if (!match) throw new Error('the page did not finish loading (no probe output in the DOM)');
  const report = JSON.parse(
    match[1]
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
  execFileSync(browser, [...flags('b'), `--screenshot=${screenshot}`, `file://${htmlPath}`], {
    stdio: 'ignore',
    timeout: 60_000,
  });

  const problems = [];
  if (report.figures.length !== declared)
    problems.push(`${declared} charts in the file, ${report.figures.length} in the rendered page`);
  for (const f of report.figures) {
    if (f.width < 100 || f.height < 50 || f.marks === 0)
      problems.push(`chart ${f.id} rendered ${f.width}x${f.height} px with ${f.marks} marks`);
  }
  for (const e of report.errors) problems.push(`page error: ${e}`);
  for (const r of report.resources) problems.push(`page loaded ${r}`);
  for (const f of report.figures) process.stdout.write(`ok ${f.id}: ${f.width}x${f.height} px, ${f.marks} marks\n`);
  process.stdout.write(`screenshot: ${screenshot}\n`);
  if (problems.length > 0) {
    process.stderr.write(problems.map((p) => `check-report: ${p}\n`).join(''));
    process.exitCode = 1;
  } else {
    process.stdout.write(`check-report: all ${declared} charts rendered, no errors, nothing loaded\n`);
  }
} catch (error) {
  process.stderr.write(`check-report: ${error.message.split('\n')[0]}\n`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

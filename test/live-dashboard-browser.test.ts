/**
 * The dashboard in a real headless Chromium: the page shows the running cell,
 * a number on it changes while the run goes on, the charts are drawn, every
 * request stays on the dashboard's own address, and the page shows the run's
 * end. In a fanout run, whose headline rate the scenario computes itself, the
 * rates panel shows rates, and the first cell's curves stay on the charts
 * while the second runs. Skips where no Chromium is installed (.ci/run installs it).
 *
 * The screenshot goes to a temporary folder, or where WSBENCH_DASHBOARD_SCREENSHOT
 * says (docs/dashboard.png is made that way).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startCli, type LiveCli } from './live-cli.js';
import { REPO_ROOT, tempDir, runArgs } from './support.js';

const CHROMIUM = process.env.WSBENCH_CHROMIUM ?? '/usr/bin/chromium';
/** Chromium's own traffic (updates, sync, QUIC probes) is refused in a closed network: it is all turned off. */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

let cli: LiveCli | null = null;
let browser: BrowserContext | null = null;
const profile = mkdtempSync(join(tmpdir(), 'wsbench-chromium-'));

after(async () => {
  await Promise.allSettled([browser?.close()]);
  if (cli && cli.child.exitCode === null) cli.child.kill('SIGKILL');
  rmSync(profile, { recursive: true, force: true });
});

const skip = existsSync(CHROMIUM)
  ? false
  : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set WSBENCH_CHROMIUM)`;

/**
 * Starts `wsbench args --dashboard`, its result and the test's screenshots in a fresh folder,
 * and opens a page, not yet loaded, in the one Chromium the tests share.
 */
async function dashboardPage(args: string[]): Promise<{ dir: string; run: LiveCli; url: string; page: Page }> {
  const dir = tempDir();
  const run = startCli([...args, '--dashboard', '--out', join(dir, 'r.json')], { timeoutMs: 150_000 });
  cli = run;
  await run.waitForStderr(/dashboard: http:\/\/127\.0\.0\.1:\d+\//);
  const url = /dashboard: (http:\S+)/.exec(run.stderr())![1]!;
  browser ??= await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1400, height: 1000 },
  });
  return { dir, run, url, page: await browser.newPage() };
}

test('the dashboard shows the running cell and its numbers move while the run goes on', {
  skip,
  timeout: 180_000,
}, async () => {
  const { dir, run, url, page } = await dashboardPage(runArgs('echo', 'ws,uws', 'ws', '--duration', '6s'));
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);

  const running = page.locator('#cells tbody tr[data-status="running"]');
  await running.waitFor({ timeout: 90_000 });
  const runningLabel = (await running.locator('td').nth(1).textContent())!;
  assert.match(runningLabel, /^(ws|uws) x ws$/);
  assert.equal(await page.locator('#current-label').textContent(), runningLabel);

  const received = page.locator('[data-counter="received"]');
  await received.waitFor({ timeout: 30_000 });
  const first = (await received.textContent())!;
  // Page-side expressions are strings: the tests compile without the DOM's types.
  await page.waitForFunction(
    `document.querySelector('[data-counter="received"]')?.textContent !== ${JSON.stringify(first)}`,
    undefined,
    { timeout: 30_000 },
  );
  const second = (await received.textContent())!;
  assert.ok(toNumber(second) > toNumber(first), `received went from ${first} to ${second}`);

  // Vega drew the report's charts from the pushed specs, with what the page was served alone.
  await page.locator('#charts figure svg').first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(
    `Number(document.querySelector('#current-window')?.dataset.seconds || 0) >= 3`,
    undefined,
    { timeout: 30_000 },
  );
  const shot = process.env.WSBENCH_DASHBOARD_SCREENSHOT
    ? resolve(REPO_ROOT, process.env.WSBENCH_DASHBOARD_SCREENSHOT)
    : join(dir, 'dashboard.png');
  await page.screenshot({ path: shot, fullPage: true });
  assert.deepEqual(readFileSync(shot).subarray(0, 8), PNG_SIGNATURE);

  const { code } = await run.finished;
  assert.equal(code, 0, run.stderr());
  await page.waitForFunction(`document.querySelector('#run-status')?.textContent === 'ended'`, undefined, {
    timeout: 15_000,
  });
  assert.equal(await page.locator('#cells tbody tr[data-status="ok"]').count(), 2);

  const origin = new URL(url).origin;
  const elsewhere = requested.filter((r) => !r.startsWith(`${origin}/`));
  assert.deepEqual(elsewhere, [], 'the page loads nothing from anywhere but wsbench');
  assert.deepEqual(errors, []);
});

test('fanout: the rates panel shows rates, and the cell that ended stays on the charts beside the next', {
  skip,
  timeout: 180_000,
}, async () => {
  const { dir, run, url, page } = await dashboardPage(
    runArgs('fanout', 'ws,uws', 'ws', '--connections', '2', '--interval', '50ms', '--duration', '4s'),
  );
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);

  // A rate above zero while the first cell streams (the panel was empty for fanout).
  await page.waitForFunction(
    `[...document.querySelectorAll('#rates tbody tr')].some((tr) => tr.cells[0]?.textContent === 'recv/s' && Number(tr.cells[1]?.textContent.replace(/,/g, '')) > 0)`,
    undefined,
    { timeout: 90_000 },
  );
  // The second cell runs and has measured, and the first one's panel is still drawn beside its own.
  const panels = `[...document.querySelectorAll('#charts svg text')].map((t) => t.textContent)`;
  await page.waitForFunction(
    `document.querySelector('#current-label')?.textContent === 'uws x ws' && document.querySelector('#cells tbody tr:nth-child(1)')?.dataset.status === 'ok' && ${panels}.includes('uws x ws')`,
    undefined,
    { timeout: 90_000 },
  );
  assert.ok(((await page.evaluate(panels)) as string[]).includes('ws x ws'), 'the ended cell keeps its panel');
  await page.screenshot({ path: join(dir, 'fanout-dashboard.png'), fullPage: true });

  const { code } = await run.finished;
  assert.equal(code, 0, run.stderr());
  assert.deepEqual(errors, []);
});

function toNumber(text: string): number {
  return Number(text.replace(/,/g, ''));
}

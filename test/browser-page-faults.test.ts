/**
 * A page that crashes or hangs ends its cell with the reason, in bounded time,
 * and takes its browser along: the run goes on, and no Chromium process of the
 * cell is left.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processGroupMembers, startCli } from './live-cli.js';
import { runCli, tempDir } from './support.js';
import { browserProcessesOf, clientPids, NO_CHROMIUM, untilNone } from './browser-support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

const HANGING = fileURLToPath(new URL('./fixtures/hanging-page.js', import.meta.url));

test('a page that crashes mid-window fails its cell with the reason', {
  skip: NO_CHROMIUM,
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const cli = startCli(['run', 'echo', '--servers', 'ws', '--clients', 'browser', '--duration', '30s', '--out', out], {
    ownProcessGroup: true,
    timeoutMs: 100_000,
  });
  let clients: number[] = [];
  try {
    await cli.waitForStderr(/echo ws x browser .*started/, 60_000);
    const renderers = (): number[] =>
      clients
        .flatMap(browserProcessesOf)
        .filter((p) => / --type=renderer /.test(p.command) && !p.command.includes('--top-chrome-webui'))
        .map((p) => p.pid);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && renderers().length === 0) {
      clients = clientPids(processGroupMembers(cli.pid));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The page's renderer, killed as the kernel's OOM killer would.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (const pid of renderers()) process.kill(pid, 'SIGKILL');
    const { code } = await cli.finished;
    assert.equal(code, 1, cli.stderr());
  } finally {
    if (cli.child.exitCode === null && cli.child.signalCode === null) process.kill(-cli.pid, 'SIGKILL');
  }
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.equal(cell?.status, 'failed');
  assert.match('reason' in cell! ? cell.reason : '', /^client: a browser page crashed \(/);
  assert.deepEqual(await untilNone(() => clients.flatMap(browserProcessesOf), 5000), []);
});

test('a page that hangs fails its cell within seconds of the window, with the reason', {
  skip: NO_CHROMIUM,
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(
    ['run', HANGING, '--servers', 'ws', '--clients', 'browser', '--duration', '1s', '--out', out],
    { timeoutMs: 100_000 },
  );
  assert.equal(outcome.code, 1, outcome.stderr);
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.equal(cell?.status, 'failed');
  // The page's own deadline, shorter than the engine's wait for a report (which would only say "no report").
  assert.match(
    'reason' in cell! ? cell.reason : '',
    /^client: the browser page did not finish within 10 s after the window closed \(hung\?\)/,
  );
});

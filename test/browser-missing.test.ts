/**
 * A browser that is not there or does not start: no Chromium at all makes the
 * browser's cells n/a with the reason (the stack is unavailable, as a missing
 * Bun is); a binary that answers --version but dies when started fails the
 * cell with what it said, and the run goes on. Neither starts a real browser.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

test('no Chromium: the browser cells are n/a with the reason, the others run', { timeout: 60_000 }, async () => {
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(
    ['run', 'echo', '--servers', 'ws', '--clients', 'browser,ws', '--duration', '300ms', '--out', out],
    { env: { WSBENCH_CHROMIUM: '/nonexistent/chromium' } },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const cells = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  const browser = cells.find((c) => c.client === 'browser')!;
  assert.equal(browser.status, 'skipped');
  assert.equal(
    'reason' in browser && browser.reason,
    'client browser unavailable: WSBENCH_CHROMIUM=/nonexistent/chromium is not an executable file',
  );
  assert.equal(cells.find((c) => c.client === 'ws')!.status, 'ok');
});

test('a browser that dies at start: the cell fails with what it said', { timeout: 60_000 }, async () => {
  const dir = tempDir();
  const fake = join(dir, 'chromium');
  writeFileSync(
    fake,
    '#!/bin/sh\nif [ "$1" = --version ]; then echo "Chromium 1.2.3.4"; exit 0; fi\necho "cannot open display" >&2\nexit 3\n',
  );
  chmodSync(fake, 0o755);
  const out = join(dir, 'r.json');
  const outcome = await runCli(
    ['run', 'echo', '--servers', 'ws', '--clients', 'browser', '--duration', '300ms', '--out', out],
    { env: { WSBENCH_CHROMIUM: fake } },
  );
  assert.equal(outcome.code, 1, outcome.stderr);
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.equal(cell?.status, 'failed');
  assert.match(
    'reason' in cell! ? cell.reason : '',
    new RegExp(`^client: ${fake} did not start: the browser exited with code 3: cannot open display`),
  );
});

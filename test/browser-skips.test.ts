/**
 * Scenarios a page cannot run are n/a with the reason, never an error, and
 * start no browser: firehose reads frames off the socket, slow-consumer stops
 * reading its socket, push-vs-poll calls the server's HTTP routes (another
 * origin, and the routes send no CORS headers). The pairs are declared as
 * capabilities, as socket.io's are by protocol.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir, runArgs } from './support.js';
import { NO_CHROMIUM } from './browser-support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

const EXPECTED: Record<string, string> = {
  firehose: "firehose needs a client that hands over the socket's raw bytes (frames are read off the wire)",
  'slow-consumer':
    "slow-consumer needs a client that can stop reading its socket (so the bytes stay in the kernel's buffers)",
  'push-vs-poll': "push-vs-poll needs a client that can call the server's HTTP routes",
};

// Without a Chromium the stack is unavailable, and that is the reason given first.
for (const [scenario, reason] of Object.entries(EXPECTED)) {
  test(`${scenario} x browser is n/a: ${reason}`, { skip: NO_CHROMIUM, timeout: 60_000 }, async () => {
    const out = join(tempDir(), 'r.json');
    const outcome = await runCli(runArgs(scenario, 'ws', 'browser,browser-socketio', '--preset', 'ci', '--out', out));
    const cells = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
    assert.ok(cells.length > 0, outcome.stderr);
    for (const cell of cells.filter((c) => c.client === 'browser')) {
      assert.equal(cell.status, 'skipped');
      assert.equal('reason' in cell && cell.reason, reason);
    }
  });
}

/**
 * A capacity search stopped before a server's turn lists that server as
 * `not reached`, in the terminal table, the result JSON (which still validates)
 * and the report's capacity table, instead of leaving it out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResultFile } from '../src/parent/results/result-file.js';
import type { CapacityResult } from '../src/parent/index.js';
import { tempDir } from './support.js';
import { startCli } from './live-cli.js';

test("Ctrl+C during the first server's search: the second server is listed as not reached, with the reason", {
  timeout: 180_000,
}, async () => {
  const dir = tempDir();
  const out = join(dir, 'cap.json');
  const cli = startCli(
    [
      'capacity',
      'fanout',
      '--slo',
      'p99<500ms',
      '--servers',
      'uws,ws',
      '--start',
      '5',
      '--max',
      '40',
      '--interval',
      '50ms',
      '--duration',
      '2s',
      '--out',
      out,
    ],
    { cwd: dir },
  );
  await cli.waitForStderr(/^uws x ws:$/m);
  cli.child.kill('SIGINT');
  const { code } = await cli.finished;
  assert.equal(code, 130, cli.stderr());

  assert.match(
    cli.stdout(),
    /\nws\s+ws\s+-\s+-\s+0\s+-\s+fresh\s+not reached: the search was interrupted before this server's turn\n/,
    cli.stdout(),
  );
  const result = readResultFile(out) as CapacityResult;
  assert.equal(result.interrupted, true);
  assert.deepEqual(
    result.capacity.servers.map((s) => [s.server, s.status]),
    [
      ['uws', 'measured'],
      ['ws', 'not-reached'],
    ],
  );
  assert.equal(result.capacity.servers[1]!.reason, "the search was interrupted before this server's turn");
  const html = readFileSync(join(dir, 'cap.report', 'report.html'), 'utf8');
  assert.match(html, /not reached: the search was interrupted before this server(&#39;|&#x27;|')s turn/);
});

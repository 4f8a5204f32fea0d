import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMeasured, run, type BenchResult } from '../src/parent/index.js';
import { runCli, tempDir } from './support.js';
import { eventually, fixtureCommand, newTag, rssOf, taggedProcesses } from './foreign-processes.js';

const OWN_SERVER_ONLY = fileURLToPath(new URL('./fixtures/own-server-only.js', import.meta.url));

test('--server-cmd: a tiny Node echo server sits in the matrix beside a built-in stack, with its server CPU and RSS', async () => {
  const out = join(tempDir(), 'r.json');
  const tag = newTag();
  const outcome = await runCli([
    'run',
    'echo',
    '--servers',
    'uws',
    '--server-cmd',
    `tiny=${fixtureCommand('echo', tag)}`,
    '--clients',
    'ws',
    '--duration',
    '700ms',
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  const rows = outcome.stdout.split('\n').filter((line) => /^(uws|tiny)\s/.test(line));
  assert.equal(rows.length, 2, outcome.stdout);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  assert.deepEqual(
    result.cells.map((c) => c.server),
    ['uws', 'tiny'],
  );
  for (const cell of result.cells) {
    assert.ok(
      cell.status === 'ok' && isMeasured(cell),
      `${cell.server}: ${cell.status} ${'reason' in cell ? cell.reason : ''}`,
    );
    assert.ok((cell.metrics.received ?? 0) > 0);
    assert.ok(cell.resources.server && cell.resources.server.samples > 0, `${cell.server} has server resources`);
    assert.ok(cell.resources.server.rssBytes.max > 10 * 1024 * 1024);
  }
  assert.deepEqual(result.environment.foreignServers, [
    {
      name: 'tiny',
      kind: 'command',
      protocol: 'websocket',
      url: 'ws://{host}:{port}/',
      command: fixtureCommand('echo', tag),
    },
  ]);
  assert.deepEqual(taggedProcesses(tag), [], 'the server is stopped with its cell');
});

test("--server-cmd: the server's resources are its whole process tree's, as /proc shows them", async () => {
  const tag = newTag();
  let peakTreeRss = 0;
  let peakLeaderRss = 0;
  const watcher = setInterval(() => {
    const pids = taggedProcesses(tag);
    if (pids.length < 2) return;
    const rss = pids.map(rssOf);
    peakTreeRss = Math.max(
      peakTreeRss,
      rss.reduce((a, b) => a + b, 0),
    );
    peakLeaderRss = Math.max(peakLeaderRss, Math.max(...rss));
  }, 100);
  const result = await run({
    scenario: 'echo',
    serverCommands: [{ name: 'forking', command: fixtureCommand('fork', tag) }],
    clients: ['ws'],
    params: { duration: '1500ms' },
  });
  clearInterval(watcher);
  const [cell] = result.cells;
  assert.ok(
    cell?.status === 'ok' && isMeasured(cell),
    `${cell?.status}: ${cell && 'reason' in cell ? cell.reason : ''}`,
  );
  const server = cell.resources.server!;
  assert.ok(peakTreeRss > 0, 'the test saw both processes');
  // Both processes count: the 20 MB worker is not left out, and nothing else is added.
  assert.ok(
    server.rssBytes.max > peakLeaderRss + 15 * 1024 * 1024,
    `${server.rssBytes.max} counts the worker beside ${peakLeaderRss}`,
  );
  const ratio = server.rssBytes.max / peakTreeRss;
  assert.ok(ratio > 0.85 && ratio < 1.15, `wsbench ${server.rssBytes.max} vs /proc ${peakTreeRss}`);
  assert.ok(server.cpuPercent.mean > 0, 'the echoing server used CPU');
  assert.equal(server.eventLoopUtilization, null, 'a foreign server reports no event-loop utilisation');
  assert.ok(await eventually(() => taggedProcesses(tag).length === 0, 3000), 'the worker dies with its group');
});

test('--server-cmd with --port 0: the port the server prints is read', async () => {
  const tag = newTag();
  const result = await run({
    scenario: 'echo',
    serverCommands: [{ name: 'printed', command: fixtureCommand('echo', tag, '0') }],
    clients: ['ws'],
    params: { duration: '300ms' },
  });
  const [cell] = result.cells;
  assert.equal(cell?.status, 'ok', cell && 'reason' in cell ? cell.reason : '');
});

test("a scenario that needs wsbench's own server skips foreign cells with its reason", async () => {
  const result = await run({
    scenario: OWN_SERVER_ONLY,
    servers: ['ws'],
    serverCommands: [{ name: 'tiny', command: fixtureCommand('echo', newTag()) }],
    clients: ['ws'],
    params: { duration: '200ms' },
  });
  const byServer = Object.fromEntries(result.cells.map((c) => [c.server, c]));
  assert.equal(byServer.ws?.status, 'ok');
  assert.equal(byServer.tiny?.status, 'skipped');
  assert.equal(
    byServer.tiny.reason,
    "own-only runs only against wsbench's own servers: its server half counts IPC windows",
  );
});

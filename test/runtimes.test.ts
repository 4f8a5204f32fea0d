/**
 * Bun and Deno as server and client stacks, run by their own runtimes from the pinned packages: every pair
 * with them, their settings recorded, their signals answered, and their children stopped.
 *
 * Slow (about a minute): 30-odd real cells in Bun and Deno processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMeasured, run, type BenchResult, type CellResult } from '../src/parent/index.js';
import { alive, childrenOf, commandOf, runCli, tempDir, untilJournalSays } from './support.js';

const MISBEHAVING = fileURLToPath(new URL('./fixtures/misbehaving-server.js', import.meta.url));
const DEFLATE_WIRE = fileURLToPath(new URL('./fixtures/deflate-wire.js', import.meta.url));
const pair = (c: CellResult): string => `${c.server}/${c.client}`;

/** A server or client child under Bun or Deno (not the `--version` probes wsbench runs first). */
const RUNTIME_CHILD = /\/(bun|deno) .*(server|client)-process\.js/;
const runtimeChildren = (seen: Map<number, string>): string[] =>
  [...seen.values()]
    .filter((command) => RUNTIME_CHILD.test(command))
    .map((command) => RUNTIME_CHILD.exec(command)![1]!)
    .sort();

/** Collects the children of the CLI (pid and command line, read again until it shows the exec'd runtime). */
function watchChildren(): {
  onSpawn: (pid: number) => void;
  seen: Map<number, string>;
  stop: () => void;
  pid: () => number;
} {
  const seen = new Map<number, string>();
  let timer: NodeJS.Timeout | null = null;
  let cli = 0;
  return {
    seen,
    pid: () => cli,
    onSpawn(pid) {
      cli = pid;
      // Unref'd: a failed assertion before stop() must not keep the test file alive forever.
      timer = setInterval(
        () =>
          childrenOf(pid).forEach((c) => {
            RUNTIME_CHILD.test(seen.get(c) ?? '') || seen.set(c, commandOf(c));
          }),
        50,
      ).unref();
    },
    stop: () => timer && clearInterval(timer),
  };
}

test('echo completes on every compatible pair with a bun or deno server, in real Bun and Deno processes', async () => {
  const result = await run({ scenario: 'echo', servers: ['bun', 'deno'], params: { duration: '300ms', inflight: 2 } });
  const ok = result.cells.filter((c) => c.status === 'ok').map(pair);
  assert.deepEqual(
    ok,
    ['bun/ws', 'bun/undici', 'bun/bun', 'bun/deno', 'deno/ws', 'deno/undici', 'deno/bun', 'deno/deno'],
    JSON.stringify(result.cells.filter((c) => c.status !== 'ok').map((c) => [pair(c), c.reason])),
  );
  for (const cell of result.cells.filter(isMeasured)) {
    assert.ok((cell.metrics.received ?? 0) > 0, `${pair(cell)} measured nothing`);
    assert.equal(cell.metrics.errors, 0, pair(cell));
    assert.ok(
      (cell.resources.server?.rssBytes.max ?? 0) > 0,
      `${pair(cell)}: the server's RSS is read from /proc whatever its runtime`,
    );
    assert.equal(cell.measurements.counters.connectionsOpened, 1);
    assert.equal(cell.measurements.counters.deflateNegotiated, 0, 'compression stays off unless asked');
  }
  const skipped = result.cells.filter((c) => c.status === 'skipped').map(pair);
  assert.deepEqual(skipped, ['bun/socketio', 'deno/socketio']);
  const stacks = result.environment.stacks.filter((s) => s.name === 'bun' || s.name === 'deno');
  assert.deepEqual(
    stacks.map((s) => `${s.role} ${s.name} ${s.runtime}`),
    ['server bun bun', 'server deno deno', 'client bun bun', 'client deno deno'],
  );
  const runtimes = result.environment.runtimes ?? [];
  assert.deepEqual(
    runtimes.map((r) => r.name),
    ['node', 'bun', 'deno'],
  );
  for (const r of runtimes)
    assert.ok(r.available && r.version && r.path && existsSync(r.path), `${r.name}: ${r.reason}`);
});

test('bun and deno clients against the Node servers, binary, ending on a message count', async () => {
  const result = await run({
    scenario: 'echo',
    servers: ['ws', 'uws'],
    clients: ['bun', 'deno'],
    params: { binary: true, payload: '1kb', messages: 200, connections: 3 },
  });
  assert.deepEqual(
    result.cells.map((c) => `${pair(c)} ${c.status}`),
    ['ws/bun ok', 'ws/deno ok', 'uws/bun ok', 'uws/deno ok'],
  );
  for (const cell of result.cells.filter(isMeasured)) {
    assert.equal(cell.metrics.received, 600, `${pair(cell)}: 3 connections x 200 messages`);
    assert.equal(cell.metrics.errors, 0);
  }
});

test('push-vs-poll runs its HTTP routes and REST poller under Bun and Deno; firehose skips what they lack', async () => {
  const push = await run({
    scenario: 'push-vs-poll',
    servers: ['bun', 'deno'],
    clients: ['bun', 'deno'],
    preset: 'ci',
    params: { test: 'continuous', iterations: 3 },
  });
  for (const cell of push.cells) {
    assert.equal(cell.status, 'ok', `${pair(cell)}: ${cell.status === 'ok' ? '' : cell.reason}`);
    assert.ok(
      isMeasured(cell) && (cell.measurements.counters.restUpdates ?? 0) > 0,
      `${pair(cell)}: the poller saw updates`,
    );
  }
  const firehose = await run({
    scenario: 'firehose',
    servers: ['bun', 'ws'],
    clients: ['deno', 'ws'],
    preset: 'ci',
    params: { duration: '300ms' },
  });
  const reasons = Object.fromEntries(firehose.cells.map((c) => [pair(c), c.status === 'ok' ? 'ok' : c.reason]));
  assert.deepEqual(reasons, {
    'bun/deno': 'firehose needs a server that sends one message as several WebSocket frames',
    'bun/ws': 'firehose needs a server that sends one message as several WebSocket frames',
    'ws/deno': "firehose needs a client that hands over the socket's raw bytes (frames are read off the wire)",
    'ws/ws': 'ok',
  });
});

test('the deflate axis negotiates permessage-deflate where both ends can, records it, and shrinks the wire bytes', async () => {
  const result = await run({
    scenario: DEFLATE_WIRE,
    servers: ['ws', 'uws', 'bun', 'deno'],
    clients: ['ws'],
    params: { deflate: ['off', 'on'] },
  });
  const byKey = new Map(result.cells.map((c) => [`${c.params.deflate} ${pair(c)}`, c]));
  for (const server of ['ws', 'uws', 'bun']) {
    const off = byKey.get(`off ${server}/ws`);
    const on = byKey.get(`on ${server}/ws`);
    assert.ok(off && isMeasured(off) && on && isMeasured(on), `${server}: ${off?.status} ${on?.status}`);
    assert.equal(off.measurements.counters.deflateNegotiated, 0, `${server}: off is off`);
    assert.equal(on.measurements.counters.deflateNegotiated, 1, `${server}: on was negotiated`);
    assert.ok(
      on.notes.some((n) => n.startsWith('handshake negotiated extensions: permessage-deflate')),
      on.notes.join('; '),
    );
    const [offBytes, onBytes] = [off.metrics.wireBytesIn!, on.metrics.wireBytesIn!];
    assert.ok(offBytes >= 50 * 4096, `${server}: uncompressed, 50 x 4 KiB arrive (${offBytes})`);
    assert.ok(onBytes * 10 < offBytes, `${server}: 'x' x 4096 compresses (${onBytes} vs ${offBytes} bytes)`);
  }
  assert.equal(byKey.get('off deno/ws')?.status, 'ok');
  const denoOn = byKey.get('on deno/ws');
  assert.equal(denoOn?.status, 'skipped');
  assert.equal(denoOn.reason, 'deflate=on: the deno server cannot negotiate permessage-deflate');

  const bun = await run({
    scenario: 'echo',
    servers: ['bun', 'ws'],
    clients: ['bun', 'deno'],
    params: { deflate: 'on', messages: 20 },
  });
  const outcome = Object.fromEntries(
    bun.cells.map((c) => [pair(c), isMeasured(c) ? c.measurements.counters.deflateNegotiated : c.reason]),
  );
  assert.deepEqual(outcome, {
    'bun/bun': 1,
    'bun/deno': 'deflate=on: the deno client cannot negotiate permessage-deflate',
    'ws/bun': 1,
    'ws/deno': 'deflate=on: the deno client cannot negotiate permessage-deflate',
  });
});

test('a missing runtime skips its cells with the reason, and list says why', async () => {
  const env = { WSBENCH_BUN: '/nonexistent/bun' };
  const out = join(tempDir(), 'r.json');
  const outcome = await runCli(
    ['run', 'echo', '--servers', 'ws,bun', '--clients', 'ws,bun', '--duration', '200ms', '--json', '--out', out],
    { env },
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = JSON.parse(outcome.stdout) as BenchResult;
  const reasons = Object.fromEntries(result.cells.map((c) => [pair(c), c.status === 'ok' ? 'ok' : c.reason]));
  const missing = 'unavailable: bun not found: /nonexistent/bun does not exist';
  assert.deepEqual(reasons, {
    'ws/ws': 'ok',
    'ws/bun': `client bun ${missing}`,
    'bun/ws': `server bun ${missing}`,
    'bun/bun': `server bun ${missing}`,
  });
  const bun = result.environment.runtimes?.find((r) => r.name === 'bun');
  assert.deepEqual(bun, {
    name: 'bun',
    available: false,
    version: null,
    path: '/nonexistent/bun',
    source: 'WSBENCH_BUN=/nonexistent/bun',
    reason: '/nonexistent/bun does not exist',
  });

  const list = await runCli(['list'], { env });
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^ {2}server bun .*UNAVAILABLE: bun not found: \/nonexistent\/bun does not exist$/m);
  assert.match(list.stdout, /^ {2}deno +2\.\d+\.\d+ +@deno\/linux-x64-glibc \(npm\) +\S+\/deno$/m);
});

test('Bun and Deno children leave with wsbench at a normal end and on SIGINT to the process group', async () => {
  const normal = watchChildren();
  const done = await runCli(
    ['run', 'echo', '--servers', 'bun', '--clients', 'deno', '--duration', '300ms', '--out', join(tempDir(), 'r.json')],
    { onSpawn: normal.onSpawn },
  );
  normal.stop();
  assert.equal(done.code, 0, done.stderr);
  assert.deepEqual(
    runtimeChildren(normal.seen),
    ['bun', 'deno'],
    `a bun server and a deno client ran: ${[...normal.seen.values()].join(', ')}`,
  );
  assert.deepEqual([...normal.seen.keys()].filter(alive), []);

  const out = join(tempDir(), 'r.json');
  const interrupted = watchChildren();
  const finished = runCli(
    ['run', 'echo', '--servers', 'deno', '--clients', 'bun', '--duration', '120s', '--out', out],
    {
      ownProcessGroup: true,
      onSpawn: interrupted.onSpawn,
      timeoutMs: 240_000,
    },
  );
  try {
    // Deadlines, not timings: a loaded machine may take tens of seconds to start both runtimes.
    assert.ok(await untilJournalSays(out, 'window-open'), 'the window opened');
    await new Promise((r) => setTimeout(r, 500));
    process.kill(-interrupted.pid(), 'SIGINT');
  } finally {
    interrupted.stop();
  }
  const outcome = await finished;
  assert.equal(outcome.code, 130, outcome.stderr);
  assert.deepEqual(runtimeChildren(interrupted.seen), ['bun', 'deno'], 'a deno server and a bun client ran');
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.ok(
    cell?.status === 'failed' && isMeasured(cell) && cell.reason === 'interrupted',
    'the cut cell keeps what it measured',
  );
  assert.ok((cell.metrics.received ?? 0) > 0);
  assert.deepEqual([...interrupted.seen.keys()].filter(alive), []);
});

test('Bun and Deno children die when wsbench is SIGKILLed, a spinning Bun server included', async () => {
  for (const [server, client] of [
    ['bun', 'deno'],
    ['deno', 'bun'],
  ] as const) {
    const watch = watchChildren();
    const out = join(tempDir(), 'r.json');
    const finished = runCli(
      [
        'run',
        MISBEHAVING,
        '--fault',
        'spin',
        '--servers',
        server,
        '--clients',
        client,
        '--duration',
        '120s',
        '--out',
        out,
      ],
      { onSpawn: watch.onSpawn, timeoutMs: 240_000 },
    );
    try {
      assert.ok(await untilJournalSays(out, 'window-open'), `${server}/${client}: the window opened`);
      assert.deepEqual(
        runtimeChildren(watch.seen),
        [client, server].sort(),
        `${server} server and ${client} client run`,
      );
    } finally {
      watch.stop();
      process.kill(watch.pid(), 'SIGKILL');
    }
    await finished;
    const until = Date.now() + 5000;
    while (Date.now() < until && [...watch.seen.keys()].some(alive)) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual([...watch.seen.keys()].filter(alive), [], `no ${server}/${client} child outlives wsbench`);
  }
});

/**
 * The dashboard, /metrics and the shard barrier answer only requests addressed
 * to them: a page that rebinds its own name to 127.0.0.1 (DNS rebinding) still
 * sends its name in Host, and gets 421 with nothing of the run, while the
 * address bound, localhost on loopback, and (for the barrier) the host of the
 * --barrier URL the shards were given are answered.
 */
import { test } from 'node:test';
import { hostname } from 'node:os';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { startCli } from './live-cli.js';
import { tempDir, runArgs } from './support.js';
import { BarrierServer } from '../src/parent/shard/barrier-server.js';
import { BarrierClient } from '../src/parent/shard/barrier-client.js';
import { HostCheck } from '../src/parent/host-check.js';

interface Answer {
  status: number;
  body: string;
}

/** One GET with the Host header set by hand (fetch does not let a caller set it); a stream is read for a moment only. */
function get(url: string, host: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host }, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > 0 && response.headers['content-type']?.startsWith('text/event-stream')) req.destroy();
      });
      const done = (): void => resolve({ status: response.statusCode ?? 0, body });
      response.on('end', done);
      response.on('close', done);
    });
    req.on('error', reject);
    req.end();
  });
}

test('the dashboard and /metrics answer only their own address and localhost', { timeout: 180_000 }, async () => {
  const out = join(tempDir(), 'r.json');
  const cli = startCli(
    runArgs(
      'echo',
      'ws',
      'ws',
      '--duration',
      '60s',
      '--dashboard',
      ':0',
      '--metrics-listen',
      ':0',
      '--metrics-linger',
      '0s',
      '--out',
      out,
    ),
    { timeoutMs: 150_000 },
  );
  try {
    await cli.waitForStderr(/metrics: http:\S+/);
    const dashboard = new URL(/dashboard: (http:\S+)/.exec(cli.stderr())![1]!);
    const metrics = new URL(/metrics: (http:\S+)/.exec(cli.stderr())![1]!);
    for (const [url, own] of [
      [new URL('/events', dashboard), dashboard],
      [new URL('/', dashboard), dashboard],
      [metrics, metrics],
    ] as const) {
      for (const host of [
        'evil.example',
        `evil.example:${own.port}`,
        `127.0.0.1.evil.example:${own.port}`,
        `localhost.evil.example`,
        `[::2]:${own.port}`,
        `10.1.2.3:${own.port}`,
      ]) {
        const answer = await get(url.href, host);
        assert.equal(answer.status, 421, `${url.pathname} with Host "${host}"`);
        assert.doesNotMatch(
          answer.body,
          /echo|wsbench_|<html|snapshot/i,
          `${url.pathname} with Host "${host}" shows nothing of the run`,
        );
      }
      for (const host of [own.host, `localhost:${own.port}`, 'localhost', 'LOCALHOST', '127.0.0.1']) {
        const answer = await get(url.href, host);
        assert.equal(answer.status, 200, `${url.pathname} with Host "${host}"`);
      }
    }
  } finally {
    cli.child.kill('SIGINT');
    await cli.finished;
  }
});

test("the barrier answers its own address and the --barrier URL's host, nothing else", async () => {
  const barrier = new BarrierServer('run-h', 2, 60_000);
  const { port } = await barrier.listen('127.0.0.1', 0, ['wsbench-0.wsbench']);
  try {
    const time = `http://127.0.0.1:${port}/wsbench/barrier/time?run=run-h&count=2`;
    for (const host of ['evil.example', `evil.example:${port}`, `wsbench-0.wsbench.evil.example:${port}`]) {
      const answer = await get(time, host);
      assert.equal(answer.status, 421, `Host "${host}"`);
      assert.doesNotMatch(answer.body, /run-h|epochMs/, `Host "${host}" learns nothing of the run`);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `wsbench-0.wsbench:${port}`, 'WSBENCH-0.wsbench']) {
      assert.equal((await get(time, host)).status, 200, `Host "${host}"`);
    }
    // The shards' own client sends the Host of the URL it was given: it is let in.
    const client = new BarrierClient(`http://127.0.0.1:${port}`, 'run-h', 2, 1, 5000);
    const estimate = await client.estimateClock(new AbortController().signal);
    assert.ok(Number.isFinite(estimate.rttMs));
  } finally {
    await barrier.close();
  }
});

test("a surface bound to every address answers the machine's own addresses only", () => {
  const all = new HostCheck('0.0.0.0');
  assert.equal(all.allows('127.0.0.1:9464'), true);
  assert.equal(all.allows('localhost:9464'), true);
  assert.equal(all.allows('[::1]:9464'), true);
  // 192.0.2.0/24 is documentation space: no machine here has it.
  assert.equal(all.allows('192.0.2.7:9464'), false);
  assert.equal(all.allows('evil.example:9464'), false);
  assert.equal(all.allows(`${hostname()}:9464`), true, "the machine's own name, as a scrape config gives it");
  const one = new HostCheck('10.213.0.2', []);
  assert.equal(one.allows('10.213.0.2:7070'), true);
  assert.equal(one.allows('localhost:7070'), false, 'localhost is not this address when it is not loopback');
  assert.equal(one.allows('127.0.0.1:7070'), false);
  const v6 = new HostCheck('::1');
  assert.equal(v6.allows('[0:0:0:0:0:0:0:1]:80'), true, 'IPv6 compared in canonical form');
  assert.equal(v6.allows('localhost'), true);
});

/**
 * SIGTERM in the middle of a run watched by a page and a scraper: the result
 * is written (interrupted), the page hears the end, and wsbench leaves at
 * once: no linger for a last scrape, no wait for the page's open stream.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { startCli } from './live-cli.js';
import { tempDir, runArgs } from './support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

/** Leaving takes the engine's interrupt grace (5 s) and the views' close; a linger would take 120 s. */
const LEAVE_WITHIN_MS = 20_000;

test('SIGTERM during a watched run writes the result, tells the page, and closes the views at once', {
  timeout: 180_000,
}, async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const cli = startCli(
    runArgs(
      'echo',
      'ws,uws',
      'ws',
      '--duration',
      '60s',
      '--dashboard',
      '--metrics-listen',
      ':0',
      '--metrics-linger',
      '120s',
      '--out',
      out,
    ),
    { timeoutMs: 150_000 },
  );
  try {
    await cli.waitForStderr(/metrics: http:\S+/);
    const dashboard = /dashboard: (http:\S+)/.exec(cli.stderr())![1]!;
    const stream = openStream(`${dashboard}events`);
    await stream.until(/"status":"running","inWindowS"/, 90_000);
    const scrape = await fetch(/metrics: (http:\S+)/.exec(cli.stderr())![1]!);
    assert.match(await scrape.text(), /wsbench_cell_state\{[^}]*state="running"\} 1/);

    const signalledAt = Date.now();
    cli.child.kill('SIGTERM');
    const { code } = await cli.finished;
    const tookMs = Date.now() - signalledAt;
    assert.ok(tookMs < LEAVE_WITHIN_MS, `left ${tookMs} ms after SIGTERM`);
    assert.equal(code, 130, cli.stderr());
    assert.doesNotMatch(cli.stderr(), /waiting up to/, 'no linger after an interrupt');
    const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
    assert.equal(result.interrupted, true);
    assert.equal(result.cells[0]!.status, 'failed');
    assert.equal(result.cells[1]!.status, 'skipped');
    await stream.until(/event: end\ndata: \{[^\n]*"status":"interrupted"/, 5000);
    assert.match(
      stream.text(),
      /"label":"uws x ws","round":0,"status":"skipped","reason":"interrupted before it started"/,
      'the page says what the result says',
    );
    stream.close();
  } finally {
    if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  }
});

/** An open server-sent-events stream, read as text. */
function openStream(url: string): {
  until(pattern: RegExp, timeoutMs: number): Promise<void>;
  text(): string;
  close(): void;
} {
  let text = '';
  const listeners = new Set<() => void>();
  const req = request(url, (response) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      text += chunk;
      for (const listener of [...listeners]) listener();
    });
  });
  req.on('error', () => undefined);
  req.end();
  return {
    until(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${pattern} within ${timeoutMs} ms in:\n${text.slice(-2000)}`));
        }, timeoutMs);
        const check = (): void => {
          if (!pattern.test(text)) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
        check();
      });
    },
    text: () => text,
    close: () => req.destroy(),
  };
}

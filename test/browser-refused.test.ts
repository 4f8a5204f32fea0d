/**
 * A handshake the server refuses (HTTP 503 to every second upgrade) is one the
 * browser refuses to open: the page's script hears only a close code, the
 * engine counts the connection as one that could not open, and echo (written
 * per connection) measures the connections that did open: the cell is `errors`
 * with the browser's words, and the failure is counted by reason.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, tempDir } from './support.js';
import { NO_CHROMIUM } from './browser-support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

const REFUSING = fileURLToPath(new URL('./fixtures/refusing-server.js', import.meta.url));

test('a connection the browser cannot open makes the echo cell errors, with the reason; the rest are measured', {
  skip: NO_CHROMIUM,
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const command = `refusing=${process.execPath} ${REFUSING} --port {port} --status-every 2`;
  const outcome = await runCli(
    [
      'run',
      'echo',
      '--server-cmd',
      command,
      '--clients',
      'browser',
      '--connections',
      '4',
      '--duration',
      '1s',
      '--out',
      out,
    ],
    { timeoutMs: 100_000 },
  );
  assert.equal(outcome.code, 1, outcome.stderr);
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.equal(cell?.status, 'errors');
  assert.match(
    'reason' in cell! ? cell.reason : '',
    /^2 of 4 connections could not open \(.*the browser could not open the WebSocket \(close code 1006\)\)$/,
  );
  assert.ok(
    cell.notes.includes('connect failed (other): the browser could not open the WebSocket (close code 1006)'),
    cell.notes.join('\n'),
  );
  assert.ok('metrics' in cell && (cell.metrics.messagesPerSec ?? 0) > 0, 'the connections that opened were measured');
});

/**
 * A page speaks a broker's own protocol: pubsub with the browser client against
 * a graphql-ws broker, which closes any handshake that does not offer its
 * subprotocol (graphql-transport-ws), so the page's WebSocket must offer it. Every subscriber gets every publication once, in order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from './support.js';
import { NO_CHROMIUM } from './browser-support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

// 20 publications (rate 20/s over 1 s) over 2 topics: 2 topics x 10 publications x 3 subscribers each.
const EXPECTED = 60;

test('pubsub graphql-ws x browser: the page offers the graphql-transport-ws subprotocol and gets every message', {
  skip: NO_CHROMIUM,
  timeout: 120_000,
}, async () => {
  const out = join(tempDir(), 'r.json');
  const broker = `${process.execPath} examples/brokers/graphql-ws-broker.mjs --port {port}`;
  const args = [
    'run',
    'pubsub',
    '--broker',
    'graphql-ws',
    '--server-cmd',
    `gql=${broker}`,
    '--clients',
    'browser',
    '--publishers',
    '1',
    '--subscribers',
    '6',
    '--topics',
    '2',
    '--rate',
    '20',
    '--duration',
    '1s',
    '--out',
    out,
  ];
  const outcome = await runCli(args, { timeoutMs: 100_000 });
  const [cell] = (JSON.parse(readFileSync(out, 'utf8')) as BenchResult).cells;
  assert.ok(
    cell && cell.status === 'ok',
    `cell ${cell?.status}: ${cell && 'reason' in cell ? cell.reason : ''}\n${outcome.stderr}`,
  );
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.equal(cell.metrics.expected, EXPECTED);
  assert.equal(cell.metrics.delivered, EXPECTED);
  for (const fault of ['missing', 'duplicates', 'outOfOrder', 'misrouted']) assert.equal(cell.metrics[fault], 0, fault);
});

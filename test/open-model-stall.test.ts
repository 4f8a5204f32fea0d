/**
 * The open model against a server that stalls: an echo server freezes its
 * event loop for 100 ms every 400 ms. Sent at 1000 messages a second whatever
 * came back, a quarter of the messages arrive during a freeze and wait for its
 * end: a message due u ms into a freeze waits 100 - u ms. So the latency's tail
 * is uniform over the freeze, and its 99th percentile is the stall length less
 * 1 % of a period: 100 - 4 = 96 ms, worked out here from the freezes the server
 * logged. The open-model cell must read that within 10 %; the closed-loop cell
 * of the same server must say it ran closed-loop (and reads far less, since a
 * freeze there holds back one message per connection).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMeasured, type BenchResult, type CellResult } from '../src/index.js';
import { runCli, tempDir } from './support.js';

const STALLING = fileURLToPath(new URL('./fixtures/stalling-echo-server.js', import.meta.url));
const STALL_MS = 100;
const PERIOD_MS = 400;
const RATE = 1000;

test('open model: p99 against a stalling server is what its stalls imply; the closed loop says it is one', async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const events = join(dir, 'stalls.txt');
  const command = `node ${STALLING} --port {port} --stall-ms ${STALL_MS} --period-ms ${PERIOD_MS} --events ${events}`;
  const outcome = await runCli([
    'run',
    'echo',
    '--server-cmd',
    `stalling=${command}`,
    '--clients',
    'ws',
    '--rate',
    `0,${RATE}`,
    // Ten whole periods: the window holds the same share of frozen time wherever the freezes fall.
    '--duration',
    `${10 * PERIOD_MS}ms`,
    '--out',
    out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  const closed = cellAt(result, 0);
  const open = cellAt(result, RATE);

  // From first principles: a share stall/period of the messages waits uniformly up to the stall's length.
  const stalls = readFileSync(events, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' ').map(Number) as [string, number, number])
    .map(([, start, end]) => ({ start, end }));
  assert.ok(stalls.length >= 20, `the server froze ${stalls.length} times`);
  const stallMs = mean(stalls.map((s) => (s.end - s.start) / 1000));
  const periodMs = (stalls.at(-1)!.start - stalls[0]!.start) / 1000 / (stalls.length - 1);
  const impliedP99Ms = stallMs - 0.01 * periodMs;

  const p99 = open.metrics.rttP99Ms as number;
  assert.ok(
    Math.abs(p99 - impliedP99Ms) <= 0.1 * impliedP99Ms,
    `open-model p99 ${p99} ms, stalls imply ${impliedP99Ms.toFixed(1)} ms (stall ${stallMs.toFixed(1)} ms every ${periodMs.toFixed(1)} ms)`,
  );
  assert.equal(open.load?.model, 'open');
  assert.equal(open.load?.offeredPerSec, RATE);

  assert.equal(closed.load?.model, 'closed');
  assert.match(outcome.stdout, /closed loop, 1 conn x 1 in flight/);
  assert.match(outcome.stdout, /a stall counts once per connection/);
  assert.ok(
    (closed.metrics.rttP99Ms as number) < p99 / 5,
    `the closed loop hides the stalls: p99 ${closed.metrics.rttP99Ms} ms against ${p99} ms`,
  );
});

function cellAt(result: BenchResult, rate: number): Extract<CellResult, { metrics: unknown }> {
  const cell = result.cells.find((c) => c.params.rate === rate);
  assert.ok(cell && isMeasured(cell), `the cell at rate ${rate} measured: ${JSON.stringify(cell?.status)}`);
  assert.equal(cell.status, 'ok', 'reason' in cell ? cell.reason : '');
  return cell;
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

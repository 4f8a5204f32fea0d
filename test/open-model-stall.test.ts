/**
 * The open model against a server that stalls: an echo server freezes its
 * event loop for 400 ms every 1600 ms (Node restarts an interval after its
 * callback: a freeze every 2000 ms in fact). Sent at 250 messages a second
 * whatever came back, a fifth of the messages arrive during a freeze and wait
 * for its end: a message due u ms into a freeze waits 400 - u ms. So the
 * latency's tail is uniform over the freeze, and its 99th percentile is the
 * stall length less 1 % of a period: 400 - 20 = 380 ms, worked out here from
 * the freezes the server logged. Long freezes keep what a busy machine adds
 * (the backlog served after each, the client's own lag) small beside them. The
 * same server measured by a closed loop must say it ran closed-loop, and reads
 * far less: a freeze there holds back one message per connection.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMeasured, type BenchResult, type CellResult } from '../src/index.js';
import { runCli, tempDir } from './support.js';

const STALLING = fileURLToPath(new URL('./fixtures/stalling-echo-server.js', import.meta.url));
const STALL_MS = 400;
const PERIOD_MS = 1600;
const RATE = 250;

test('open model: p99 against a stalling server is what its stalls imply; the closed loop says it is one', async () => {
  const dir = tempDir();
  const events = join(dir, 'stalls.txt');
  const command = `node ${STALLING} --port {port} --stall-ms ${STALL_MS} --period-ms ${PERIOD_MS} --events ${events}`;
  const server = ['--server-cmd', `stalling=${command}`, '--clients', 'ws'];
  // Six whole periods (a freeze and the interval after it): the same share of frozen time wherever they fall.
  const open = await measure(dir, 'open.json', [
    ...server,
    '--rate',
    String(RATE),
    '--duration',
    `${6 * (PERIOD_MS + STALL_MS)}ms`,
  ]);

  // From first principles: a share stall/period of the messages waits uniformly up to the stall's length.
  const stalls = readFileSync(events, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split(' ').map(Number) as [string, number, number])
    .map(([, start, end]) => ({ start, end }));
  assert.ok(stalls.length >= 6, `the server froze ${stalls.length} times`);
  const stallMs = mean(stalls.map((s) => (s.end - s.start) / 1000));
  const periodMs = (stalls.at(-1)!.start - stalls[0]!.start) / 1000 / (stalls.length - 1);
  const impliedP99Ms = stallMs - 0.01 * periodMs;

  const p99 = open.cell.metrics.rttP99Ms as number;
  assert.ok(
    Math.abs(p99 - impliedP99Ms) <= 0.1 * impliedP99Ms,
    `open-model p99 ${p99} ms, stalls imply ${impliedP99Ms.toFixed(1)} ms (stall ${stallMs.toFixed(1)} ms every ${periodMs.toFixed(1)} ms)`,
  );
  assert.equal(open.cell.load?.model, 'open');
  assert.equal(open.cell.load?.offeredPerSec, RATE);

  // The closed loop, the default: 3000 round trips, so it spins for a moment rather than a whole window.
  const closed = await measure(dir, 'closed.json', [...server, '--messages', '3000']);
  assert.equal(closed.cell.load?.model, 'closed');
  assert.match(closed.stdout, /closed loop, 1 conn x 1 in flight/);
  assert.match(closed.stdout, /a stall counts once per connection/);
  assert.ok(
    (closed.cell.metrics.rttP99Ms as number) < p99 / 5,
    `the closed loop hides the stalls: p99 ${closed.cell.metrics.rttP99Ms} ms against ${p99} ms`,
  );
});

async function measure(
  dir: string,
  file: string,
  args: string[],
): Promise<{ cell: Extract<CellResult, { metrics: unknown }>; stdout: string }> {
  const out = join(dir, file);
  const outcome = await runCli(['run', 'echo', ...args, '--out', out]);
  assert.equal(outcome.code, 0, outcome.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  return { cell: cellOf(result), stdout: outcome.stdout };
}

function cellOf(result: BenchResult): Extract<CellResult, { metrics: unknown }> {
  const [cell] = result.cells;
  assert.ok(cell && isMeasured(cell), `the cell measured: ${JSON.stringify(cell?.status)}`);
  assert.equal(cell.status, 'ok', 'reason' in cell ? cell.reason : '');
  return cell;
}

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

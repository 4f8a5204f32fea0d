/**
 * Shards lined up by a start time instead of a barrier, on one machine (no
 * namespaces needed): three shards against one fanout server open their first
 * window no earlier than --start-at, and their results merge with every
 * counter summed.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, tempDir } from './support.js';
import { isMeasured, type BenchResult, type MeasuredCell } from '../src/shared/types/result-types.js';

const FANOUT_SERVER = fileURLToPath(new URL('./fixtures/fanout-server.js', import.meta.url));
/** Far enough ahead for three shards to start and connect on a busy 2-core machine; a late one still merges, with a note. */
const LEAD_MS = 6000;

const server = spawn(process.execPath, [FANOUT_SERVER, '--host', '127.0.0.1', '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
after(() => server.kill('SIGKILL'));

function serverPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk: Buffer) => {
      const match = /listening on [\d.]+:(\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
    server.on('exit', () => reject(new Error('the fanout server exited')));
  });
}

test('shards given one start time open their first window at it, and merge', { timeout: 120_000 }, async () => {
  const port = await serverPort();
  const dir = tempDir();
  const startAt = Date.now() + LEAD_MS;
  const outcomes = await Promise.all(
    [0, 1, 2].map((i) =>
      runCli([
        'run',
        'fanout',
        '--target',
        `ws://127.0.0.1:${port}/`,
        '--clients',
        'ws',
        '--shard',
        `${i}/3`,
        '--run-id',
        'start-at-run',
        '--start-at',
        new Date(startAt).toISOString(),
        '--connections',
        '30',
        '--interval',
        '50ms',
        '--duration',
        '1s',
        '--out',
        join(dir, `shard-${i}.json`),
      ]),
    ),
  );
  const results = [0, 1, 2].map((i) => JSON.parse(readFileSync(join(dir, `shard-${i}.json`), 'utf8')) as BenchResult);
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome.code === 0) continue;
    // A shard ready after the start time (a crowded machine) joins the fan-out mid-stream: its clients miss the
    // first ticks, a fault its cell shows (errors, exit 1), and its note says the window opened late.
    const late = results[i]!.cells[0]!;
    assert.ok(
      outcome.code === 1 && late.status === 'errors' && late.notes.some((n) => /its window opened late$/.test(n)),
      `shard ${i}: ${outcome.stderr}`,
    );
  }
  for (const result of results) {
    assert.deepEqual(result.shard?.start, { mode: 'start-at', atEpochMs: startAt });
    const cell = result.cells[0]!;
    assert.ok(isMeasured(cell));
    assert.ok(
      cell.measurements.windowOpenedAtEpochMs! >= startAt - 1,
      `opened ${startAt - cell.measurements.windowOpenedAtEpochMs!} ms before the start time`,
    );
  }
  // No barrier, no probe: only shard 0 knows its offset (zero).
  assert.deepEqual(
    results.map((r) => r.shard?.clockOffsetMs),
    [0, null, null],
  );

  const mergedPath = join(dir, 'merged.json');
  const merged = await runCli(['merge', ...[0, 1, 2].map((i) => join(dir, `shard-${i}.json`)), '--out', mergedPath]);
  assert.equal(merged.code, 0, merged.stderr);
  const cell = (JSON.parse(readFileSync(mergedPath, 'utf8')) as BenchResult).cells[0]!;
  assert.ok(isMeasured(cell));
  const parts = results.map((r) => r.cells[0] as MeasuredCell);
  for (const name of ['connected', 'received', 'missing', 'rxBytes']) {
    assert.equal(
      cell.measurements.counters[name],
      parts.reduce((sum, c) => sum + (c.measurements.counters[name] ?? 0), 0),
      name,
    );
  }
  assert.equal(cell.measurements.counters.connected, 30);
});

/**
 * A run killed with SIGKILL in the middle of a 2-minute window, after several
 * progress intervals reached its journal, is rebuilt by `wsbench recover`: the
 * cell is marked with the reason, and its counts are what the clients counted
 * up to the last interval written. The scenario counts on its own side too and
 * stops at a known number well before the kill, so the check is exact and
 * owes nothing to the journal: two client processes, 150 replies each, must
 * come back as 300 received and 300 round-trip samples.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupEmpties, startCli } from './live-cli.js';
import { runCli, tempDir, runArgs } from './support.js';
import type { BenchResult } from '../src/shared/types/result-types.js';

const SCENARIO = fileURLToPath(new URL('./fixtures/counted-echo.js', import.meta.url));
const MESSAGES = 150;
const PROCESSES = 2;

test('SIGKILL mid-window: recover rebuilds the cell with every count the clients made before the last interval on disk', {
  timeout: 240_000,
}, async () => {
  const dir = tempDir();
  const out = join(dir, 'r.json');
  const journal = `${out}.journal`;
  const log = join(dir, 'count');
  const args = runArgs(
    SCENARIO,
    'ws',
    'ws',
    '--client-procs',
    String(PROCESSES),
    '--messages',
    String(MESSAGES),
    '--period',
    '10ms',
    '--duration',
    '2m',
    '--out',
    out,
  );
  const cli = startCli(args, { env: { WSBENCH_TEST_COUNT_LOG: log }, ownProcessGroup: true, timeoutMs: 200_000 });
  try {
    // Every client has counted all its replies, and the journal holds intervals taken after that.
    await until(
      () => [...Array(PROCESSES).keys()].every((p) => readText(`${log}.${p}`).includes(`done ${MESSAGES}\n`)),
      90_000,
      'the clients to finish counting',
    );
    await until(
      () =>
        [...Array(PROCESSES).keys()].every(
          (p) => ticksOf(journal, p).filter((t) => t.counters.received === MESSAGES).length >= 3,
        ),
      30_000,
      'three intervals after the count in the journal',
    );
    const ticksBefore = ticksOf(journal, 0).length;
    assert.ok(ticksBefore >= 4, `${ticksBefore} intervals of process 0 in the journal`);
    process.kill(cli.pid, 'SIGKILL');
    await cli.finished;
  } finally {
    if (cli.child.exitCode === null && cli.child.signalCode === null) process.kill(-cli.pid, 'SIGKILL');
  }
  assert.deepEqual(await groupEmpties(cli.pid, 15_000), [], 'no child outlives wsbench');
  assert.ok(!existsSync(out), 'the run wrote no result');

  const recovered = await runCli(['recover', journal]);
  assert.equal(recovered.code, 0, recovered.stderr);
  assert.match(recovered.stderr, /^recovered from journal after wsbench stopped at \d{4}-\d\d-\d\dT/m);
  assert.ok(!existsSync(journal), 'the journal is gone once the result is written');
  const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
  assert.equal(result.interrupted, true);
  assert.match(result.recovered!.reason, /^recovered from journal after wsbench stopped at /);
  const [cell] = result.cells;
  assert.ok(cell && cell.status === 'failed' && cell.measurements, `cell ${cell?.status}`);
  assert.equal(cell.reason, result.recovered!.reason);

  // What the scenario itself counted, in its own files.
  const ownCounts = [...Array(PROCESSES).keys()].map((p) => Number(/done (\d+)\n/.exec(readText(`${log}.${p}`))![1]));
  const counted = ownCounts.reduce((a, b) => a + b, 0);
  assert.equal(counted, MESSAGES * PROCESSES);
  assert.equal(cell.measurements.counters.received, counted, "received: the clients' own count");
  assert.equal(cell.measurements.latency.rtt?.count, counted, 'every round trip, merged from the intervals');
  assert.equal(cell.metrics.received, counted, 'the metric, computed by the scenario as in a run');
  const windowMs = cell.measurements.windowMs;
  assert.ok(windowMs > 1000 && windowMs < 120_000, `window ${windowMs} ms: cut short`);
  const series = cell.measurements.timeSeries!;
  assert.equal(series.points.at(-1)!.counters.received, counted);
  assert.equal(
    series.points.reduce((n, p) => n + (p.latency.rtt?.count ?? 0), 0),
    counted,
  );
  assert.equal(cell.resources.clients.length, PROCESSES);
  assert.ok(cell.resources.server && cell.resources.server.samples > 0, "the server's /proc samples");
});

interface JournalTick {
  counters: Record<string, number>;
}

/** The ticks of client process `process` in the journal so far (whole lines only). */
function ticksOf(path: string, process: number): JournalTick[] {
  return readText(path)
    .split('\n')
    .filter((line) => line.startsWith('{"type":"tick"'))
    .flatMap((line) => {
      try {
        const record = JSON.parse(line) as { process: number; ticks: JournalTick[] };
        return record.process === process ? record.ticks : [];
      } catch {
        return [];
      }
    });
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * SIGHUP (the terminal closed) is answered like SIGTERM: the cut cell keeps
 * what its processes measured, the result file is written and marked
 * interrupted, nothing of the run is left, and the exit code is 129. Sent to
 * wsbench alone, and to its whole process group as a closing terminal does
 * (its children and their watchdogs get it too, and must not die of it first).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupEmpties, startCli, untilReceived } from './live-cli.js';
import { tempDir, runArgs } from './support.js';
import { isMeasured, type BenchResult } from '../src/parent/index.js';

for (const to of ['wsbench', 'its process group'] as const) {
  test(`SIGHUP to ${to} mid-cell: the result is written, interrupted, exit 129`, { timeout: 180_000 }, async () => {
    const out = join(tempDir(), 'r.json');
    const cli = startCli(
      runArgs('echo', 'ws', 'ws', '--duration', '60s', '--metrics-listen', '127.0.0.1:0', '--out', out),
      { ownProcessGroup: true },
    );
    try {
      // The window is open and has measured replies.
      await untilReceived(cli, 90_000);
      process.kill(to === 'wsbench' ? cli.pid : -cli.pid, 'SIGHUP');
      const ended = await cli.finished;
      assert.deepEqual(ended, { code: 129, signal: null }, cli.stderr());
      assert.match(cli.stderr(), /^interrupted \(SIGHUP: the terminal closed\): finishing the current cell/m);
      const result = JSON.parse(readFileSync(out, 'utf8')) as BenchResult;
      assert.equal(result.interrupted, true);
      const [cell] = result.cells;
      assert.ok(
        cell && isMeasured(cell) && cell.status === 'failed' && cell.reason === 'interrupted',
        JSON.stringify(cell).slice(0, 300),
      );
      assert.ok((cell.measurements.counters.received ?? 0) > 0, 'the cut cell kept its replies');
      assert.deepEqual(await groupEmpties(cli.pid, 10_000), [], 'nothing of the run is left');
    } finally {
      if (cli.child.exitCode === null) process.kill(-cli.pid, 'SIGKILL');
    }
  });
}

/** `wsbench capacity` end to end with tiny steps: the table, the capacity JSON, and a steps file that `report` reads. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResultFile } from '../src/result-file.js';
import type { CapacityResult } from '../src/index.js';
import { runCli, tempDir } from './support.js';

test('capacity of fanout on uws, 5 to 10 clients, 300 ms steps: both steps hold, the search ends at its maximum', async () => {
  const dir = tempDir();
  const out = join(dir, 'cap.json');
  const outcome = await runCli([
    'capacity', 'fanout', '--slo', 'p99<500ms,errors=0', '--servers', 'uws',
    '--start', '5', '--max', '10', '--interval', '50ms', '--duration', '300ms', '--out', out,
  ]);
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.match(outcome.stdout, /^fanout capacity within p99<500ms, errors=0: the most connections each server holds/);
  assert.match(outcome.stdout, /\nuws\s+ws\s+>= 10\s+-\s+2\s+1\s+nothing up to the maximum\n/);
  const result = JSON.parse(readFileSync(out, 'utf8')) as CapacityResult;
  assert.equal(result.format, 'wsbench-capacity');
  assert.equal(result.latencyMetric, 'delayP99Ms');
  assert.deepEqual(result.slo.clauses.map((c) => c.kind), ['latency', 'errors']);
  const [uws] = result.servers;
  assert.deepEqual([uws!.server, uws!.client, uws!.capacity, uws!.end, uws!.brokeAt], ['uws', 'ws', 10, 'max', null]);
  assert.deepEqual(uws!.steps.map((s) => [s.count, s.phase, s.outcome]), [[5, 'ramp', 'within'], [10, 'ramp', 'within']]);
  for (const step of uws!.steps) {
    assert.equal(step.errors, 0);
    assert.equal(typeof step.latencyMs, 'number');
    assert.equal(typeof step.serverCpuPercent, 'number');
    assert.equal(step.clientCpuPercent.length, 1);
  }
  // The steps are an ordinary result file: one cell per count.
  const steps = readResultFile(join(dir, 'cap-steps.json'));
  assert.deepEqual(steps.cells.map((c) => [c.server, c.params.connections, c.status]), [['uws', 5, 'ok'], ['uws', 10, 'ok']]);
  // The report and the charts go where the artifacts of any result go; stderr says where.
  const report = /^report: (.+)$/m.exec(outcome.stderr)?.[1];
  const charts = /^charts: \d+ files in (.+)$/m.exec(outcome.stderr)?.[1];
  assert.ok(report && existsSync(report), outcome.stderr);
  assert.ok(charts && existsSync(join(charts, 'capacity-fanout-servers.svg')), outcome.stderr);
  assert.ok(existsSync(join(charts, 'capacity-fanout-latency.svg')));
});

/**
 * wsbench's Node client processes run with a fixed young generation
 * (src/parent/runtimes/load-generator-flags.ts); its Node servers run as Node runs them.
 * A scenario reads both from inside the real child processes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/parent/index.js';
import heapProbe from './fixtures/heap-probe.js';

test('a Node client process gets a 16 MiB nursery from the start; the Node server keeps V8 defaults', async () => {
  const result = await run({ scenario: heapProbe, servers: ['ws'], clients: ['ws'] });
  const [cell] = result.cells;
  assert.equal(cell?.status, 'ok', cell?.status === 'ok' ? '' : cell?.reason);
  const counters = cell!.measurements.counters;
  assert.equal(counters.clientHasFlags, 1);
  assert.equal(
    counters.clientNewSpaceMiB,
    16,
    'V8 applied the flag: the nursery is 16 MiB before any allocation grew it',
  );
  assert.equal(cell!.measurements.serverCounters.serverHasFlags, 0);
});

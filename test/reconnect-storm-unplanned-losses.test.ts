/**
 * In a reconnect storm only the kill may drop a client. Against a server that
 * cuts every second connection 300-800 ms after it opened (a door in front of
 * wsbench's ws stack, test/fixtures/faulty-front-server.ts, run by
 * --server-cmd), the drops before the kill and after a client was back are
 * `lost unplanned`: the cell reads errors with the count. The same door
 * without the fault reads ok, every drop the kill's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { isMeasured, run, type CellResult } from '../src/parent/index.js';

const FRONT = fileURLToPath(new URL('./fixtures/faulty-front-server.js', import.meta.url));
const CONNECTIONS = 10;

test('reconnect-storm: connections the server cuts outside the restart are errors; the kill alone is not', {
  timeout: 120_000,
}, async () => {
  const front = (options: string): string => `${process.execPath} ${FRONT} --port {port} ${options}`;
  const result = await run({
    scenario: 'reconnect-storm',
    serverCommands: [
      { name: 'cuts', command: front('--close-every 2') },
      { name: 'serves', command: front('') },
    ],
    clients: ['ws'],
    // The kill comes well after the first cuts (at most 800 ms after each connection opened).
    params: { connections: CONNECTIONS, restartAt: '1500ms', downtime: '200ms', duration: '8s' },
  });
  const cuts = result.cells[0]!;
  const serves = result.cells[1]!;

  assert.ok(isMeasured(serves) && serves.status === 'ok', describe(serves));
  assert.equal(serves.metrics.lostUnplanned, 0, describe(serves));
  assert.equal(serves.metrics.lost, CONNECTIONS, 'every drop the kill made, one per client');

  assert.ok(isMeasured(cuts) && cuts.status === 'errors', describe(cuts));
  const unplanned = cuts.metrics.lostUnplanned ?? 0;
  assert.ok(unplanned > 0, describe(cuts));
  assert.ok(unplanned <= (cuts.metrics.lost ?? 0), describe(cuts));
  assert.match(cuts.reason, new RegExp(`^errors counted: lost unplanned ${unplanned}$`));
});

function describe(cell: CellResult): string {
  const reason = 'reason' in cell ? cell.reason : '';
  return `${cell.server}: ${cell.status} ${reason} ${isMeasured(cell) ? JSON.stringify(cell.metrics) : ''}`;
}

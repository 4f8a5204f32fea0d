/**
 * The request/response helper against a real ws server that answers some
 * requests wrong (a wrong result), some with an id nothing asked for, and some
 * not at all: every right reply is timed and counted, every wrong one and every
 * reply to nothing counted wrong, every request without its reply counted
 * missing after its timeout, exactly.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { WebSocketServer } from 'ws';
import { isMeasured, run } from '../src/parent/index.js';

const SCENARIO = fileURLToPath(new URL('./fixtures/request-reply-scenario.js', import.meta.url));

const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
server.on('connection', (ws) => {
  ws.on('message', (data) => {
    const { id } = JSON.parse(String(data)) as { id: number };
    if (id % 10 === 3)
      ws.send(JSON.stringify({ id, result: -1 })); // a wrong answer
    else if (id % 10 === 6)
      ws.send(JSON.stringify({ id: id + 1000, result: (id + 1000) * 2 })); // answers nothing in flight
    else if (id % 10 !== 9) ws.send(JSON.stringify({ id, result: id * 2 })); // id % 10 === 9: no reply at all
  });
});
after(() => server.close());

test('right replies timed and counted; wrong answers and replies to nothing wrong; unanswered requests missing', {
  timeout: 60_000,
}, async () => {
  await new Promise<void>((resolve) => (server.address() ? resolve() : server.once('listening', () => resolve())));
  const { port } = server.address() as { port: number };
  const result = await run({
    scenario: SCENARIO,
    targets: [{ name: 'mine', url: `ws://127.0.0.1:${port}/` }],
    clients: ['ws'],
    params: { connections: 2, requests: 30 },
  });
  const [cell] = result.cells;
  assert.ok(cell && isMeasured(cell), cell && 'reason' in cell ? cell.reason : 'no cell');
  // Per connection, ids 1..30: 3 wrong answers (3, 13, 23), 3 replies to nothing whose requests go missing (6, 16, 26), 3 never answered (9, 19, 29).
  assert.deepEqual(
    {
      answered: cell.metrics.answered,
      timed: cell.metrics.rttSamples,
      wrong: cell.metrics.wrong,
      missing: cell.metrics.missing,
    },
    { answered: 42, timed: 42, wrong: 12, missing: 12 },
  );
  assert.equal(cell.status, 'errors');
});

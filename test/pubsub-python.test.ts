/** The `websockets` reference server speaks docs/protocols/pubsub.md: every publication delivered once, in order. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { run } from '../src/parent/index.js';
import { PYTHON_EXAMPLES, pythonSkip, venvPython } from './python-support.js';

test('websockets_server.py: pubsub with 2 publishers, 12 subscribers on 3 topics', async (t) => {
  const skip = pythonSkip();
  if (skip) return t.skip(skip);
  const command = `${venvPython()} ${join(PYTHON_EXAMPLES, 'websockets_server.py')} --port {port}`;
  const result = await run({
    scenario: 'pubsub',
    serverCommands: [{ name: 'py', command }],
    clients: ['ws'],
    params: { publishers: 2, subscribers: 12, topics: 3, rate: 150, duration: '1s' },
  });
  const cell = result.cells[0]!;
  if (cell.status !== 'ok') assert.fail(`${cell.status}: ${cell.reason}`);
  assert.equal(cell.metrics.expected, 600);
  assert.equal(cell.metrics.delivered, 600);
  for (const fault of ['missing', 'duplicates', 'outOfOrder', 'misrouted', 'connectionsLost'] as const)
    assert.equal(cell.metrics[fault], 0, fault);
});

/** The Python websockets reference server serves reconnect-storm by --server-cmd: wsbench kills it and runs its command again. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { isMeasured, run } from '../src/parent/index.js';
import { PYTHON_EXAMPLES, pythonSkip, venvPython } from './python-support.js';

test('websockets_server.py is restarted by its command on the same port and every client comes back', {
  skip: pythonSkip(),
}, async () => {
  const command = `${venvPython()} ${join(PYTHON_EXAMPLES, 'websockets_server.py')} --port {port}`;
  const result = await run({
    scenario: 'reconnect-storm',
    serverCommands: [{ name: 'py', command }],
    clients: ['ws'],
    params: {
      connections: 8,
      policy: 'backoff',
      backoffBase: '20ms',
      backoffCap: '500ms',
      restartAt: '200ms',
      downtime: '200ms',
      duration: '30s',
    },
  });
  const [cell] = result.cells;
  assert.ok(
    cell?.status === 'ok' && isMeasured(cell),
    `${cell?.status}: ${cell && 'reason' in cell ? cell.reason : ''}`,
  );
  assert.equal(cell.metrics.lost, 8);
  assert.equal(cell.metrics.back, 8);
  assert.equal(cell.metrics.neverBack, 0);
  assert.equal(cell.metrics.timeToBackSamples, 8);
  assert.ok(
    cell.resources.server && cell.resources.server.rssBytes.max > 5 * 1024 * 1024,
    'the Python process tree is sampled',
  );
});

/**
 * pubsub over STOMP against a throwaway RabbitMQ node (Web-STOMP) that wsbench starts for the
 * cell (examples/brokers/rabbitmq.sh): every publication delivered once, in order, and nothing of
 * the node (Erlang, its epmd, its folder) left after the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../src/parent/index.js';
import { newBrokerTag, taggedBrokerProcesses, TAG_VARIABLE } from './broker-processes.js';

test('RabbitMQ Web-STOMP: STOMP from ws clients, all delivered, no Erlang process, epmd or folder left', async (t) => {
  if (!existsSync('/usr/lib/rabbitmq/bin/rabbitmq-server'))
    return t.skip('rabbitmq-server is not installed (Debian: apt-get install rabbitmq-server; .ci/run installs it)');
  const tag = newBrokerTag();
  process.env[TAG_VARIABLE] = tag;
  // The node's folder goes in a TMPDIR of the test's own, which must be empty again afterwards.
  const temp = mkdtempSync(join(tmpdir(), 'wsbench-rabbit-test-'));
  const tmpdirBefore = process.env.TMPDIR;
  process.env.TMPDIR = temp;
  try {
    const result = await run({
      scenario: 'pubsub',
      // The node takes 10 to 20 s to start on a busy 2-core machine.
      serverCommands: [
        {
          name: 'rabbitmq',
          command: 'examples/brokers/rabbitmq.sh {port} stomp',
          url: 'ws://{host}:{port}/ws',
          startTimeoutMs: 90_000,
        },
      ],
      clients: ['ws'],
      params: { broker: 'stomp', publishers: 2, subscribers: 8, topics: 2, rate: 100, duration: '1s' },
    });
    const cell = result.cells[0]!;
    if (cell.status !== 'ok') assert.fail(`${cell.status}: ${cell.reason}`);
    // 2 topics x 50 publications x 4 subscribers each.
    assert.equal(cell.metrics.expected, 400);
    assert.equal(cell.metrics.delivered, 400);
    for (const fault of ['missing', 'duplicates', 'outOfOrder', 'misrouted', 'connectionsLost'] as const)
      assert.equal(cell.metrics[fault], 0, fault);
    assert.deepEqual(taggedBrokerProcesses(tag), [], 'nothing of the node runs after the run');
    assert.deepEqual(readdirSync(temp), [], "the node's folder is removed");
  } finally {
    delete process.env[TAG_VARIABLE];
    if (tmpdirBefore === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdirBefore;
    rmSync(temp, { recursive: true, force: true });
  }
});

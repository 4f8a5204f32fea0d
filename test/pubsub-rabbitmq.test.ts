/**
 * pubsub over STOMP against a throwaway RabbitMQ node (Web-STOMP) that wsbench starts for the
 * cell (examples/brokers/rabbitmq.sh): every publication delivered once, in order, and nothing of
 * the node (Erlang, its epmd) left running after the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { run } from '../src/index.js';
import { newBrokerTag, taggedBrokerProcesses, TAG_VARIABLE } from './broker-processes.js';

test('RabbitMQ Web-STOMP: STOMP from ws clients, all delivered, no Erlang process or epmd left', async (t) => {
  if (!existsSync('/usr/lib/rabbitmq/bin/rabbitmq-server')) return t.skip('rabbitmq-server is not installed (Debian: apt-get install rabbitmq-server; .ci/run installs it)');
  const tag = newBrokerTag();
  process.env[TAG_VARIABLE] = tag;
  try {
    const result = await run({
      scenario: 'pubsub',
      // The node takes 10 to 20 s to start on a busy 2-core machine.
      serverCommands: [{ name: 'rabbitmq', command: 'examples/brokers/rabbitmq.sh {port} stomp', url: 'ws://{host}:{port}/ws', startTimeoutMs: 90_000 }],
      clients: ['ws'],
      params: { broker: 'stomp', publishers: 2, subscribers: 8, topics: 2, rate: 100, duration: '1s' },
    });
    const cell = result.cells[0]!;
    if (cell.status !== 'ok') assert.fail(`${cell.status}: ${cell.reason}`);
    // 2 topics x 50 publications x 4 subscribers each.
    assert.equal(cell.metrics.expected, 400);
    assert.equal(cell.metrics.delivered, 400);
    for (const fault of ['missing', 'duplicates', 'outOfOrder', 'misrouted', 'connectionsLost']) assert.equal(cell.metrics[fault], 0, fault);
    assert.deepEqual(taggedBrokerProcesses(tag), [], 'nothing of the node runs after the run');
  } finally {
    delete process.env[TAG_VARIABLE];
  }
});

/**
 * pubsub against real brokers that wsbench starts per cell with --server-cmd, each spoken to in
 * its own protocol by every client stack: nats-server (Debian's), an aedes MQTT broker and a
 * graphql-ws broker (examples/brokers/). Every subscriber gets every publication once, in order,
 * and nothing of a broker is left running after the run. Where nats-server is not installed, its test
 * is skipped with that reason (and how to install it), declared as the other tests that skip declare theirs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, type BenchResult } from '../src/parent/index.js';
import { NO_NATS_SERVER, newBrokerTag, taggedBrokerProcesses, TAG_VARIABLE } from './broker-processes.js';

const PARAMS = { publishers: 2, subscribers: 12, topics: 3, rate: 150, duration: '1s' } as const;
// 3 topics x 50 publications x 4 subscribers each.
const EXPECTED = 600;

async function runAgainst(
  broker: 'nats' | 'mqtt' | 'graphql-ws',
  name: string,
  command: string,
  clients: string[],
): Promise<BenchResult> {
  const tag = newBrokerTag();
  process.env[TAG_VARIABLE] = tag;
  try {
    const result = await run({
      scenario: 'pubsub',
      serverCommands: [{ name, command }],
      clients,
      params: { ...PARAMS, broker },
    });
    assert.deepEqual(taggedBrokerProcesses(tag), [], `nothing of ${name} runs after the run`);
    return result;
  } finally {
    delete process.env[TAG_VARIABLE];
  }
}

function assertDelivered(result: BenchResult, clients: string[]): void {
  assert.deepEqual(
    result.cells.map((c) => c.client),
    clients,
  );
  for (const cell of result.cells) {
    const label = `${cell.server} x ${cell.client}`;
    if (cell.status !== 'ok') assert.fail(`${label}: ${cell.status}: ${cell.reason}`);
    const m = cell.metrics;
    assert.equal(m.expected, EXPECTED, label);
    assert.equal(m.delivered, EXPECTED, label);
    for (const fault of ['missing', 'duplicates', 'outOfOrder', 'misrouted', 'connectionsLost'])
      assert.equal(m[fault], 0, `${label}: ${fault}`);
    assert.ok(
      cell.resources.server && cell.resources.server.rssBytes.max > 0,
      `${label}: the broker's memory is measured`,
    );
  }
}

test('nats-server over WebSocket, NATS protocol from ws, undici, Bun and Deno clients', {
  skip: NO_NATS_SERVER,
}, async () => {
  const clients = ['ws', 'undici', 'bun', 'deno'];
  assertDelivered(await runAgainst('nats', 'nats', 'examples/brokers/nats-server.sh {port}', clients), clients);
});

test('an aedes MQTT broker over WebSocket (subprotocol mqtt), MQTT from ws and Bun clients', async () => {
  const clients = ['ws', 'bun'];
  assertDelivered(
    await runAgainst('mqtt', 'aedes', `${process.execPath} examples/brokers/mqtt-broker.mjs --port {port}`, clients),
    clients,
  );
});

test('a graphql-ws broker (subprotocol graphql-transport-ws), GraphQL subscriptions from undici and Deno clients', async () => {
  const clients = ['undici', 'deno'];
  assertDelivered(
    await runAgainst(
      'graphql-ws',
      'gql',
      `${process.execPath} examples/brokers/graphql-ws-broker.mjs --port {port}`,
      clients,
    ),
    clients,
  );
});

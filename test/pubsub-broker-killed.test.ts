/** A broker that dies mid-window fails its pubsub cell with the time it died, as any server does, and nothing of it is left. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from '../src/parent/index.js';
import { NO_NATS_SERVER, newBrokerTag, taggedBrokerProcesses, TAG_VARIABLE } from './broker-processes.js';

test('nats-server killed (SIGKILL) 1.5 s into a 4 s window: the cell fails, saying it was killed and when', {
  skip: NO_NATS_SERVER,
}, async () => {
  const tag = newBrokerTag();
  process.env[TAG_VARIABLE] = tag;
  let killedAt: number | null = null;
  let windowOpenedAt: number | null = null;
  try {
    const result = await run({
      scenario: 'pubsub',
      serverCommands: [{ name: 'nats', command: 'examples/brokers/nats-server.sh {port}' }],
      clients: ['ws'],
      params: { broker: 'nats', subscribers: 10, rate: 100, duration: '4s' },
      onEvent(event) {
        if (event.type !== 'window-open') return;
        windowOpenedAt = Date.now();
        setTimeout(() => {
          const broker = taggedBrokerProcesses(tag).find((p) => p.name === 'nats-server');
          if (!broker) return;
          killedAt = Date.now();
          process.kill(broker.pid, 'SIGKILL');
        }, 1500);
      },
    });
    assert.ok(killedAt !== null && windowOpenedAt !== null, 'the broker was found and killed in the window');
    const cell = result.cells[0]!;
    assert.equal(cell.status, 'failed');
    const said = /^nats was killed by SIGKILL \((\d+\.\d+) s into the window\)/.exec(cell.reason ?? '');
    assert.ok(said, `the reason says the broker was killed, and when: ${cell.reason}`);
    // The time it names is when it died, not when the cell ended (4 s window, 5 s drain).
    const saidMs = Number(said[1]) * 1000;
    assert.ok(
      Math.abs(saidMs - (killedAt! - windowOpenedAt!)) < 1000,
      `${saidMs} ms said, killed ${killedAt! - windowOpenedAt!} ms into the window`,
    );
    assert.deepEqual(taggedBrokerProcesses(tag), [], 'nothing of the broker runs after the run');
  } finally {
    delete process.env[TAG_VARIABLE];
  }
});

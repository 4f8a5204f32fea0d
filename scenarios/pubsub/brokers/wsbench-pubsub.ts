/**
 * wsbench's own pub/sub protocol (docs/protocols/pubsub.md), which its server
 * stacks speak through their own topics: JSON text frames, `{"sub":topic}`
 * answered by `{"subscribed":topic}`, and `{"pub":topic,"msg":payload}`, which
 * the server forwards unchanged to every subscriber of the topic.
 */
import { Confirmations, type BrokerClient, type BrokerProtocol } from './broker-client.js';

export const wsbenchPubSub: BrokerProtocol = {
  name: 'wsbench',
  subprotocols: [],
  async connect(open, { onProblem, onUnexpectedClose }) {
    const handlers = new Map<string, (payload: string) => void>();
    const confirmations = new Map<string, Confirmations>();
    const socket = await open({
      onMessage(data) {
        const raw = typeof data === 'string' ? data : new TextDecoder().decode(data);
        let frame: { pub?: unknown; msg?: unknown; subscribed?: unknown };
        try {
          frame = JSON.parse(raw) as typeof frame;
        } catch {
          return onProblem(`not JSON: ${raw.slice(0, 80)}`);
        }
        if (typeof frame.pub === 'string' && typeof frame.msg === 'string') {
          const handler = handlers.get(frame.pub);
          return handler
            ? handler(frame.msg)
            : onProblem(`a message on "${frame.pub}", which this connection never subscribed to`);
        }
        if (typeof frame.subscribed === 'string' && confirmations.get(frame.subscribed)?.answer()) return;
        onProblem(`neither {"pub","msg"} nor an awaited {"subscribed"}: ${raw.slice(0, 80)}`);
      },
      onUnexpectedClose(reason) {
        for (const waiting of confirmations.values()) waiting.failAll(reason);
        onUnexpectedClose?.(reason);
      },
    });
    const client: BrokerClient = {
      subscribe(topic, onMessage) {
        handlers.set(topic, onMessage);
        let waiting = confirmations.get(topic);
        if (!waiting) confirmations.set(topic, (waiting = new Confirmations()));
        const confirmed = waiting.expect(`{"subscribed":"${topic}"}`);
        socket.send(JSON.stringify({ sub: topic }));
        return confirmed;
      },
      publish(topic, payload) {
        socket.send(JSON.stringify({ pub: topic, msg: payload }));
      },
      close: () => socket.close(),
    };
    return client;
  },
};

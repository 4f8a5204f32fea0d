/**
 * GraphQL subscriptions over the graphql-ws protocol (subprotocol
 * `graphql-transport-ws`): JSON text frames. connection_init, answered by
 * connection_ack; a subscription is a `subscribe` operation of
 * `subscription ($topic: String!) { messages(topic: $topic) { subscribed payload } }`,
 * whose events arrive as `next`; a publication is a `subscribe` operation of the
 * mutation `publish(topic, payload)`, whose one `next` and `complete` are read and
 * dropped. graphql-ws confirms no subscription, so the broker's schema does: its
 * first event of every subscription is `{ subscribed: true }`
 * (examples/brokers/graphql-ws-broker.mjs, docs/protocols/pubsub.md).
 */
import { Confirmations, type BrokerClient, type BrokerProtocol } from './broker-client.js';

const SUBSCRIPTION = 'subscription ($topic: String!) { messages(topic: $topic) { subscribed payload } }';
const PUBLISH = 'mutation ($topic: String!, $payload: String!) { publish(topic: $topic, payload: $payload) }';

interface Frame {
  type?: unknown;
  id?: unknown;
  payload?: { data?: { messages?: { subscribed?: unknown; payload?: unknown } } } | unknown[];
}

export const graphqlWsPubSub: BrokerProtocol = {
  name: 'graphql-ws',
  subprotocols: ['graphql-transport-ws'],
  async connect(open, { onProblem, onUnexpectedClose }) {
    const acked = new Confirmations();
    const subscriptions = new Map<string, { confirmed: Confirmations; onMessage(payload: string): void }>();
    const publications = new Set<string>();
    const socket = await open({
      protocols: ['graphql-transport-ws'],
      onMessage(data) {
        const raw = typeof data === 'string' ? data : new TextDecoder().decode(data);
        let frame: Frame;
        try {
          frame = JSON.parse(raw) as Frame;
        } catch {
          return onProblem(`not JSON: ${raw.slice(0, 80)}`);
        }
        const id = typeof frame.id === 'string' ? frame.id : '';
        switch (frame.type) {
          case 'next': {
            if (publications.has(id)) return;
            const subscription = subscriptions.get(id);
            const event = Array.isArray(frame.payload) ? undefined : frame.payload?.data?.messages;
            if (!subscription || !event)
              return onProblem(`a "next" that is no event of a subscription: ${raw.slice(0, 80)}`);
            if (event.subscribed === true) subscription.confirmed.answer();
            else if (typeof event.payload === 'string') subscription.onMessage(event.payload);
            else onProblem(`an event without a payload: ${raw.slice(0, 80)}`);
            return;
          }
          case 'complete':
            if (!publications.delete(id)) onProblem(`the broker completed subscription ${id}`);
            return;
          case 'error':
            return onProblem(
              `the broker answered operation ${id} with errors: ${JSON.stringify(frame.payload).slice(0, 120)}`,
            );
          case 'connection_ack':
            acked.answer();
            return;
          case 'ping':
            socket.send(JSON.stringify({ type: 'pong' }));
            return;
          case 'pong':
            return;
          default:
            onProblem(`a graphql-ws message the client does not expect: ${raw.slice(0, 80)}`);
        }
      },
      onUnexpectedClose(reason) {
        acked.failAll(reason);
        for (const s of subscriptions.values()) s.confirmed.failAll(reason);
        onUnexpectedClose?.(reason);
      },
    });
    const ready = acked.expect('connection_ack');
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await ready;
    let nextId = 1;
    const client: BrokerClient = {
      subscribe(topic, onMessage) {
        const id = `s${nextId++}`;
        const confirmed = new Confirmations();
        subscriptions.set(id, { confirmed, onMessage });
        const done = confirmed.expect(`the first event of the subscription to ${topic}`);
        socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: SUBSCRIPTION, variables: { topic } } }));
        return done;
      },
      publish(topic, payload) {
        const id = `p${nextId++}`;
        publications.add(id);
        socket.send(
          JSON.stringify({ id, type: 'subscribe', payload: { query: PUBLISH, variables: { topic, payload } } }),
        );
      },
      close: () => socket.close(),
    };
    return client;
  },
};

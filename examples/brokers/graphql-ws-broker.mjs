#!/usr/bin/env node
/**
 * GraphQL subscriptions as a pub/sub broker, for wsbench's pubsub scenario:
 * graphql-ws's useServer on a `ws` WebSocketServer (127.0.0.1, compression
 * off), the way graphql-ws documents a server, with an in-memory topic map as
 * the pub/sub engine. The schema:
 *
 *   type Event { subscribed: Boolean!, payload: String }
 *   type Query { ok: Boolean! }
 *   type Mutation { publish(topic: String!, payload: String!): Boolean! }
 *   type Subscription { messages(topic: String!): Event! }
 *
 * A subscription's first event is `{ subscribed: true }`, sent once it is in the
 * topic map: graphql-ws has no acknowledgement of a subscription, and a client
 * must know when publications start to reach it. Every later event carries one
 * publication's payload.
 *
 *   wsbench run pubsub --broker graphql-ws --server-cmd 'gql=node examples/brokers/graphql-ws-broker.mjs --port {port}'
 *
 * graphql and graphql-ws are development dependencies of the wsbench checkout:
 * in a project with wsbench installed from npm, `npm install graphql@16.15.0 graphql-ws@6.4.2`.
 * Exits 77 (the cell is n/a) when they cannot be loaded.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error('usage: graphql-ws-broker.mjs --port PORT [--host 127.0.0.1]');
  process.exit(2);
}
let graphql;
let useServer;
let WebSocketServer;
try {
  graphql = await import('graphql');
  ({ useServer } = await import('graphql-ws/use/ws'));
  ({ WebSocketServer } = await import('ws'));
} catch (error) {
  console.error(
    `the graphql-ws broker needs graphql, graphql-ws and ws (npm install graphql@16.15.0 graphql-ws@6.4.2 ws): ${error.message.split('\n')[0]}`,
  );
  process.exit(77);
}

const schema = graphql.buildSchema(`
  type Event { subscribed: Boolean!, payload: String }
  type Query { ok: Boolean! }
  type Mutation { publish(topic: String!, payload: String!): Boolean! }
  type Subscription { messages(topic: String!): Event! }
`);

/** topic -> the queues of its subscriptions. */
const topics = new Map();

/** One subscription's events as an async iterator: pushed by publish, pulled by graphql-ws. */
function subscription(topic) {
  const queue = [{ messages: { subscribed: true, payload: null } }];
  let wake = null;
  let open = true;
  const listener = (event) => {
    queue.push(event);
    wake?.();
  };
  let members = topics.get(topic);
  if (!members) topics.set(topic, (members = new Set()));
  members.add(listener);
  const leave = () => {
    open = false;
    members.delete(listener);
    if (members.size === 0) topics.delete(topic);
    wake?.();
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      while (open && queue.length === 0) await new Promise((resolve) => (wake = resolve));
      wake = null;
      return open ? { value: queue.shift(), done: false } : { value: undefined, done: true };
    },
    async return() {
      leave();
      return { value: undefined, done: true };
    },
  };
}

const roots = {
  query: { ok: () => true },
  mutation: {
    publish({ topic, payload }) {
      const event = { messages: { subscribed: false, payload } };
      for (const listener of topics.get(topic) ?? []) listener(event);
      return true;
    },
  },
  subscription: { messages: ({ topic }) => subscription(topic) },
};

const server = new WebSocketServer({ host: values.host, port, perMessageDeflate: false });
useServer({ schema, roots }, server);
server.on('listening', () => console.log(`graphql-ws on ws://${values.host}:${port}/`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

/**
 * The `ws` server on node:http (node:https with TLS): compression off unless the cell asks, limits pinned.
 * ws has no topics of its own: pub/sub is the topic map its users write (topic-map.ts), published by a
 * loop over the topic's sockets, as broadcast loops over every client.
 */
import { WebSocketServer, type WebSocket } from 'ws';
import { probeWs } from './ws-build.js';
import type { RunningServer, ServerAdapter, ServerConnection } from '../../shared/types/adapter-types.js';
import { createNodeServer, listenOnFreePort } from './http-routes.js';
import { serverUrls } from './server-urls.js';
import { NODE_SHARES_PORTS } from '../runtimes/reuse-port.js';
import { splitIntoFragments } from './fragments.js';
import { WS_DEFLATE_OPTIONS, WS_DEFLATE_SETTINGS } from './deflate-settings.js';
import { TopicMap } from './topic-map.js';

const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;

export const wsServer: ServerAdapter = {
  name: 'ws',
  protocol: 'websocket',
  runtime: 'node',
  capabilities: {
    fragmentControl: true,
    httpRoutes: true,
    deflate: true,
    sharedPort: NODE_SHARES_PORTS,
    tls: true,
    sendQueueLimit: false,
  },
  settings: {
    ...WS_DEFLATE_SETTINGS,
    maxPayloadBytes: MAX_PAYLOAD_BYTES,
    backpressureLimit: 'none: ws queues without limit and never drops',
    idleTimeout: 'none',
    autoPong: true,
    utf8Validation: true,
    tls: "when on: node:https, Node's default TLS versions, ciphers and session tickets",
    pubsub: 'a Map of topic to Set of sockets (ws has no topics); publish loops over the set',
  },
  probe: probeWs,

  async start({ host, handlers, deflate = false, tls, ...share }): Promise<RunningServer> {
    const http = createNodeServer(handlers.routes, tls);
    const wss = new WebSocketServer({
      server: http,
      perMessageDeflate: deflate ? { ...WS_DEFLATE_OPTIONS } : false,
      maxPayload: MAX_PAYLOAD_BYTES,
      autoPong: true,
      skipUTF8Validation: false,
    });
    let nextId = 0;
    const topics = new TopicMap<WebSocket>();

    wss.on('connection', (socket: WebSocket) => {
      const connection = wrap(socket, nextId++, topics);
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        handlers.onMessage(connection, isBinary ? data : data.toString());
      });
      socket.on('close', () => {
        topics.leave(socket);
        handlers.onClose(connection);
      });
      socket.on('error', () => socket.terminate());
      handlers.onConnection(connection);
    });

    const port = await listenOnFreePort(http, host, share);
    return {
      ...serverUrls(host, port, { tls: tls !== undefined }),
      broadcast(data) {
        for (const client of wss.clients) if (client.readyState === 1) client.send(data);
      },
      publish(topic, data) {
        for (const client of topics.subscribers(topic)) if (client.readyState === 1) client.send(data);
      },
      stackDrops: () => 0, // ws queues without limit; it never drops
      async close() {
        for (const client of wss.clients) client.terminate();
        wss.close();
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      },
    };
  },
};

function wrap(socket: WebSocket, id: number, topics: TopicMap<WebSocket>): ServerConnection {
  return {
    id,
    send(data) {
      socket.send(data);
      return true;
    },
    sendFragmented(data, fragmentBytes) {
      const binary = typeof data !== 'string';
      const parts = splitIntoFragments(data, fragmentBytes);
      parts.forEach((part, index) => {
        socket.send(part, { binary, fin: index === parts.length - 1 });
      });
      return true;
    },
    bufferedAmountBytes: () => socket.bufferedAmount,
    close: () => socket.close(),
    subscribe: (topic) => topics.subscribe(socket, topic),
    unsubscribe: (topic) => topics.unsubscribe(socket, topic),
  };
}

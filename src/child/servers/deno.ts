/**
 * Deno.serve with Deno.upgradeWebSocket, and the scenario's HTTP routes on the
 * same port. Runs in a Deno child; in Node only probe() is called. Deno's
 * WebSocket has no permessage-deflate, no frame control and no queue limit
 * (it never drops); its ping-based idle timeout is turned off. TLS is Deno's
 * own (rustls), given the PEM text. Deno has no topics of its own: pub/sub is
 * the topic map its users write (topic-map.ts), published by a loop.
 */
import type { RunningServer, ServerAdapter, ServerConnection } from '../../shared/types/adapter-types.js';
import { denoApi, type WebSocketLike } from '../../shared/runtime-globals.js';
import { probeRuntime } from '../runtimes/probe.js';
import { serveFetchRoute, wantsWebSocket } from './fetch-routes.js';
import { serverUrls } from './server-urls.js';
import { TopicMap } from './topic-map.js';

const OPEN = 1;

export const denoServer: ServerAdapter = {
  name: 'deno',
  protocol: 'websocket',
  runtime: 'deno',
  capabilities: {
    fragmentControl: false,
    httpRoutes: true,
    deflate: false,
    sharedPort: true,
    tls: true,
    sendQueueLimit: false,
  },
  settings: {
    perMessageDeflate: 'not supported by Deno',
    maxPayload: "Deno's built-in limit (not settable)",
    backpressureLimit: 'none: Deno queues without limit and never drops',
    idleTimeoutSec: 0,
    binaryType: 'arraybuffer',
    tls: "when on: Deno.serve's cert and key, rustls' default versions and ciphers",
    pubsub: 'a Map of topic to Set of sockets (Deno has no topics); publish loops over the set',
  },
  probe: () => probeRuntime('deno'),

  async start({ host, handlers, deflate = false, port: joinPort = 0, sharePort = false, tls }): Promise<RunningServer> {
    const deno = denoApi();
    if (!deno) throw new Error('the deno server runs under Deno only');
    if (deflate) throw new Error('Deno cannot negotiate permessage-deflate');
    let nextId = 0;
    const sockets = new Set<WebSocketLike>();
    const topics = new TopicMap<WebSocketLike>();
    const listenOptions = {
      hostname: host,
      port: joinPort,
      reusePort: sharePort,
      onListen: () => undefined,
      ...(tls ? { cert: tls.certPem, key: tls.keyPem } : {}),
    };
    const server = deno.serve(listenOptions, (request) => {
      if (!wantsWebSocket(request)) return serveFetchRoute(request, handlers.routes);
      const { socket, response } = deno.upgradeWebSocket(request, { idleTimeout: 0 });
      socket.binaryType = 'arraybuffer';
      const connection = wrap(socket, nextId++, topics);
      socket.addEventListener('open', () => {
        sockets.add(socket);
        handlers.onConnection(connection);
      });
      socket.addEventListener('message', (event) => {
        const data = event.data as string | ArrayBuffer;
        handlers.onMessage(connection, typeof data === 'string' ? data : new Uint8Array(data));
      });
      socket.addEventListener('close', () => {
        topics.leave(socket);
        if (sockets.delete(socket)) handlers.onClose(connection);
      });
      socket.addEventListener('error', () => undefined); // the close event that follows carries the news
      return response;
    });
    const port = server.addr.port;
    return {
      ...serverUrls(host, port, { tls: tls !== undefined }),
      broadcast(data) {
        for (const socket of sockets) if (socket.readyState === OPEN) socket.send(data);
      },
      publish(topic, data) {
        for (const socket of topics.subscribers(topic)) if (socket.readyState === OPEN) socket.send(data);
      },
      stackDrops: () => 0,
      async close() {
        for (const socket of sockets) socket.close(1000);
        await server.shutdown();
      },
    };
  },
};

function wrap(socket: WebSocketLike, id: number, topics: TopicMap<WebSocketLike>): ServerConnection {
  return {
    id,
    send(data) {
      if (socket.readyState !== OPEN) return false;
      socket.send(data);
      return true;
    },
    bufferedAmountBytes: () => socket.bufferedAmount,
    close: () => socket.close(1000),
    subscribe: (topic) => topics.subscribe(socket, topic),
    unsubscribe: (topic) => topics.unsubscribe(socket, topic),
  };
}

/**
 * Bun.serve: Bun's own WebSocket server (uWS inside) with the scenario's HTTP
 * routes on the same port. Runs in a Bun child; in Node only probe() is called.
 * Compression off unless the cell asks, limits pinned like uWS's, broadcast by
 * publish(). Bun cannot send one message as several frames. TLS is Bun's own
 * (BoringSSL), given the PEM text. Pub/sub is Bun's own: ws.subscribe(topic) and
 * server.publish(topic), as its users write it.
 */
import type { MessageData, RunningServer, ServerAdapter, ServerConnection } from '../../shared/types/adapter-types.js';
import { bunApi, type BunServerWebSocket } from '../../shared/runtime-globals.js';
import { probeRuntime } from '../runtimes/probe.js';
import { serveFetchRoute, wantsWebSocket } from './fetch-routes.js';
import { serverUrls } from './server-urls.js';

const BROADCAST_TOPIC = 'wsbench/all';
const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;
/** 512 MiB, as for uWS: far above anything a scenario queues, so a slow reader is not skipped. */
const BACKPRESSURE_LIMIT_BYTES = 512 * 1024 * 1024;
/** Bun's send(): bytes written, -1 when queued behind backpressure, 0 when dropped. */
const SEND_DROPPED = 0;
const HTTP_IDLE_TIMEOUT_SEC = 10;

interface SocketData {
  connection?: ServerConnection;
  /** Set by Bun's close handler: after it the socket must not be used. */
  closed?: boolean;
}

export const bunServer: ServerAdapter = {
  name: 'bun',
  protocol: 'websocket',
  runtime: 'bun',
  capabilities: {
    fragmentControl: false,
    httpRoutes: true,
    deflate: true,
    sharedPort: true,
    tls: true,
    sendQueueLimit: true,
  },
  settings: {
    perMessageDeflate:
      'off unless the cell asks (deflate=on): shared compressor and decompressor, every message compressed',
    maxPayloadBytes: MAX_PAYLOAD_BYTES,
    backpressureLimitBytes: BACKPRESSURE_LIMIT_BYTES,
    closeOnBackpressureLimit: false,
    sendQueueLimit:
      'a scenario may ask for its own (slow-consumer: backpressureLimit, onLimit): backpressureLimit and closeOnBackpressureLimit then follow the cell',
    idleTimeoutSec: 0,
    sendPings: false,
    publishToSelf: false,
    httpIdleTimeoutSec: HTTP_IDLE_TIMEOUT_SEC,
    tls: "when on: Bun.serve's tls option, Bun's default versions and ciphers on BoringSSL",
    pubsub: "Bun's own topics: ws.subscribe(topic), server.publish(topic, message)",
  },
  probe: () => probeRuntime('bun'),

  async start({
    host,
    handlers,
    deflate = false,
    port = 0,
    sharePort = false,
    tls,
    sendQueueLimit,
  }): Promise<RunningServer> {
    const bun = bunApi();
    if (!bun) throw new Error('the bun server runs under Bun only');
    let nextId = 0;
    let dropped = 0;
    const count = (status: number): boolean => {
      if (status === SEND_DROPPED) dropped += 1;
      return status !== SEND_DROPPED;
    };
    const sockets = new Set<BunServerWebSocket<SocketData>>();
    const server = bun.serve({
      hostname: host,
      port,
      reusePort: sharePort,
      idleTimeout: HTTP_IDLE_TIMEOUT_SEC,
      ...(tls ? { tls: { cert: tls.certPem, key: tls.keyPem } } : {}),
      fetch(request: Request, self: { upgrade(request: Request, options: { data: SocketData }): boolean }) {
        if (wantsWebSocket(request)) {
          if (self.upgrade(request, { data: {} })) return undefined;
          return new Response('WebSocket upgrade failed', { status: 400 });
        }
        return serveFetchRoute(request, handlers.routes);
      },
      websocket: {
        perMessageDeflate: deflate ? { compress: 'shared', decompress: 'shared' } : false,
        maxPayloadLength: MAX_PAYLOAD_BYTES,
        backpressureLimit: sendQueueLimit?.bytes ?? BACKPRESSURE_LIMIT_BYTES,
        closeOnBackpressureLimit: sendQueueLimit?.onLimit === 'close',
        idleTimeout: 0,
        sendPings: false,
        publishToSelf: false,
        open(socket: BunServerWebSocket<SocketData>) {
          const connection = wrap(socket, nextId++, count, deflate);
          socket.data.connection = connection;
          socket.subscribe(BROADCAST_TOPIC);
          sockets.add(socket);
          handlers.onConnection(connection);
        },
        message(socket: BunServerWebSocket<SocketData>, message: string | Uint8Array) {
          handlers.onMessage(socket.data.connection!, message as MessageData);
        },
        close(socket: BunServerWebSocket<SocketData>) {
          socket.data.closed = true;
          sockets.delete(socket);
          handlers.onClose(socket.data.connection!);
        },
      },
    });
    return {
      ...serverUrls(host, server.port, { tls: tls !== undefined }),
      broadcast(data) {
        server.publish(BROADCAST_TOPIC, data, deflate);
      },
      publish(topic, data) {
        server.publish(topic, data, deflate);
      },
      stackDrops: () => dropped,
      async close() {
        for (const socket of sockets) socket.close(1000);
        await server.stop(true);
      },
    };
  },
};

/** A closed Bun socket answers like the other stacks do: send returns false, close does nothing. */
function wrap(
  socket: BunServerWebSocket<SocketData>,
  id: number,
  count: (status: number) => boolean,
  compress: boolean,
): ServerConnection {
  return {
    id,
    send: (data) => !socket.data.closed && count(socket.send(data, compress)),
    bufferedAmountBytes: () => (socket.data.closed ? 0 : socket.getBufferedAmount()),
    close: () => {
      if (!socket.data.closed) socket.close(1000);
    },
    subscribe: (topic) => void (socket.data.closed || socket.subscribe(topic)),
    unsubscribe: (topic) => void (socket.data.closed || socket.unsubscribe(topic)),
  };
}

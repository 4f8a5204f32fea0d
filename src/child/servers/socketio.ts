/**
 * socket.io on node:http (node:https with TLS), WebSocket transport only (no
 * long-polling upgrade dance), compression off unless the cell asks. Messages
 * travel as the `m` event. Pub/sub is socket.io's rooms: socket.join(topic) and
 * io.to(topic).emit(), as its users write it.
 */
import { Server, type Socket } from 'socket.io';
import { probeByImport } from '../../shared/package-version.js';
import type { RunningServer, ServerAdapter, ServerConnection } from '../../shared/types/adapter-types.js';
import { createNodeServer, listenOnFreePort } from './http-routes.js';
import { serverUrls } from './server-urls.js';
import { NODE_SHARES_PORTS } from '../runtimes/reuse-port.js';
import { WS_DEFLATE_OPTIONS, WS_DEFLATE_SETTINGS } from './deflate-settings.js';

export const MESSAGE_EVENT = 'm';
const MAX_HTTP_BUFFER_BYTES = 64 * 1024 * 1024;
const PING_INTERVAL_MS = 25_000;
const PING_TIMEOUT_MS = 60_000;

export const socketioServer: ServerAdapter = {
  name: 'socketio',
  protocol: 'socket.io',
  runtime: 'node',
  capabilities: {
    fragmentControl: false,
    httpRoutes: true,
    deflate: true,
    sharedPort: NODE_SHARES_PORTS,
    tls: true,
    sendQueueLimit: false,
  },
  settings: {
    transports: 'websocket',
    ...WS_DEFLATE_SETTINGS,
    httpCompression: false,
    maxHttpBufferBytes: MAX_HTTP_BUFFER_BYTES,
    pingIntervalMs: PING_INTERVAL_MS,
    pingTimeoutMs: PING_TIMEOUT_MS,
    connectionStateRecovery: false,
    tls: "when on: node:https, Node's default TLS versions, ciphers and session tickets",
    pubsub: 'rooms: socket.join(topic), io.to(topic).emit(event, message), on the default in-memory adapter',
  },
  probe: () => probeByImport('socket.io', () => import('socket.io')),

  async start({ host, handlers, deflate = false, tls, ...share }): Promise<RunningServer> {
    const http = createNodeServer(handlers.routes, tls);
    const io = new Server(http, {
      transports: ['websocket'],
      perMessageDeflate: deflate ? { ...WS_DEFLATE_OPTIONS } : false,
      httpCompression: false,
      serveClient: false,
      maxHttpBufferSize: MAX_HTTP_BUFFER_BYTES,
      pingInterval: PING_INTERVAL_MS,
      pingTimeout: PING_TIMEOUT_MS,
    });
    let nextId = 0;

    io.on('connection', (socket: Socket) => {
      const connection = wrap(socket, nextId++);
      socket.on(MESSAGE_EVENT, (data: string | Buffer) => handlers.onMessage(connection, data));
      socket.on('disconnect', () => handlers.onClose(connection));
      handlers.onConnection(connection);
    });

    const port = await listenOnFreePort(http, host, share);
    return {
      ...serverUrls(host, port, { tls: tls !== undefined, socketio: true }),
      broadcast: (data) => void io.emit(MESSAGE_EVENT, data),
      publish: (topic, data) => void io.to(topic).emit(MESSAGE_EVENT, data),
      stackDrops: () => 0, // socket.io buffers per socket without limit
      async close() {
        io.disconnectSockets(true);
        await new Promise<void>((resolve) => io.close(() => resolve()));
        http.closeAllConnections();
      },
    };
  },
};

function wrap(socket: Socket, id: number): ServerConnection {
  return {
    id,
    send(data) {
      socket.emit(MESSAGE_EVENT, data);
      return true;
    },
    // socket.io frames its own packets; it offers no control over WebSocket fragmentation.
    bufferedAmountBytes: () => underlyingBufferedAmount(socket),
    close: () => void socket.disconnect(true),
    subscribe: (topic) => void socket.join(topic),
    unsubscribe: (topic) => void socket.leave(topic),
  };
}

/** Packets of engine.io's queue counted one by one; beyond them, the rest are taken to be of their mean size. */
const COUNTED_PACKETS = 1000;

/**
 * What socket.io holds for a connection and has not written: the ws socket's queue under
 * engine.io's transport, and engine.io's own packets waiting behind it (its transport takes the
 * next batch only once ws has written the last one, so a client that stops reading leaves them
 * piling up there), by their length: the first COUNTED_PACKETS exactly, the rest estimated, so a
 * queue of a million packets costs no more to read than one of a thousand.
 */
function underlyingBufferedAmount(socket: Socket): number {
  const conn = socket.conn as unknown as {
    transport?: { socket?: { bufferedAmount?: number } };
    writeBuffer?: Array<{ data?: unknown }>;
  };
  const packets = conn.writeBuffer ?? [];
  const counted = Math.min(packets.length, COUNTED_PACKETS);
  let countedBytes = 0;
  for (let i = 0; i < counted; i++) {
    const data = packets[i]!.data;
    countedBytes += typeof data === 'string' ? data.length : data instanceof Uint8Array ? data.byteLength : 0;
  }
  const waiting = counted === 0 ? 0 : Math.round((countedBytes / counted) * packets.length);
  return (conn.transport?.socket?.bufferedAmount ?? 0) + waiting;
}

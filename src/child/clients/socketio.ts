/**
 * socket.io-client, WebSocket transport only, no reconnection (a drop is a drop),
 * compression off unless the cell asks. Over https:// engine.io-client hands the
 * TLS options to its `ws` socket, so TLS is Node's tls.connect as for the ws client.
 */
import { io, type Socket } from 'socket.io-client';
import { probeByImport } from '../../shared/package-version.js';
import type { ClientAdapter, ClientConnection } from '../../shared/types/adapter-types.js';
import { WS_DEFLATE_OPTIONS, WS_DEFLATE_SETTINGS } from '../servers/deflate-settings.js';
import { isTlsUrl, nodeTlsOptions, tlsSessionOf } from './tls-trust.js';
import { SocketPhases } from './socket-phases.js';
import { readThrottle } from './read-throttle.js';
import type { Socket as NetSocket } from 'node:net';

const MESSAGE_EVENT = 'm';

export const socketioClient: ClientAdapter = {
  name: 'socketio',
  protocol: 'socket.io',
  runtime: 'node',
  capabilities: {
    wireTap: false,
    deflate: true,
    tls: true,
    tlsInsecure: true,
    tlsSession: true,
    pauseReading: true,
    handshakePhases: true,
    httpClient: true,
  },
  settings: {
    transports: 'websocket',
    ...WS_DEFLATE_SETTINGS,
    reconnection: false,
    connectTimeoutMs: 30_000,
    tls: "when on: Node's tls.connect (through engine.io-client's ws) trusting only the given CA, a full handshake per connection",
  },
  probe: () => probeByImport('socket.io-client', () => import('socket.io-client')),

  connect(url, { onMessage, onUnexpectedClose, localAddress, onWireData, deflate, tls, protocols }) {
    // engine.io-client owns its transport socket and offers no raw byte stream to tap.
    if (onWireData)
      return Promise.reject(
        new Error('socket.io client cannot hand over wire data: engine.io-client exposes no raw socket'),
      );
    if (protocols?.length)
      return Promise.reject(
        new Error('socket.io client cannot offer WebSocket subprotocols: engine.io-client sets its own handshake'),
      );
    return new Promise<ClientConnection>((resolve, reject) => {
      const socket: Socket = io(url, {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        perMessageDeflate: deflate ? { ...WS_DEFLATE_OPTIONS } : false,
        timeout: 30_000,
        ...(localAddress ? { localAddress } : {}),
        ...nodeTlsOptions(tls),
      } as unknown as Parameters<typeof io>[1]);
      // io() opens the engine and its ws socket at once: the upgrade's request is there to watch.
      const phases = new SocketPhases();
      underlyingSocket(socket)?._req?.once('socket', (raw) => phases.watch(raw, isTlsUrl(url)));
      let closing = false;
      socket.once('connect_error', (error: Error) => {
        socket.close();
        reject(new Error(`socket.io client could not connect: ${error.message}${underlyingReason(error)}`));
      });
      socket.on(MESSAGE_EVENT, (data: string | ArrayBuffer | Buffer) =>
        onMessage(typeof data === 'string' ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : data),
      );
      socket.once('connect', () => {
        phases.opened();
        const raw = underlyingSocket(socket)?._socket as NetSocket | undefined;
        const session = tlsSessionOf(raw);
        socket.on('disconnect', (reason: string) => {
          if (!closing) onUnexpectedClose(`disconnected: ${reason}`);
        });
        resolve({
          send: (data) => void socket.emit(MESSAGE_EVENT, data),
          bufferedAmountBytes: () => underlyingBufferedAmount(socket),
          extensions: () => underlyingSocket(socket)?.extensions ?? '',
          tlsSession: () => session,
          handshakePhases: () => phases.result(),
          ...(raw ? { throttleReading: readThrottle(raw) } : {}),
          close: async () => {
            closing = true;
            socket.close();
          },
        });
      });
    });
  },
};

/**
 * engine.io-client's "websocket error" keeps the ws error event as its
 * description: its message says why (a refused certificate, a refused connection).
 */
function underlyingReason(error: Error): string {
  const said = (error as { description?: { message?: unknown } }).description?.message;
  return typeof said === 'string' && said !== '' ? `: ${said}` : '';
}

/** What wsbench reads off the ws socket under engine.io-client's transport (`_socket`: ws's own net or TLS socket). */
interface EngineWebSocket {
  bufferedAmount?: number;
  extensions?: string;
  _socket?: unknown;
  /** ws's upgrade request while it connects. */
  _req?: { once(event: 'socket', listener: (raw: NetSocket) => void): unknown };
}

/** engine.io-client keeps the ws socket on its transport; reach it for queued bytes, extensions and the TLS session. */
function underlyingSocket(socket: Socket): EngineWebSocket | undefined {
  const transport = socket.io.engine?.transport as unknown as { ws?: EngineWebSocket } | undefined;
  return transport?.ws;
}

function underlyingBufferedAmount(socket: Socket): number {
  return underlyingSocket(socket)?.bufferedAmount ?? 0;
}

/**
 * socket.io-client, WebSocket transport only, no reconnection (a drop is a drop),
 * compression off unless the cell asks.
 */
import { io, type Socket } from 'socket.io-client';
import { probeByImport } from '../package-version.js';
import type { ClientAdapter, ClientConnection } from '../adapter-types.js';
import { WS_DEFLATE_OPTIONS, WS_DEFLATE_SETTINGS } from '../servers/deflate-settings.js';

const MESSAGE_EVENT = 'm';

export const socketioClient: ClientAdapter = {
  name: 'socketio',
  protocol: 'socket.io',
  runtime: 'node',
  capabilities: { wireTap: false, deflate: true },
  settings: { transports: 'websocket', ...WS_DEFLATE_SETTINGS, reconnection: false, connectTimeoutMs: 30_000 },
  probe: () => probeByImport('socket.io-client', () => import('socket.io-client')),

  connect(url, { onMessage, onUnexpectedClose, localAddress, onWireData, deflate }) {
    // engine.io-client owns its transport socket and offers no raw byte stream to tap.
    if (onWireData) return Promise.reject(new Error('socket.io client cannot hand over wire data: engine.io-client exposes no raw socket'));
    return new Promise<ClientConnection>((resolve, reject) => {
      const socket: Socket = io(url, {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        perMessageDeflate: deflate ? { ...WS_DEFLATE_OPTIONS } : false,
        timeout: 30_000,
        ...(localAddress ? { localAddress } : {}),
      } as unknown as Parameters<typeof io>[1]);
      let closing = false;
      socket.once('connect_error', (error: Error) => {
        socket.close();
        reject(new Error(`socket.io client could not connect: ${error.message}`));
      });
      socket.on(MESSAGE_EVENT, (data: string | ArrayBuffer | Buffer) =>
        onMessage(typeof data === 'string' ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : data),
      );
      socket.once('connect', () => {
        socket.on('disconnect', (reason: string) => {
          if (!closing) onUnexpectedClose(`disconnected: ${reason}`);
        });
        resolve({
          send: (data) => void socket.emit(MESSAGE_EVENT, data),
          bufferedAmountBytes: () => underlyingBufferedAmount(socket),
          extensions: () => underlyingSocket(socket)?.extensions ?? '',
          close: async () => {
            closing = true;
            socket.close();
          },
        });
      });
    });
  },
};

/** engine.io-client keeps the ws socket on its transport; reach it for queued bytes and extensions. */
function underlyingSocket(socket: Socket): { bufferedAmount?: number; extensions?: string } | undefined {
  const transport = socket.io.engine?.transport as unknown as { ws?: { bufferedAmount?: number; extensions?: string } } | undefined;
  return transport?.ws;
}

function underlyingBufferedAmount(socket: Socket): number {
  return underlyingSocket(socket)?.bufferedAmount ?? 0;
}

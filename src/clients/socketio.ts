/** socket.io-client, WebSocket transport only, no reconnection (a drop is a drop). */
import { io, type Socket } from 'socket.io-client';
import { probeByImport } from '../package-version.js';
import type { ClientAdapter, ClientConnection } from '../adapter-types.js';

const MESSAGE_EVENT = 'm';

export const socketioClient: ClientAdapter = {
  name: 'socketio',
  protocol: 'socket.io',
  probe: () => probeByImport('socket.io-client', () => import('socket.io-client')),

  connect(url, { onMessage, onUnexpectedClose, localAddress, onWireData }) {
    // engine.io-client owns its transport socket and offers no raw byte stream to tap.
    if (onWireData) return Promise.reject(new Error('socket.io client cannot hand over wire data: engine.io-client exposes no raw socket'));
    return new Promise<ClientConnection>((resolve, reject) => {
      const socket: Socket = io(url, {
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        perMessageDeflate: false,
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
          close: async () => {
            closing = true;
            socket.close();
          },
        });
      });
    });
  },
};

/** engine.io-client keeps the ws socket on its transport; reach it for queued bytes. */
function underlyingBufferedAmount(socket: Socket): number {
  const transport = socket.io.engine?.transport as unknown as { ws?: { bufferedAmount?: number } } | undefined;
  return transport?.ws?.bufferedAmount ?? 0;
}

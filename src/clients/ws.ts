/** The `ws` client, compression off. */
import WebSocket from 'ws';
import { probeByImport } from '../package-version.js';
import type { ClientAdapter, ClientConnection } from '../types.js';

export const wsClient: ClientAdapter = {
  name: 'ws',
  protocol: 'websocket',
  probe: () => probeByImport('ws', () => import('ws')),

  connect(url, { onMessage, onUnexpectedClose, localAddress }) {
    return new Promise<ClientConnection>((resolve, reject) => {
      const socket = new WebSocket(url, { perMessageDeflate: false, ...(localAddress ? { localAddress } : {}) });
      let closing = false;
      const fail = (error: Error): void => reject(new Error(`ws client could not connect: ${error.message}`));
      socket.once('error', fail);
      socket.once('open', () => {
        socket.off('error', fail);
        socket.on('error', () => undefined); // the close event that follows carries the news
        socket.on('message', (data: Buffer, isBinary: boolean) => onMessage(isBinary ? data : data.toString()));
        socket.on('close', (code: number) => {
          if (!closing) onUnexpectedClose(`connection closed by peer (code ${code})`);
        });
        resolve({
          send: (data) => socket.send(data),
          bufferedAmountBytes: () => socket.bufferedAmount,
          close: () =>
            new Promise<void>((done) => {
              closing = true;
              if (socket.readyState === WebSocket.CLOSED) return done();
              socket.once('close', () => done());
              socket.close();
              // A peer that never answers the close handshake must not hold us up.
              setTimeout(() => socket.terminate(), 1000).unref();
            }),
        });
      });
    });
  },
};

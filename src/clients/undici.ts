/** undici's WHATWG WebSocket (the one Node 22 ships as a global), binaryType arraybuffer. */
import { Agent, WebSocket } from 'undici';
import { probeByImport } from '../package-version.js';
import type { ClientAdapter, ClientConnection } from '../types.js';

/** One dispatcher per source address, so many connections can spread over 127.x. */
const agents = new Map<string, Agent>();
function agentFor(localAddress: string): Agent {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new Agent({ connect: { localAddress } });
    agents.set(localAddress, agent);
  }
  return agent;
}

export const undiciClient: ClientAdapter = {
  name: 'undici',
  protocol: 'websocket',
  probe: () => probeByImport('undici', () => import('undici')),

  connect(url, { onMessage, onUnexpectedClose, localAddress }) {
    return new Promise<ClientConnection>((resolve, reject) => {
      const socket = new WebSocket(url, localAddress ? { dispatcher: agentFor(localAddress) } : undefined);
      socket.binaryType = 'arraybuffer';
      let opened = false;
      let closing = false;
      socket.addEventListener('error', (event) => {
        if (!opened) reject(new Error(`undici client could not connect: ${(event as { message?: string }).message ?? 'error'}`));
      });
      socket.addEventListener('message', (event) => {
        const data = event.data as string | ArrayBuffer;
        onMessage(typeof data === 'string' ? data : new Uint8Array(data));
      });
      socket.addEventListener('close', (event) => {
        if (!opened) return reject(new Error(`undici client could not connect: closed with code ${event.code}`));
        if (!closing) onUnexpectedClose(`connection closed by peer (code ${event.code})`);
      });
      socket.addEventListener('open', () => {
        opened = true;
        resolve({
          send: (data) => socket.send(data),
          bufferedAmountBytes: () => socket.bufferedAmount,
          close: () =>
            new Promise<void>((done) => {
              closing = true;
              if (socket.readyState === WebSocket.CLOSED) return done();
              socket.addEventListener('close', () => done());
              socket.close();
              setTimeout(done, 1000).unref();
            }),
        });
      });
    });
  },
};

/**
 * How a page opens one connection: the browser's own WebSocket (binaryType
 * arraybuffer; the browser always offers permessage-deflate, and the server's
 * setting decides), or socket.io's browser client (WebSocket transport only, no
 * reconnection, as the socketio stack pins it). A page sees no socket, so a
 * connection shows only the time from `new WebSocket()` to open, and no TLS session.
 */
import type { ClientConnection, HandshakePhases, MessageData, TlsSession } from '../../shared/types/adapter-types.js';
import type { PageConnector } from '../../shared/browser-bridge.js';
import { page, type BrowserWebSocket } from './page-globals.js';

interface OpenOptions {
  onMessage(data: MessageData): void;
  /** Closed (or failed once open) without the scenario asking. */
  onClose(reason: string): void;
  /** WebSocket subprotocols to offer (an MQTT or STOMP broker wants its own). */
  protocols?: string[];
}

/** A connection being opened: `opened` settles once, with the connection or the reason it did not open. */
interface Opening {
  opened: Promise<ClientConnection>;
  /** Gives it up, open or not (the engine refused it). */
  abandon(): void;
}

const CLOSE_WAIT_MS = 1000;
const SOCKET_IO_MESSAGE = 'm';

export function openConnection(connector: PageConnector, url: string, options: OpenOptions): Opening {
  return connector === 'socket.io' ? openSocketIo(url, options) : openWebSocket(url, options);
}

function sessionOf(url: string): TlsSession {
  return /^(wss|https):/i.test(url)
    ? { protocol: null, cipher: null, reason: "a page cannot read its connection's TLS session" }
    : { protocol: null, cipher: null, reason: 'not a TLS connection' };
}

function phasesFrom(startMs: number, openMs: number): HandshakePhases {
  return {
    tcpConnectUs: null,
    tlsHandshakeUs: null,
    upgradeUs: null,
    totalUs: (openMs - startMs) * 1000,
    reason: 'a page sees no socket: only the time from connect to open',
  };
}

function openWebSocket(url: string, { onMessage, onClose, protocols }: OpenOptions): Opening {
  const startMs = performance.now();
  const socket: BrowserWebSocket = new page.WebSocket(url, protocols ?? []);
  socket.binaryType = 'arraybuffer';
  let opened = false;
  let closing = false;
  const closed = new Promise<void>((resolve) => socket.addEventListener('close', () => resolve()));
  const result = new Promise<ClientConnection>((resolve, reject) => {
    // The browser gives a script no reason for a failed handshake (by design): the close code is all there is.
    socket.addEventListener('close', (event) => {
      if (!opened)
        reject(
          new Error(
            `the browser could not open the WebSocket (close code ${event.code}${event.reason ? `: ${event.reason}` : ''})`,
          ),
        );
      else if (!closing) onClose(`connection closed by peer (code ${event.code})`);
    });
    socket.addEventListener('message', (event) => {
      const data = event.data as string | ArrayBuffer;
      onMessage(typeof data === 'string' ? data : new Uint8Array(data));
    });
    socket.addEventListener('open', () => {
      const phases = phasesFrom(startMs, performance.now());
      opened = true;
      const session = sessionOf(url);
      resolve({
        send: (data) => socket.send(data),
        bufferedAmountBytes: () => socket.bufferedAmount,
        extensions: () => socket.extensions,
        tlsSession: () => session,
        handshakePhases: () => phases,
        close: () => {
          closing = true;
          if (socket.readyState !== 3) socket.close(1000);
          return Promise.race([closed, new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS))]);
        },
      });
    });
  });
  return {
    opened: result,
    abandon: () => {
      closing = true;
      if (socket.readyState !== 3) socket.close(1000);
    },
  };
}

/** socket.io's browser client, as socket.io-client's own dist/ bundle ships it (loaded once). */
interface SocketIoSocket {
  io: { engine?: { transport?: { ws?: { bufferedAmount?: number; extensions?: string } } } };
  on(event: string, listener: (...args: never[]) => void): unknown;
  once(event: string, listener: (...args: never[]) => void): unknown;
  emit(event: string, data: unknown): unknown;
  close(): unknown;
}
type SocketIoFactory = (url: string, options: Record<string, unknown>) => SocketIoSocket;
let socketIo: Promise<SocketIoFactory> | null = null;

function loadSocketIo(): Promise<SocketIoFactory> {
  // A bare specifier the page's import map points at socket.io-client's browser bundle.
  const specifier = 'socket.io-client';
  socketIo ??= import(specifier).then((module: { io: SocketIoFactory }) => module.io);
  return socketIo;
}

function openSocketIo(url: string, { onMessage, onClose, protocols }: OpenOptions): Opening {
  if (protocols?.length) {
    const refused = Promise.reject(
      new Error("socket.io's browser client cannot offer WebSocket subprotocols: engine.io sets its own handshake"),
    );
    return { opened: refused, abandon: () => undefined };
  }
  const startMs = performance.now();
  let socket: SocketIoSocket | null = null;
  let abandoned = false;
  let closing = false;
  const result = loadSocketIo().then(
    (io) =>
      new Promise<ClientConnection>((resolve, reject) => {
        if (abandoned) return reject(new Error('given up before it opened'));
        const s = (socket = io(url, {
          transports: ['websocket'],
          reconnection: false,
          forceNew: true,
          timeout: 30_000,
        }));
        const ws = (): { bufferedAmount?: number; extensions?: string } | undefined => s.io.engine?.transport?.ws;
        s.once('connect_error', (error: Error) => {
          s.close();
          reject(new Error(`socket.io client could not connect: ${error.message}`));
        });
        s.on(SOCKET_IO_MESSAGE, (data: string | ArrayBuffer) =>
          onMessage(typeof data === 'string' ? data : new Uint8Array(data)),
        );
        s.once('connect', () => {
          const phases = phasesFrom(startMs, performance.now());
          const session = sessionOf(url);
          s.on('disconnect', (reason: string) => {
            if (!closing) onClose(`disconnected: ${reason}`);
          });
          resolve({
            send: (data) => void s.emit(SOCKET_IO_MESSAGE, data),
            bufferedAmountBytes: () => ws()?.bufferedAmount ?? 0,
            extensions: () => ws()?.extensions ?? '',
            tlsSession: () => session,
            handshakePhases: () => phases,
            close: async () => {
              closing = true;
              s.close();
            },
          });
        });
      }),
  );
  return {
    opened: result,
    abandon: () => {
      abandoned = true;
      closing = true;
      socket?.close();
    },
  };
}

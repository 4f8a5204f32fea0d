/**
 * A connection on a runtime's built-in (WHATWG) WebSocket, as the bun and deno
 * clients open it: binaryType arraybuffer, connect() resolves on `open`.
 * Neither runtime lets a script reach the TCP socket (no wire tap) or choose the
 * source address: connections come from the address the kernel picks, which is
 * enough up to the local port range. Nor can a script read the TLS session either
 * runtime negotiated.
 */
import type {
  ClientConnection,
  ClientConnectOptions,
  HandshakePhases,
  TlsSession,
} from '../../shared/types/adapter-types.js';
import type { WebSocketConstructor, WebSocketLike } from '../../shared/runtime-globals.js';
import { undisclosedSession } from './tls-trust.js';
import { TotalOnlyPhases } from './socket-phases.js';

const CLOSED = 3;
/** A peer that never answers the close handshake must not hold the client up. */
const CLOSE_WAIT_MS = 1000;

export function connectBuiltIn(
  label: string,
  WebSocket: WebSocketConstructor,
  url: string,
  socketOptions: unknown,
  options: ClientConnectOptions,
): Promise<ClientConnection> {
  if (options.onWireData)
    return Promise.reject(new Error(`${label} client cannot hand over wire data: its WebSocket exposes no raw socket`));
  const phases = new TotalOnlyPhases(
    `${label}'s WebSocket exposes no socket: only the time from connect to open is seen`,
  );
  const socket = socketOptions === undefined ? new WebSocket(url) : new WebSocket(url, socketOptions);
  const session = undisclosedSession(url, `${label}'s WebSocket does not expose its TLS session`);
  return whatwgConnection(label, socket, options, {
    tlsSession: () => session,
    handshakePhases: () => phases.result(),
    onOpen: () => phases.opened(),
  });
}

/**
 * Any WHATWG WebSocket (Bun's, Deno's, undici's) behind the ClientConnection
 * contract: resolves on `open`, rejects with the reason when it never opens.
 * `tlsSession` answers for the connection (only the adapter knows how);
 * `underlyingFailure` is what the adapter saw fail beneath the WebSocket, which
 * says more than its error event (undici's carries no cause: a TLS refusal
 * arrives as an empty message); `onClosed` runs at every close (undici frees
 * its agent there); `onOpen` runs when it opens, before anything else (the handshake's timing).
 */
export function whatwgConnection(
  label: string,
  socket: WebSocketLike,
  { onMessage, onUnexpectedClose }: Pick<ClientConnectOptions, 'onMessage' | 'onUnexpectedClose'>,
  {
    tlsSession,
    handshakePhases,
    underlyingFailure = () => undefined,
    onClosed = () => undefined,
    onOpen = () => undefined,
  }: {
    tlsSession: () => TlsSession;
    handshakePhases: () => HandshakePhases;
    underlyingFailure?: () => string | undefined;
    onClosed?: () => void;
    onOpen?: () => void;
  },
): Promise<ClientConnection> {
  return new Promise<ClientConnection>((resolve, reject) => {
    socket.binaryType = 'arraybuffer';
    let opened = false;
    let closing = false;
    socket.addEventListener('error', (event) => {
      if (!opened)
        reject(new Error(`${label} client could not connect: ${underlyingFailure() ?? (event.message || 'error')}`));
    });
    socket.addEventListener('message', (event) => {
      const data = event.data as string | ArrayBuffer;
      onMessage(typeof data === 'string' ? data : new Uint8Array(data));
    });
    socket.addEventListener('close', (event) => {
      onClosed();
      if (!opened)
        return reject(
          new Error(`${label} client could not connect: ${underlyingFailure() ?? `closed with code ${event.code}`}`),
        );
      if (!closing) onUnexpectedClose(`connection closed by peer (code ${event.code})`);
    });
    socket.addEventListener('open', () => {
      onOpen();
      opened = true;
      resolve({
        send: (data) => socket.send(data),
        bufferedAmountBytes: () => socket.bufferedAmount,
        extensions: () => socket.extensions,
        tlsSession,
        handshakePhases,
        close: () =>
          new Promise<void>((done) => {
            closing = true;
            if (socket.readyState === CLOSED) return done();
            socket.addEventListener('close', () => done());
            socket.close(1000);
            setTimeout(done, CLOSE_WAIT_MS).unref?.();
          }),
      });
    });
  });
}

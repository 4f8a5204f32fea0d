/** The `ws` client: compression off unless the cell asks, limits pinned; TLS through Node's tls.connect. */
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { probeWs } from '../servers/ws-build.js';
import { WS_DEFLATE_OPTIONS, WS_DEFLATE_SETTINGS } from '../servers/deflate-settings.js';
import type {
  ClientAdapter,
  ClientConnection,
  HandshakePhases,
  MessageData,
  TlsSession,
} from '../../shared/types/adapter-types.js';
import { isTlsUrl, nodeTlsContext, tlsSessionOf } from './tls-trust.js';
import { SocketPhases } from './socket-phases.js';
import { readThrottle } from './read-throttle.js';

const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;
/** ws frames bytes sent with this option as text: the same text frame on the wire. */
const AS_TEXT = { binary: false } as const;

export const wsClient: ClientAdapter = {
  name: 'ws',
  protocol: 'websocket',
  runtime: 'node',
  capabilities: {
    wireTap: true,
    deflate: true,
    tls: true,
    tlsInsecure: true,
    tlsSession: true,
    pauseReading: true,
    handshakePhases: true,
    httpClient: true,
  },
  settings: {
    ...WS_DEFLATE_SETTINGS,
    maxPayloadBytes: MAX_PAYLOAD_BYTES,
    autoPong: true,
    utf8Validation: true,
    textSentAs: 'bytes with binary: false (the same text frame; one write per frame, a repeated string encoded once)',
    tls: "when on: Node's tls.connect trusting only the given CA, Node's default versions and ciphers, a full handshake per connection (no session reuse)",
  },
  probe: probeWs,

  connect(url, { onMessage, onUnexpectedClose, localAddress, onWireData, deflate, textAsBytes, tls, protocols = [] }) {
    return new Promise<ClientConnection>((resolve, reject) => {
      const socket = new WebSocket(url, protocols, {
        perMessageDeflate: deflate ? { ...WS_DEFLATE_OPTIONS } : false,
        maxPayload: MAX_PAYLOAD_BYTES,
        autoPong: true,
        skipUTF8Validation: false,
        ...(localAddress ? { localAddress } : {}),
        ...nodeTlsContext(tls),
      });
      const phases = new SocketPhases();
      requestOf(socket)?.once('socket', (raw: Socket) => phases.watch(raw, isTlsUrl(url)));
      const fail = (error: Error): void => reject(new Error(`ws client could not connect: ${error.message}`));
      socket.once('error', fail);
      socket.once('open', () => {
        phases.opened();
        socket.off('error', fail);
        if (onWireData && !tapWire(socket, onWireData)) {
          socket.terminate();
          return reject(new Error('ws client could not tap the wire: no underlying socket'));
        }
        resolve(openConnection(socket, phases, onMessage, onUnexpectedClose, textAsBytes === true));
      });
    });
  },
};

/** The close event that follows an error carries the news; one listener for every socket. */
const ignoreError = (): void => undefined;

/**
 * Listens to an open socket and wraps it. Outside connect()'s closure on purpose: the
 * listeners made here keep only what they name alive, not the handshake's scope.
 */
function openConnection(
  socket: WebSocket,
  phases: SocketPhases,
  onMessage: (data: MessageData) => void,
  onUnexpectedClose: (reason: string) => void,
  textAsBytes: boolean,
): WsConnection {
  const raw = rawSocket(socket);
  const connection = new WsConnection(socket, phases, tlsSessionOf(raw), raw);
  socket.on('error', ignoreError);
  // ws hands over (data, isBinary); with text as bytes the scenario's handler takes the Buffer as it is.
  if (textAsBytes) socket.on('message', onMessage);
  else socket.on('message', (data: Buffer, isBinary: boolean) => onMessage(isBinary ? data : data.toString()));
  socket.on('close', (code: number) => {
    if (!connection.closing) onUnexpectedClose(`connection closed by peer (code ${code})`);
  });
  return connection;
}

/**
 * One open connection. A class, not an object of closures: a fan-out client holds
 * tens of thousands of these, and methods on the prototype are shared where an
 * object literal's arrows cost every connection its own seven functions, which kept
 * the handshake's whole scope alive too. With the listeners made in openConnection(),
 * a client holding 10,000 connections kept about 1.8 KB less heap each (and so less
 * for every full GC to mark).
 */
class WsConnection implements ClientConnection {
  /** Set once the client asked to close: a close after that is no loss. */
  closing = false;
  private throttle: ((bytesPerSec: number | null) => void) | null = null;

  constructor(
    private readonly socket: WebSocket,
    private readonly phases: SocketPhases,
    private readonly session: TlsSession,
    private readonly raw: Socket | undefined,
  ) {}

  send(data: MessageData): void {
    if (typeof data === 'string') this.socket.send(textBytes(data), AS_TEXT);
    else this.socket.send(data);
  }

  bufferedAmountBytes(): number {
    return this.socket.bufferedAmount;
  }

  extensions(): string {
    return this.socket.extensions;
  }

  tlsSession(): TlsSession {
    return this.session;
  }

  handshakePhases(): HandshakePhases {
    return this.phases.result();
  }

  /** The throttle watches its socket from the first call on: connections never throttled carry none. */
  throttleReading(bytesPerSec: number | null): void {
    if (!this.raw) throw new Error('ws client cannot throttle reading: no underlying socket');
    this.throttle ??= readThrottle(this.raw);
    this.throttle(bytesPerSec);
  }

  close(): Promise<void> {
    const socket = this.socket;
    return new Promise<void>((done) => {
      this.closing = true;
      if (socket.readyState === WebSocket.CLOSED) return done();
      socket.once('close', () => done());
      socket.close();
      // A peer that never answers the close handshake must not hold us up.
      setTimeout(() => socket.terminate(), 1000).unref();
    });
  }
}

/**
 * Text leaves as bytes, which ws treats as read-only: it masks them straight into the
 * frame's own buffer and makes one write. Given a string, ws encodes it, masks it in
 * place and writes header and payload as a corked pair: 4 % more client CPU per
 * 32-byte echo message here, and the encoding another 3 %. A string sent again (a
 * scenario's fixed payload) is encoded once; any other string costs what ws would
 * have spent on it.
 */
let lastText: string | undefined;
let lastTextBytes = Buffer.alloc(0);
function textBytes(text: string): Buffer {
  if (text !== lastText) {
    lastTextBytes = Buffer.from(text);
    lastText = text;
  }
  return lastTextBytes;
}

/**
 * Hands every chunk the TCP socket receives after the upgrade to `onWireData`
 * (over TLS, the frames as they come out of decryption).
 * ws emits 'open' synchronously inside setSocket(), after unshifting the bytes
 * that came in with the 101 response and before the socket flows again, so a
 * listener added here sees every frame and none of the HTTP handshake.
 */
function tapWire(socket: WebSocket, onWireData: (chunk: Uint8Array) => void): boolean {
  const raw = rawSocket(socket);
  if (!raw) return false;
  raw.on('data', onWireData);
  return true;
}

/** ws keeps the connection's net.Socket (a tls.TLSSocket for wss://) in a field it does not document. */
function rawSocket(socket: WebSocket): Socket | undefined {
  return (socket as unknown as { _socket?: Socket })._socket;
}

/** ws keeps the upgrade's http.ClientRequest in another (set in the constructor): its 'socket' event is the TCP socket's birth. */
function requestOf(socket: WebSocket): { once(event: 'socket', listener: (raw: Socket) => void): unknown } | undefined {
  return (socket as unknown as { _req?: { once(event: 'socket', listener: (raw: Socket) => void): unknown } })._req;
}

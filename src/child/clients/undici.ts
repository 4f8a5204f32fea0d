/**
 * undici's WHATWG WebSocket (the one Node 22 ships as a global), binaryType
 * arraybuffer. It always offers permessage-deflate and has no option to stop:
 * the servers decide, and they accept it only when the cell asks (deflate=on).
 * It sends its own messages uncompressed either way (RFC 7692 allows that).
 */
import type { Socket } from 'node:net';
import { Agent, buildConnector, WebSocket, type Dispatcher } from 'undici';
import { probeByImport } from '../../shared/package-version.js';
import type { ClientAdapter, ClientTls, TlsSession } from '../../shared/types/adapter-types.js';
import type { WebSocketLike } from '../../shared/runtime-globals.js';
import { whatwgConnection } from './built-in-websocket.js';
import { isTlsUrl, NO_TLS, nodeTlsContext, tlsSessionOf } from './tls-trust.js';
import { SocketPhases } from './socket-phases.js';
import { readThrottle } from './read-throttle.js';

/**
 * One dispatcher per source address, so many connections can spread over 127.x.
 * The address goes in the Agent's own `localAddress` option: undici's connector
 * overwrites a `connect: { localAddress }` with the client's (null) one.
 */
const agents = new Map<string, Agent>();
function agentFor(localAddress: string): Agent {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new Agent({ localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
}

/**
 * A dispatcher of its own for one connection, whose connector sees its socket:
 * for TLS (its trust, the session read off the socket, and the reason a
 * handshake failed: a shared agent could not tell whose socket is whose), for
 * a wire tap, for the handshake's steps (the connector returns the socket at
 * once, before it connects) and for reading it slowly.
 *
 * Its TLS session cache is off, so every connection pays a full handshake, as
 * with the ws client, which keeps none.
 */
function connectionAgent(
  localAddress: string | undefined,
  tls: ClientTls | undefined,
  {
    onCreated,
    onSocket,
    onError,
  }: { onCreated: (socket: Socket) => void; onSocket: (socket: Socket) => void; onError: (error: Error) => void },
): Dispatcher {
  // Its types say void, but undici's connector returns the socket it made, before it connects.
  const connect = buildConnector({ ...nodeTlsContext(tls), maxCachedSessions: 0 }) as unknown as (
    ...args: Parameters<buildConnector.connector>
  ) => Socket | undefined;
  const agent = new Agent({
    ...(localAddress ? { localAddress } : {}),
    connect(options, callback) {
      const created = connect(options, (...args) => {
        const [error, socket] = args;
        if (error) onError(error);
        if (socket) onSocket(socket as Socket);
        callback(...args);
      });
      if (created) onCreated(created);
    },
  });
  return agent.compose(upgradeOutcome(onError));
}

/**
 * undici's WebSocket fails a handshake with an error event that says nothing
 * (the status and the cause stay inside it): this interceptor hears them first,
 * a status other than 101 and a connection that broke before any answer.
 */
function upgradeOutcome(onError: (error: Error) => void): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    dispatch(
      options,
      new Proxy(handler, {
        get(target, name, receiver) {
          const value: unknown = Reflect.get(target, name, receiver);
          if (typeof value !== 'function') return value;
          if (name === 'onResponseStart') {
            return (controller: unknown, status: number, ...rest: unknown[]) => {
              if (status !== 101) onError(new Error(`the server answered the upgrade with HTTP ${status}`));
              return value.call(target, controller, status, ...rest);
            };
          }
          if (name === 'onResponseError') {
            return (controller: unknown, error: Error, ...rest: unknown[]) => {
              onError(error);
              return value.call(target, controller, error, ...rest);
            };
          }
          return value.bind(target);
        },
      }),
    );
}

/**
 * Hands every chunk a tapped connection's socket receives after the HTTP
 * upgrade to `onWireData` (over TLS, the frames as they come out of decryption).
 *
 * The tap must not listen during the handshake: a 'data' listener there would
 * switch the socket to flowing mode once undici's HTTP parser lets go of it,
 * and the frames that follow the 101 response would be emitted before the
 * WebSocket attaches its own listener (they were lost when tried). So the tap
 * joins at the moment undici's WebSocket adds the socket's first 'data'
 * listener (undici's HTTP/1 parser pulls with 'readable' and never adds one):
 * from then on both see the same chunks, the unshifted bytes that arrived with
 * the 101 response included, and none of the HTTP handshake.
 */
function tapOnceUpgraded(socket: Socket, onWireData: (chunk: Uint8Array) => void): void {
  const join = (event: string | symbol): void => {
    if (event !== 'data') return;
    socket.off('newListener', join);
    socket.on('data', onWireData);
  };
  socket.on('newListener', join);
}

/** A plain connection on a shared dispatcher: which socket is its own is not known (inspectSocket asks for one of its own). */
const SHARED_DISPATCHER = {
  tcpConnectUs: null,
  tlsHandshakeUs: null,
  upgradeUs: null,
  reason: "undici's shared dispatcher hides which socket is this connection's",
};

export const undiciClient: ClientAdapter = {
  name: 'undici',
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
    perMessageDeflate: 'always offered (undici has no option); servers accept it only when the cell asks',
    binaryType: 'arraybuffer',
    tls: "when on: a dispatcher per connection whose connector trusts only the given CA, Node's default versions and ciphers, no session reuse",
  },
  probe: () => probeByImport('undici', () => import('undici')),

  async connect(url, { onMessage, onUnexpectedClose, localAddress, onWireData, tls, inspectSocket, protocols }) {
    let session: TlsSession = NO_TLS;
    let failure: string | undefined;
    let raw: Socket | undefined;
    const phases = new SocketPhases();
    const ownAgent =
      onWireData || tls || inspectSocket || isTlsUrl(url)
        ? connectionAgent(localAddress, tls, {
            onCreated: (socket) => phases.watch(socket, isTlsUrl(url)),
            onSocket(socket) {
              raw = socket;
              session = tlsSessionOf(socket);
              if (onWireData) tapOnceUpgraded(socket, onWireData);
            },
            // The first cause is the one: the connection closing after a refused status says less.
            onError: (error) => (failure ??= error.message),
          })
        : null;
    const dispatcher = ownAgent ?? (localAddress ? agentFor(localAddress) : null);
    const socket = new WebSocket(
      url,
      dispatcher || protocols
        ? { ...(dispatcher ? { dispatcher } : {}), ...(protocols ? { protocols } : {}) }
        : undefined,
    );
    // The upgraded socket left the agent's pool at the handshake; closing frees the rest.
    const freeAgent = (): void => void ownAgent?.close().catch(() => undefined);
    const connection = await whatwgConnection(
      'undici',
      socket as unknown as WebSocketLike,
      { onMessage, onUnexpectedClose },
      {
        tlsSession: () => session,
        handshakePhases: () => (ownAgent ? phases.result() : { ...phases.result(), ...SHARED_DISPATCHER }),
        underlyingFailure: () => failure,
        onClosed: freeAgent,
        onOpen: () => phases.opened(),
      },
    );
    return raw ? { ...connection, throttleReading: readThrottle(raw) } : connection;
  },
};

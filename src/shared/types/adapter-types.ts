/**
 * The contracts between the engine and the stack adapters. Adding a stack =
 * one file implementing ServerAdapter or ClientAdapter + one registry line.
 * Units live in the names: `Bytes`, `Ms`, `Us`.
 */
import type { Availability, Protocol, Runtime, StackSettings } from './result-types.js';

export type { Runtime, StackSettings };

/** A message as scenarios see it: text arrives as a string, binary as bytes. */
export type MessageData = string | Uint8Array;

// ---------------------------------------------------------------- TLS

/** A server's certificate and private key, PEM text (src/parent/certificate.ts makes a throwaway pair per run). */
export interface ServerTls {
  certPem: string;
  keyPem: string;
}

/**
 * How a client checks the server's certificate: against exactly this CA (the run's
 * self-signed certificate, or a user's `--ca`), or not at all (`--insecure`, for
 * stacks whose `tlsInsecure` capability is true).
 */
export type ClientTls = { caPem: string; insecure?: never } | { insecure: true; caPem?: never };

/** What a client's TLS handshake settled on, or why the stack cannot tell. */
export type TlsSession =
  | {
      /** As OpenSSL names it: `TLSv1.3`, `TLSv1.2`. */
      protocol: string;
      /** The IANA/OpenSSL standard name, e.g. `TLS_AES_256_GCM_SHA384`. */
      cipher: string;
    }
  | { protocol: null; cipher: null; reason: string };

// ---------------------------------------------------------------- server side

/** One accepted connection on the server, whatever the stack. */
export interface ServerConnection {
  /** Dense id, unique within one server run. */
  readonly id: number;
  /** Queues a message; false when the stack dropped it (e.g. uWS backpressure limit) or the connection is gone. */
  send(data: MessageData): boolean;
  /**
   * Sends one message as several WebSocket frames of at most `fragmentBytes` payload each.
   * Absent when the stack cannot control framing (socket.io).
   */
  sendFragmented?(data: MessageData, fragmentBytes: number): boolean;
  /** Bytes queued by the stack but not yet written to the socket. */
  bufferedAmountBytes(): number;
  /** Closes the connection politely. */
  close(): void;
  /**
   * Adds the connection to `topic`, the stack's own way (uWS and Bun topics, a socket.io room, a
   * topic map on ws and Deno): RunningServer.publish(topic) reaches it from then on, until it closes.
   */
  subscribe(topic: string): void;
  /** Takes the connection off `topic`. */
  unsubscribe(topic: string): void;
}

/** A plain HTTP request served by the same server process as the WebSockets. */
export interface HttpRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** Request body decoded as UTF-8 ('' for none). */
  body: string;
}

export interface HttpResponse {
  /** Defaults to 200. */
  status?: number;
  /** Defaults to application/json. */
  contentType?: string;
  body: string;
}

/** A route handler; `"GET /updates"` style keys select it. */
export type HttpHandler = (request: HttpRequest) => HttpResponse;

/** The callbacks an adapter calls; built by the engine from a scenario's server half. */
export interface ServerHandlers {
  onConnection(connection: ServerConnection): void;
  /** `data` is only valid during the call when it is binary: copy it to keep it. */
  onMessage(connection: ServerConnection, data: MessageData): void;
  onClose(connection: ServerConnection): void;
  /** Keyed by `"METHOD /path"`, e.g. `"GET /updates"`. */
  routes?: Record<string, HttpHandler>;
}

export interface ServerStartOptions {
  /** Loopback address to bind, e.g. 127.0.0.1. */
  host: string;
  handlers: ServerHandlers;
  /** Offer permessage-deflate (the cell's `deflate` parameter); off when absent. */
  deflate?: boolean;
  /**
   * Listen on this port beside the cell's other server processes (SO_REUSEPORT; the kernel
   * spreads the connections over them). Absent: a free port of its own, shared too when
   * `sharePort` is set, so the next processes can join it.
   */
  port?: number;
  /** Let other processes listen on the same port (`serverProcesses` above 1). Only asked of stacks whose `sharedPort` capability is true. */
  sharePort?: boolean;
  /** Serve wss:// (https:// for socket.io and the HTTP routes) with this certificate; plain when absent. */
  tls?: ServerTls;
  /**
   * A per-connection send-queue limit the scenario asks for (slow-consumer's backpressureLimit), in
   * place of the one the adapter pins. Only stacks whose `sendQueueLimit` capability is true have
   * such a limit; the others buffer without limit whatever this says.
   */
  sendQueueLimit?: SendQueueLimit;
}

/** Bytes a connection may have queued before the stack drops what is sent to it, or closes it. */
export interface SendQueueLimit {
  bytes: number;
  /** drop: the send is refused (counted in stackDrops); close: the stack closes the connection. */
  onLimit: 'drop' | 'close';
}

/** A server that is listening. */
export interface RunningServer {
  /** ws://host:port/ for WebSocket stacks, http://host:port for socket.io; wss:// and https:// with TLS. */
  url: string;
  /** http://host:port (https:// with TLS), for the scenario's REST routes. */
  httpUrl: string;
  /** Sends one message to every open connection, the stack's idiomatic way. */
  broadcast(data: MessageData): void;
  /** Sends one message to every connection subscribed to `topic`, through the stack's own pub/sub. */
  publish(topic: string, data: MessageData): void;
  /** Messages the stack refused to queue (backpressure drops), since start. */
  stackDrops(): number;
  close(): Promise<void>;
}

/** What a server stack can do beyond plain messages; a scenario that needs more is skipped on it. */
export interface ServerCapabilities {
  /** Offers sendFragmented (one message as several frames). */
  fragmentControl: boolean;
  /** Serves the scenario's HTTP routes beside the WebSockets. */
  httpRoutes: boolean;
  /** Can negotiate permessage-deflate. */
  deflate: boolean;
  /** Can run as several processes listening on one port (SO_REUSEPORT), for the `serverProcesses` parameter. */
  sharedPort: boolean;
  /** Serves TLS when its start options carry a certificate. */
  tls: boolean;
  /** Limits each connection's send queue, and applies ServerStartOptions.sendQueueLimit when given one. */
  sendQueueLimit: boolean;
}

/** One server stack. */
export interface ServerAdapter {
  /** Short name used on the command line (`ws`, `uws`, `socketio`). */
  name: string;
  protocol: Protocol;
  /** The runtime its server child runs under; start() runs there, probe() runs in Node too. */
  runtime: Runtime;
  capabilities: ServerCapabilities;
  /** Every setting that changes the numbers, as the adapter pins it (recorded in the result). */
  settings: StackSettings;
  /** Whether it loads here, with version and build. */
  probe(): Promise<Availability>;
  start(options: ServerStartOptions): Promise<RunningServer>;
}

// ---------------------------------------------------------------- client side

/** One open client connection. */
export interface ClientConnection {
  send(data: MessageData): void;
  /** Bytes queued by the client but not yet written. */
  bufferedAmountBytes(): number;
  /** Resolves once the connection is closed. */
  close(): Promise<void>;
  /** The Sec-WebSocket-Extensions the handshake settled on ('' for none). */
  extensions(): string;
  /** The TLS version and cipher this connection negotiated; null ones with the reason (plain ws://, or a stack that does not say). */
  tlsSession(): TlsSession;
  /** How long each step of opening this connection took, as far as the stack lets it be seen. */
  handshakePhases(): HandshakePhases;
  /**
   * Takes at most `bytesPerSec` bytes a second off the socket (0: none), so the rest stays in the
   * kernel's buffers and TCP flow control pushes back on the server, as a client on a bad network
   * does; null: reads freely again. Absent where the stack cannot reach its socket (capability
   * `pauseReading` false).
   */
  throttleReading?(bytesPerSec: number | null): void;
}

/**
 * The steps of opening one connection, in microseconds (fractional). A stack that hides its socket
 * shows only the total: the steps are null and `reason` says why.
 */
export interface HandshakePhases {
  /** From connect() until the TCP connection was established. */
  tcpConnectUs: number | null;
  /** The TLS handshake, from TCP connected until secure; null for a plain connection too. */
  tlsHandshakeUs: number | null;
  /** From the connection being ready (TCP, or TLS) until the WebSocket opened (socket.io: until its connect event). */
  upgradeUs: number | null;
  /** From connect() until the connection opened. */
  totalUs: number;
  /** Why the steps are not shown. */
  reason?: string;
}

export interface ClientConnectOptions {
  /** Called for every message; binary data may be a view valid only during the call. */
  onMessage(data: MessageData): void;
  /** Called once if the connection closes without the client asking (server gone, error). */
  onUnexpectedClose(reason: string): void;
  /** Local (source) address, to spread many connections over 127.x addresses. */
  localAddress?: string;
  /**
   * When set, the adapter hands over every chunk of raw bytes the TCP socket
   * receives (frames and all), so a scenario can read framing off the wire.
   * Adapters that cannot reach their socket reject connect() with a reason.
   */
  onWireData?(chunk: Uint8Array): void;
  /** Offer permessage-deflate; set by the engine from the cell's `deflate` parameter. */
  deflate?: boolean;
  /**
   * The scenario reads text messages as bytes (it checks sizes, not contents):
   * an adapter that receives text as bytes hands them over as they came, a
   * Uint8Array of UTF-8 already validated, and skips decoding a string nobody
   * reads. Adapters whose runtime decodes text itself still hand over strings,
   * so a scenario that sets this takes both.
   */
  textAsBytes?: boolean;
  /** For a wss:// (or https:// socket.io) URL: what to trust. Absent: the stack's default trust store. */
  tls?: ClientTls;
  /**
   * The scenario reads the handshake's steps or throttles reading: an adapter that shares sockets
   * among connections (undici's dispatcher) gives this one a socket of its own to watch.
   */
  inspectSocket?: boolean;
  /** WebSocket subprotocols to offer in the handshake (Sec-WebSocket-Protocol), e.g. `['mqtt']` for an MQTT broker. */
  protocols?: string[];
}

/** What a client stack can do beyond plain messages. */
export interface ClientCapabilities {
  /** Honours onWireData (raw bytes of the socket). */
  wireTap: boolean;
  /** Can negotiate permessage-deflate. */
  deflate: boolean;
  /** Trusts exactly the CA given in its connect options (ClientTls.caPem). */
  tls: boolean;
  /** Can skip certificate verification (ClientTls.insecure). */
  tlsInsecure: boolean;
  /** Its connections report the negotiated TLS version and cipher (tlsSession() is not null). */
  tlsSession: boolean;
  /** Its connections can stop reading their socket, or read it at a set rate (throttleReading). */
  pauseReading: boolean;
  /** Its connections show the TCP, TLS and upgrade steps of their handshake (handshakePhases()). */
  handshakePhases: boolean;
  /** Its client half can call the server's HTTP routes (ctx.http); a browser page cannot (another origin, no CORS). */
  httpClient: boolean;
}

/** One client stack. */
export interface ClientAdapter {
  name: string;
  protocol: Protocol;
  /** The runtime its client children run under; connect() runs there, probe() runs in Node too. */
  runtime: Runtime;
  capabilities: ClientCapabilities;
  settings: StackSettings;
  probe(): Promise<Availability>;
  /** Resolves once the connection is open; rejects with the reason when it cannot open. */
  connect(url: string, options: ClientConnectOptions): Promise<ClientConnection>;
}

/**
 * uWebSockets.js: compression off unless the cell asks, backpressure limit raised
 * so the stack never drops silently (drops it does make are counted), broadcast
 * by publish(). TLS through its own SSLApp (uSockets on its bundled BoringSSL).
 * Pub/sub is uWS's own: ws.subscribe(topic) and app.publish(topic), as its users write it.
 */
import { STATUS_CODES } from 'node:http';
import { createServer } from 'node:net';
import type { HttpResponse as UwsResponse, WebSocket as UwsSocket } from 'uWebSockets.js';
import type {
  HttpHandler,
  MessageData,
  RunningServer,
  ServerAdapter,
  ServerConnection,
  ServerTls,
} from '../../shared/types/adapter-types.js';
import { writePemFiles } from '../pem-files.js';
import { splitIntoFragments } from './fragments.js';
import { serverUrls } from './server-urls.js';
import { isNativeFunction, loadUws } from './uws-build.js';

const BROADCAST_TOPIC = 'wsbench/all';
/** 512 MiB: far above anything a scenario queues, so publish() never skips a slow reader. */
const MAX_BACKPRESSURE_BYTES = 512 * 1024 * 1024;
const SEND_DROPPED = 2;
/** uSockets' listen options: 0 (its default) sets SO_REUSEPORT, 1 keeps the port to one process. */
const LISTEN_SHARED_PORT = 0;
const LISTEN_EXCLUSIVE_PORT = 1;
/** The binding takes (host, port, options, cb), though its types list options only without a host. */
type ListenWithHost = (host: string, port: number, options: number, cb: (listenSocket: unknown) => void) => unknown;
const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;
const textDecoder = new TextDecoder();

interface UserData {
  connection?: ServerConnection;
  /** Called from uWS's close handler: after it, the socket object must not be touched. */
  markClosed?: () => void;
}

export const uwsServer: ServerAdapter = {
  name: 'uws',
  protocol: 'websocket',
  runtime: 'node',
  capabilities: {
    fragmentControl: true,
    httpRoutes: true,
    deflate: true,
    sharedPort: true,
    tls: true,
    sendQueueLimit: true,
  },
  settings: {
    perMessageDeflate:
      'off unless the cell asks (deflate=on): SHARED_COMPRESSOR | SHARED_DECOMPRESSOR, every message compressed',
    maxPayloadBytes: MAX_PAYLOAD_BYTES,
    maxBackpressureBytes: MAX_BACKPRESSURE_BYTES,
    closeOnBackpressureLimit: false,
    sendQueueLimit:
      'a scenario may ask for its own (slow-consumer: backpressureLimit, onLimit): maxBackpressure and closeOnBackpressureLimit then follow the cell',
    idleTimeoutSec: 0,
    sendPingsAutomatically: false,
    tls: "when on: SSLApp, uSockets' defaults on its bundled BoringSSL (TLS 1.2-1.3)",
    pubsub: "uWS's own topics: ws.subscribe(topic), app.publish(topic, message)",
  },
  async probe() {
    const load = loadUws();
    if (load.problem || !load.build)
      return { available: false, version: load.version, reason: load.problem ?? 'unknown' };
    return { available: true, version: load.version ?? 'unknown', build: load.build };
  },

  async start({
    host,
    handlers,
    deflate = false,
    port: joinPort = 0,
    sharePort = false,
    tls,
    sendQueueLimit,
  }): Promise<RunningServer> {
    const { module: uws, problem } = loadUws();
    if (!uws || problem) throw new Error(problem ?? 'uWebSockets.js unavailable');
    let nextId = 0;
    let dropped = 0;
    const limitBytes = sendQueueLimit?.bytes ?? MAX_BACKPRESSURE_BYTES;
    const sockets = new Set<UwsSocket<UserData>>();
    const count = (status: number): boolean => {
      if (status === SEND_DROPPED) dropped += 1;
      return status !== SEND_DROPPED;
    };

    const app = (tls ? sslApp(uws, tls) : uws.App()).ws<UserData>('/*', {
      // uWS compresses only the sends that ask (the last argument of send and publish).
      compression: deflate ? uws.SHARED_COMPRESSOR | uws.SHARED_DECOMPRESSOR : uws.DISABLED,
      maxPayloadLength: MAX_PAYLOAD_BYTES,
      maxBackpressure: limitBytes,
      closeOnBackpressureLimit: sendQueueLimit?.onLimit === 'close' ? 1 : 0,
      idleTimeout: 0,
      sendPingsAutomatically: false,
      open(socket) {
        const { connection, markClosed } = wrap(socket, nextId++, count, deflate, limitBytes);
        socket.getUserData().connection = connection;
        socket.getUserData().markClosed = markClosed;
        socket.subscribe(BROADCAST_TOPIC);
        sockets.add(socket);
        handlers.onConnection(connection);
      },
      message(socket, message, isBinary) {
        const data: MessageData = isBinary ? new Uint8Array(message) : textDecoder.decode(message);
        handlers.onMessage(socket.getUserData().connection!, data);
      },
      close(socket) {
        sockets.delete(socket);
        socket.getUserData().markClosed!();
        handlers.onClose(socket.getUserData().connection!);
      },
    });
    app.any('/*', (res, req) =>
      serveRoute(res, req.getMethod().toUpperCase(), req.getUrl(), req.getQuery() ?? '', handlers.routes),
    );

    // uSockets sets SO_REUSEPORT only on a port it is given (never on port 0): the first of
    // several processes takes a free port first, then listens on it shared.
    const listenPort = sharePort && joinPort === 0 ? await freePort(host) : joinPort;
    const token = await new Promise<unknown>((resolve, reject) => {
      const listen = app.listen.bind(app) as unknown as ListenWithHost;
      listen(host, listenPort, sharePort ? LISTEN_SHARED_PORT : LISTEN_EXCLUSIVE_PORT, (listenSocket) =>
        listenSocket ? resolve(listenSocket) : reject(new Error(`uWS could not listen on ${host}:${listenPort}`)),
      );
    });
    const port = uws.us_socket_local_port(token as never);
    return {
      ...serverUrls(host, port, { tls: tls !== undefined }),
      broadcast(data) {
        app.publish(BROADCAST_TOPIC, data, typeof data !== 'string', deflate);
      },
      publish(topic, data) {
        app.publish(topic, data, typeof data !== 'string', deflate);
      },
      stackDrops: () => dropped,
      async close() {
        uws.us_listen_socket_close(token as never);
        for (const socket of sockets) socket.close();
      },
    };
  },
};

/**
 * uWS's TLS app. It reads its key and certificate from files only, once, while it
 * builds the app: they live in a private folder for those few milliseconds.
 */
function sslApp(uws: typeof import('uWebSockets.js'), tls: ServerTls): ReturnType<typeof uws.SSLApp> {
  // The package's JavaScript fallback (refused by loadUws) has no SSLApp; a native build compiled without SSL would not serve TLS.
  if (!isNativeFunction(uws.SSLApp)) throw new Error('this uWebSockets.js build has no native SSLApp');
  const files = writePemFiles(tls);
  try {
    return uws.SSLApp({ cert_file_name: files.certPath, key_file_name: files.keyPath });
  } finally {
    files.remove();
  }
}

/**
 * A uWS socket behind the ServerConnection contract. uWS throws "Invalid access of
 * closed uWS.WebSocket" on any call after close, which a scenario replying late
 * (a timer, a moderator delay) would hit; a closed connection answers like the
 * other stacks' do instead: send returns false, close does nothing.
 */
function wrap(
  socket: UwsSocket<UserData>,
  id: number,
  count: (status: number) => boolean,
  compress: boolean,
  limitBytes: number,
): { connection: ServerConnection; markClosed: () => void } {
  let open = true;
  const connection: ServerConnection = {
    id,
    send: (data) => open && count(socket.send(data, typeof data !== 'string', compress)),
    sendFragmented(data, fragmentBytes) {
      if (!open) return false;
      const binary = typeof data !== 'string';
      const parts = splitIntoFragments(data, fragmentBytes);
      if (parts.length === 1) return count(socket.send(parts[0]!, binary, compress));
      // The fragment calls answer false for "backpressure built up" as well as for a
      // drop, so they cannot be counted; uWS drops only above maxBackpressure, which
      // is known before sending.
      if (socket.getBufferedAmount() >= limitBytes) return count(SEND_DROPPED);
      // Corked so the frames of one message leave in as few syscalls as uWS allows.
      socket.cork(() => {
        // Sent uncompressed even with deflate on (RFC 7692 lets a sender skip any message):
        // uWS would compress each fragment on its own, which is not one deflated message.
        socket.sendFirstFragment(parts[0]!, binary);
        for (let i = 1; i < parts.length - 1; i++) socket.sendFragment(parts[i]!);
        socket.sendLastFragment(parts.at(-1)!);
      });
      return true;
    },
    bufferedAmountBytes: () => (open ? socket.getBufferedAmount() : 0),
    close: () => {
      if (open) socket.end(1000);
    },
    subscribe: (topic) => void (open && socket.subscribe(topic)),
    unsubscribe: (topic) => void (open && socket.unsubscribe(topic)),
  };
  return { connection, markClosed: () => (open = false) };
}

function serveRoute(
  res: UwsResponse,
  method: string,
  path: string,
  query: string,
  routes?: Record<string, HttpHandler>,
): void {
  const handler = routes?.[`${method} ${path}`];
  if (!handler) {
    res.writeStatus('404 Not Found').end('not found');
    return;
  }
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  const chunks: Buffer[] = [];
  // uWS hands out body chunks that die with the callback: copy each one.
  res.onData((chunk, isLast) => {
    chunks.push(Buffer.from(new Uint8Array(chunk)));
    if (!isLast || aborted) return;
    const result = handler({ method, path, query: new URLSearchParams(query), body: Buffer.concat(chunks).toString() });
    res.cork(() => {
      res
        .writeStatus(`${result.status ?? 200} ${STATUS_CODES[result.status ?? 200] ?? 'Unknown'}`)
        .writeHeader('content-type', result.contentType ?? 'application/json')
        .end(result.body);
    });
  });
}

/** A port free on `host` right now: the kernel picks one for a throwaway listener. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

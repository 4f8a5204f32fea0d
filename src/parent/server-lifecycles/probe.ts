/**
 * One WebSocket handshake with a foreign server before its clients start, so
 * that an unreachable server, one that answers with something else, or one that
 * closes every connection fails its cell with a reason a person can act on
 * (instead of a client stuck in its connect phase). It speaks plain HTTP
 * (the Upgrade request of RFC 6455), so the engine still knows no WebSocket
 * library. The probe carries the cell's URL, query included: a server may
 * refuse parameters it does not implement by answering with HTTP 400.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Protocol } from '../../shared/types/result-types.js';
import type { ClientTls } from '../../shared/types/adapter-types.js';
import { FrameParser, OPCODE } from '../../shared/parsing/frame-parser.js';
import { nodeTlsOptions } from '../../child/clients/tls-trust.js';
import { monotonicUs } from '../../shared/measure/clock.js';

interface ProbeOptions {
  /** For connecting and for the handshake's answer, together. */
  timeoutMs: number;
  /** How long the open connection is watched for a close from the server. */
  holdMs: number;
  /** Ends the probe at once (an interrupt). */
  signal?: AbortSignal;
  /** For a wss:// or https:// server: what to trust, as the cell's clients do; absent: Node's default roots. */
  tls?: ClientTls;
  /** WebSocket subprotocols to offer, as the cell's clients will (a broker may refuse a handshake without its own). */
  protocols?: string[];
}

/** Why the probe failed; `refused` = nothing listens yet (a starting command may still get there). */
export class ProbeFailure extends Error {
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

/** What the probe saw of a server that passed it. */
interface ProbeAnswer {
  /**
   * When the server's handshake answer arrived (CLOCK_MONOTONIC, µs): the moment it was seen
   * serving. The hold that follows only checks that it keeps the connection, and is not part of it.
   */
  answeredAtUs: number;
}

/** A masked close frame with code 1000 (clients must mask what they send). */
const CLOSE_FRAME = Buffer.from([0x88, 0x82, 0, 0, 0, 0, 0x03, 0xe8]);

/** Resolves when the server completed a WebSocket handshake and kept the connection for holdMs. */
export function probeServer(serverUrl: string, protocol: Protocol, options: ProbeOptions): Promise<ProbeAnswer> {
  const url = new URL(serverUrl);
  const secure = url.protocol === 'wss:' || url.protocol === 'https:';
  const path = protocol === 'websocket' ? `${url.pathname}${url.search}` : engineIoPath(url);
  const key = randomBytes(16).toString('base64');
  return new Promise((resolve, reject) => {
    let connected = false;
    let settled = false;
    const finish = (error: ProbeFailure): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      request.destroy();
      reject(error);
    };
    const onAbort = (): void => {
      finish(new ProbeFailure('interrupted'));
      upgraded?.destroy();
    };
    let upgraded: Socket | null = null;
    const request = (secure ? https : http).request({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (secure ? 443 : 80),
      path,
      method: 'GET',
      agent: false,
      // Credentials in the URL go as Basic auth, as the ws client sends them: a server that checks them lets the probe in.
      ...(url.username || url.password ? { auth: `${url.username}:${url.password}` } : {}),
      ...(secure ? nodeTlsOptions(options.tls) : {}),
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': key,
        ...(options.protocols?.length ? { 'Sec-WebSocket-Protocol': options.protocols.join(', ') } : {}),
      },
    });
    const timer = setTimeout(() => {
      const seconds = `${Math.round(options.timeoutMs / 100) / 10}s`;
      finish(
        new ProbeFailure(
          connected
            ? `no answer to the WebSocket handshake within ${seconds}`
            : `could not connect to ${url.host} within ${seconds}`,
        ),
      );
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('socket', (socket: Socket) =>
      socket.once(secure ? 'secureConnect' : 'connect', () => (connected = true)),
    );
    request.on('error', (error: NodeJS.ErrnoException) => finish(describeError(error, url)));
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body = (body + chunk).slice(0, 2000)));
      const answer = (): void => {
        const line = body
          .split('\n')
          .map((l) => l.trim())
          .find((l) => l !== '');
        finish(
          new ProbeFailure(
            `answered the WebSocket handshake with HTTP ${response.statusCode} ${response.statusMessage ?? ''}`.trim() +
              (line ? `: ${line.slice(0, 200)}` : ''),
          ),
        );
      };
      response.on('end', answer);
      response.on('error', answer);
    });
    request.on('upgrade', (response, socket: Socket, head: Buffer) => {
      const answeredAtUs = monotonicUs();
      // RFC 6455 4.1: a client must fail a connection whose accept value is not the key's.
      const accept = response.headers['sec-websocket-accept'];
      if (accept !== acceptFor(key)) {
        socket.destroy();
        return finish(
          new ProbeFailure(
            `answered the WebSocket handshake with ${accept === undefined ? 'no' : `a wrong Sec-WebSocket-Accept ("${String(accept).slice(0, 60)}")`}${accept === undefined ? ' Sec-WebSocket-Accept' : ''}: not a WebSocket server`,
          ),
        );
      }
      clearTimeout(timer);
      upgraded = socket;
      const closed = (how: string): void => {
        if (settled) return;
        settled = true;
        options.signal?.removeEventListener('abort', onAbort);
        socket.destroy();
        reject(new ProbeFailure(`closed the connection right after the WebSocket handshake (${how})`));
      };
      const parser = new FrameParser({ onControlFrame: (opcode) => opcode === OPCODE.close && closed('close frame') });
      socket.on('data', (chunk: Buffer) => parser.push(chunk));
      socket.on('error', () => closed('connection reset'));
      socket.on('close', () => closed('connection closed'));
      if (head.length > 0) parser.push(head);
      setTimeout(() => {
        if (settled) return;
        settled = true;
        options.signal?.removeEventListener('abort', onAbort);
        socket.removeAllListeners('close');
        socket.removeAllListeners('error');
        socket.on('error', () => undefined);
        socket.end(CLOSE_FRAME);
        setTimeout(() => socket.destroy(), 1000).unref();
        resolve({ answeredAtUs });
      }, options.holdMs);
    });
    request.end();
  });
}

/** The Sec-WebSocket-Accept a server must answer to `key` (RFC 6455 section 4.2.2). */
function acceptFor(key: string): string {
  return createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
}

/** engine.io's WebSocket transport path, the cell's query kept so a socket.io server sees the parameters. */
function engineIoPath(url: URL): string {
  const query = new URLSearchParams(url.search);
  query.set('EIO', '4');
  query.set('transport', 'websocket');
  return `/socket.io/?${query.toString()}`;
}

function describeError(error: NodeJS.ErrnoException, url: URL): ProbeFailure {
  switch (error.code) {
    case 'ECONNREFUSED':
      return new ProbeFailure(`${url.host} refused the connection (ECONNREFUSED)`, true);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      return new ProbeFailure(`host ${url.hostname} does not resolve (${error.code})`);
    case 'ECONNRESET':
      return new ProbeFailure('closed the connection before answering the WebSocket handshake (ECONNRESET)');
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new ProbeFailure(`could not connect to ${url.host} (${error.code})`);
    default:
      if (error.code?.startsWith('HPE_'))
        return new ProbeFailure('answered the WebSocket handshake with something that is not HTTP');
      if (/socket hang up/i.test(error.message))
        return new ProbeFailure('closed the connection before answering the WebSocket handshake');
      return new ProbeFailure(`${error.message.split('\n')[0]}${error.code ? ` (${error.code})` : ''}`);
  }
}

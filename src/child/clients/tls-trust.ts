/**
 * ClientTls in the words of Node's tls.connect (the ws, undici and socket.io
 * clients and the HTTP client all end there), and the TLS session a connection
 * negotiated, read off its socket.
 */
import { createSecureContext, type SecureContext } from 'node:tls';
import type { ClientTls, TlsSession } from '../../shared/types/adapter-types.js';

/**
 * `ca` replaces Node's built-in roots, so the connection trusts exactly that
 * certificate; verification stays on unless insecure is asked for. For callers
 * that hand `ca` to tls.connect (socket.io-client forwards no secureContext, and
 * the HTTP client also runs under Bun and Deno): Node then builds a secure
 * context for every connection.
 */
export function nodeTlsOptions(tls: ClientTls | undefined): { ca?: string; rejectUnauthorized?: boolean } {
  if (!tls) return {};
  return tls.insecure ? { rejectUnauthorized: false } : { ca: tls.caPem, rejectUnauthorized: true };
}

/**
 * The same trust as one secure context per CA for the life of the process, for
 * the ws and undici clients (Node only), which pass it through to tls.connect:
 * building it from `ca` for every connection cost the client about 1.5 ms of CPU
 * per handshake here (25 % of both ends' TLS cost), load a handshake-rate test
 * would put on the load generator rather than the server.
 */
export function nodeTlsContext(tls: ClientTls | undefined): {
  secureContext?: SecureContext;
  rejectUnauthorized?: boolean;
} {
  if (!tls) return {};
  if (tls.insecure) return { rejectUnauthorized: false };
  let secureContext = contexts.get(tls.caPem);
  if (!secureContext) {
    secureContext = createSecureContext({ ca: tls.caPem });
    contexts.set(tls.caPem, secureContext);
  }
  return { secureContext, rejectUnauthorized: true };
}

const contexts = new Map<string, SecureContext>();

/** The socket of a plain ws:// or http:// connection: nothing was negotiated. */
export const NO_TLS: TlsSession = { protocol: null, cipher: null, reason: 'not a TLS connection' };

/** A socket Node made with tls.connect has these; a plain net.Socket does not. */
interface TlsSocketLike {
  getProtocol(): string | null;
  getCipher(): { standardName?: string; name: string } | undefined;
}

/** What a Node socket negotiated, read right after the handshake (a closed socket no longer says). */
export function tlsSessionOf(socket: unknown): TlsSession {
  const tlsSocket = socket as Partial<TlsSocketLike> | null | undefined;
  if (typeof tlsSocket?.getProtocol !== 'function' || typeof tlsSocket.getCipher !== 'function') return NO_TLS;
  const protocol = tlsSocket.getProtocol();
  const cipher = tlsSocket.getCipher();
  if (!protocol || !cipher)
    return { protocol: null, cipher: null, reason: 'the TLS socket closed before its session was read' };
  return { protocol, cipher: cipher.standardName ?? cipher.name };
}

/** For stacks that do TLS but keep the session to themselves: why it is unknown, or NO_TLS for a plain URL. */
export function undisclosedSession(url: string, reason: string): TlsSession {
  return isTlsUrl(url) ? { protocol: null, cipher: null, reason } : NO_TLS;
}

/** wss:// for a WebSocket server, https:// for socket.io's. */
export function isTlsUrl(url: string): boolean {
  return /^(wss|https):/i.test(url);
}

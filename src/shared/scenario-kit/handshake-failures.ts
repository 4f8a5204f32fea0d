/**
 * Why a WebSocket handshake failed, read off the client stack's rejection text
 * (each stack words it its own way; the tests hold every stack to these
 * classes against a server that refuses, resets and presents an untrusted
 * certificate).
 */

/** refused: nothing listened; reset: the server dropped the connection mid-handshake; timeout: no open within the deadline; tls: the TLS handshake failed; httpStatus: the server answered the upgrade with another status than 101. */
export type HandshakeFailure = 'refused' | 'reset' | 'timeout' | 'tls' | 'httpStatus' | 'other';
export const HANDSHAKE_FAILURES: readonly HandshakeFailure[] = [
  'refused',
  'reset',
  'timeout',
  'tls',
  'httpStatus',
  'other',
];

/** Checked in this order: a status line or a certificate problem says more than the reset that follows it. */
const PATTERNS: ReadonlyArray<[HandshakeFailure, RegExp]> = [
  ['httpStatus', /unexpected server response|status code|non-101|\bHTTP [1-5]\d\d\b/i],
  [
    'tls',
    /certificate|self[- ]signed|\bSSL\b|\bTLS\b|alert|UnknownIssuer|BadSignature|NoApplicationProtocol|ERR_TLS|CERT_|handshake failed|unable to verify/i,
  ],
  // On loopback a TCP connect fails only when nothing listens: Bun says "Failed to connect", Deno "tcp connect error".
  ['refused', /ECONNREFUSED|connection refused|failed to connect$|tcp connect error/i],
  ['timeout', /ETIMEDOUT|timed out|timeout/i],
  // Deno says no more than "connection error" when the server drops the connection mid-handshake.
  [
    'reset',
    /ECONNRESET|EPIPE|socket hang up|connection reset|closed before|reset by peer|UND_ERR_SOCKET|other side closed|code 1006|unexpected EOF|connection closed|connection error/i,
  ],
];

/** A URL in the text (Bun quotes the whole one, query and all): its parameters (tls=off, handshakeTimeout=...) are no reason. */
const URL_TEXT = /'?\b[a-z][a-z0-9+.-]*:\/\/[^\s']*'?/gi;

/**
 * The class of a failed WebSocket handshake (refused, reset, timeout, tls, httpStatus, other), read off any client
 * stack's error text.
 */
export function classifyHandshakeFailure(message: string): HandshakeFailure {
  const text = message.replace(URL_TEXT, '');
  for (const [failure, pattern] of PATTERNS) if (pattern.test(text)) return failure;
  return 'other';
}

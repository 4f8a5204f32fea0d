/**
 * What each client handshake negotiated, recorded as counters of the cell
 * (`connectionsOpened`, `deflateNegotiated`, and one per TLS outcome: see
 * tls-sessions.ts) and, once per distinct value, a note with the extensions,
 * so the result says what was negotiated rather than what was asked.
 */
import type { ClientConnection } from '../shared/types/adapter-types.js';
import type { Counter } from '../shared/types/scenario-types.js';
import { tlsSessionCounter } from './tls-sessions.js';

interface HandshakeLog {
  record(connection: Pick<ClientConnection, 'extensions' | 'tlsSession'>): void;
}

export function handshakeLog(
  counter: (name: string) => Counter,
  note: (text: string) => void,
  deflateAsked: boolean,
): HandshakeLog {
  const opened = counter('connectionsOpened');
  const deflated = counter('deflateNegotiated');
  const seen = new Set<string>();
  return {
    record(connection) {
      const extensions = connection.extensions();
      const tls = tlsSessionCounter(connection.tlsSession());
      if (tls !== null) counter(tls).add();
      opened.add();
      const deflate = /(^|,)\s*permessage-deflate\b/.test(extensions);
      if (deflate) deflated.add();
      if (seen.has(extensions)) return;
      seen.add(extensions);
      if (extensions !== '') note(`handshake negotiated extensions: ${extensions}`);
      else if (deflateAsked) note('deflate=on but the handshake negotiated no permessage-deflate');
    },
  };
}

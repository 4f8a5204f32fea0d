/**
 * What the clients' TLS handshakes negotiated. Each client process counts its
 * connections by outcome in counters named for it (`tlsSession TLSv1.3
 * TLS_AES_256_GCM_SHA384`, or `tlsSession unknown: <reason>` where the stack
 * cannot tell), so they add up over processes, rounds and shards like every
 * other counter; the cell's `tls` field is read back from them here, the one
 * place that knows the naming.
 */
import type { TlsSession } from '../shared/types/adapter-types.js';
import type { TlsOutcome } from '../shared/types/result-types.js';
import { NO_TLS } from './clients/tls-trust.js';

const PREFIX = 'tlsSession ';
const UNKNOWN = 'unknown: ';

/** The counter that counts connections with this session; null for a plain connection (nothing to record). */
export function tlsSessionCounter(session: TlsSession): string | null {
  if (session.protocol !== null) return `${PREFIX}${session.protocol} ${session.cipher}`;
  if (session.reason === (NO_TLS as { reason: string }).reason) return null;
  return `${PREFIX}${UNKNOWN}${session.reason}`;
}

/** The outcomes the counters hold, most connections first; empty when the cell made no TLS connection. */
export function tlsOutcomes(counters: Readonly<Record<string, number>>): TlsOutcome[] {
  const outcomes: TlsOutcome[] = [];
  for (const [name, connections] of Object.entries(counters)) {
    if (!name.startsWith(PREFIX) || connections <= 0) continue;
    const rest = name.slice(PREFIX.length);
    if (rest.startsWith(UNKNOWN)) {
      outcomes.push({ protocol: null, cipher: null, reason: rest.slice(UNKNOWN.length), connections });
      continue;
    }
    const space = rest.indexOf(' ');
    outcomes.push({ protocol: rest.slice(0, space), cipher: rest.slice(space + 1), connections });
  }
  return outcomes.sort((a, b) => b.connections - a.connections);
}

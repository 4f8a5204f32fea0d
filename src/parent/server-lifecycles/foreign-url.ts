/**
 * URLs of foreign servers: which protocol a URL means, the cell's parameters in
 * its query string (the documented way a foreign server learns them), and the
 * plain HTTP origin beside it for REST routes and the stats route.
 */
import type { ParamValues } from '../../shared/types/declaration-types.js';
import type { Protocol } from '../../shared/types/result-types.js';
import { isTlsUrl } from '../../child/clients/tls-trust.js';

/** ws:// and wss:// are WebSocket; http:// and https:// are socket.io. Null for anything else. */
export function protocolOfUrl(text: string): Protocol | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.hostname === '') return null;
  if (url.protocol === 'ws:' || url.protocol === 'wss:') return 'websocket';
  if (url.protocol === 'http:' || url.protocol === 'https:') return 'socket.io';
  return null;
}

/**
 * The URL the clients of one cell connect to: the server's own URL with
 * `scenario=<name>` and every parameter of the cell appended to the query
 * (durations in ms, sizes in bytes, booleans true/false); a query the URL
 * already had is kept, a key it shares with a parameter is replaced.
 */
export function urlWithParams(base: string, scenario: string, params: ParamValues): string {
  const url = new URL(base);
  url.searchParams.set('scenario', scenario);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
  return url.toString();
}

/** http(s)://host:port of a server URL (wss and https become https). */
export function httpOriginOf(serverUrl: string): string {
  const url = new URL(serverUrl);
  return `${isTlsUrl(serverUrl) ? 'https' : 'http'}://${url.host}`;
}

/** True when the host is this machine's loopback (one clock: one-way delays are valid). */
export function isLoopbackUrl(serverUrl: string): boolean {
  const host = new URL(serverUrl).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
